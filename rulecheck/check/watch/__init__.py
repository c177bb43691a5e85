"""What is watched at every step of a run: the properties a game's options promise and which of
them fail (property_checks), the generic checks no game's rules should fail (generic), and the
shared API checker every game must pass (api).

Imports nothing else of rulecheck.check.
"""
