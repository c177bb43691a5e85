"""Mechanica: a Tidybot factory of conveyor belts and a rotating Shop (being built)."""
