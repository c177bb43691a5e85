# Quick start: `make verify` runs the main job, `make test` runs the tests.
# Both create .venv and install the project into it when needed, and compile the engine's hot
# modules with mypyc when their source changed (rulecheck/core/native.py; RULECHECK_PURE=1 runs
# them from source). `make lint` runs ruff and mypy (CI runs it before the tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: verify test lint bench clean native

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# Compiles rulecheck.core.native's modules in place; nothing to do when the build is of the present source.
native: $(STAMP)
	$(BIN)/python -m rulecheck.core.native_build

verify: native
	$(BIN)/rulecheck verify

# The tests run in parallel, one pytest-xdist worker per core (a test file to a worker: pyproject.toml's addopts).
test: native
	$(BIN)/python -m pytest -n auto

lint: $(STAMP)
	$(BIN)/ruff check rulecheck properties specs bench tests
	$(BIN)/ruff format --check rulecheck properties specs bench tests
	$(BIN)/mypy

bench: native
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) report .pytest_cache .hypothesis build/native-tree rulecheck/core/native-build.json
	find rulecheck properties -name '*.so' -delete
