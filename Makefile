# Quick start: `make verify` runs the main job, `make test` runs the tests.
# Both create .venv and install the project into it when needed; everything is pure Python, so a
# machine with Python alone (no C compiler) runs them. `make lint` runs ruff and mypy (CI runs it
# before the tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: verify test lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

verify: $(STAMP)
	$(BIN)/rulecheck verify

# The tests run in parallel, one pytest-xdist worker per core (a test file to a worker: pyproject.toml's addopts).
test: $(STAMP)
	$(BIN)/python -m pytest -n auto

lint: $(STAMP)
	$(BIN)/ruff check rulecheck properties specs bench tests
	$(BIN)/ruff format --check rulecheck properties specs bench tests
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) report .pytest_cache .hypothesis
