"""Playing a game: a played game and seeded play (playthrough) by players that choose
(policies: uniform, greedy, a game's plan, and UCT in mcts), random legal play that Hypothesis
draws and shrinks (strategies), and play steered toward chosen clauses (pursuit).

Imports nothing else of rulecheck.check.
"""
