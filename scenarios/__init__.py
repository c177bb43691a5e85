"""The rulebooks' edge cases as scenario files (docs/scenarios.md), one folder per game, shipped as
package data of rulecheck.scenarios: a path under `scenarios/` that is not in the current folder
names the shipped file or folder (rulecheck/check/positions/scenario.py, `scenario_path`)."""
