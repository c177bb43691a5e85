"""Mechanica: a Tidybot factory of conveyor belts and a rotating Shop, over a data set of its components
(game.py and the rule modules it dispatches to for the rules, data.py for the data format, docs/mechanica.md)."""
