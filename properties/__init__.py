"""The invariants and transition properties of each game, shipped as rulecheck.properties."""
