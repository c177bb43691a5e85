"""Proofs with Z3: the prover (prove), a game's proofs tied to its engine with refinement and
witnesses (game_proofs), readings that matter found in the engine's guards and effects
(symbolic_readings), and contradictions among rulebook statements (contradictions).

Imports rulecheck.check.play, watch and search.
"""
