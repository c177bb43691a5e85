"""The rule clause catalogues, one TOML file per game, shipped as package data of rulecheck.specs."""
