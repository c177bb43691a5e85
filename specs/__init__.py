"""Each game's rule clauses, audit file and finding-id ledger (TOML), shipped as package data of rulecheck.specs."""
