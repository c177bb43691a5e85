"""rulecheck: rules verification and formal models of board games."""
