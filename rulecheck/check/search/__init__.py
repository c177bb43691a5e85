"""Searching a game's play for issues: fuzzing (fuzz), bounded exhaustive exploration (explore),
readings that matter found in play (readings), and shrinking a witness (shrink).

Imports rulecheck.check.running, play, watch and positions.
"""
