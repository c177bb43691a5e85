"""rulecheck: rules verification and formal models of board games.

Importing the package first decides whether the engine's compiled modules may run: only a
compiled build of exactly the present sources does (rulecheck.core.native)."""

from rulecheck.core.native import guard

guard()
