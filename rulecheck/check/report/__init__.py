"""Telling a person what the checks found: findings and the report (findings), its words (words)
and its page (page), issue traces saved as they are found (witnesses), and a trace replayed step
by step (walkthrough).

Imports rulecheck.check.watch and positions.
"""
