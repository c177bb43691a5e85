"""Balance: many seeded games of one reading of a rulebook, played by policies, and what they say
about who wins: the statistics (statistics), the figures of a set of games (figures), games played
as seeded tasks and readings compared with the defaults (run), and exact win probabilities by value
iteration where the state space is small (exact).

Imports rulecheck.check.running and play.
"""
