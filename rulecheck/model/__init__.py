"""The vocabulary games use to describe themselves to the checks: proof systems, statements of
fact, properties, computed tables and the declaration that gathers a game's parts.

It sits below the games and the checks (docs/kernel.md, Layers): a game builds these values,
a check reads them, and neither needs to import the other.
"""
