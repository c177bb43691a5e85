"""The checks: what rulecheck does with a game, in subpackages by concept, each importing only
those listed before it (tests/test_layers.py holds them to this order):

- running: stopping a long run cleanly on signals, and running tasks in processes or on Dask;
- play: played games, seeded random play, Hypothesis strategies and clause-directed play;
- watch: what is checked at every step (properties, the generic checks, the shared API checker);
- positions: scenario files, what the rules allow in a position, positions in a game's own words;
- search: fuzzing, exploration, readings that matter and shrinking witnesses;
- proofs: the Z3 prover, a game's proofs tied to its engine, readings found by Z3, contradictions;
- report: findings, the report's words and page, saved witnesses and walkthroughs of a trace;
- campaign: the verify campaign, its tasks and jobs, its journal and what its outcomes say.
"""
