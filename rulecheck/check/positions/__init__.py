"""Positions: scenario files (scenario), what the rules allow in a position (ask), and positions,
steps and differences in a game's own words (describe).

Imports rulecheck.check.watch.
"""
