"""The modelled games, one package each (rulecheck/games/<game>/), Globetrotter so far.

A game package may import the kernel (rulecheck.core), the model vocabulary
(rulecheck.model) and geometry, never another game nor anything above the games; each game is
declared and registered in rulecheck/registry.py.
"""
