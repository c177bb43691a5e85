"""The verify campaign: every check on every game as independent tasks (verify), the tasks and the
jobs that run them (jobs), the journal of finished tasks (journal), and what the outcomes say
beyond their evidence (explain).

Imports rulecheck.check.running, play, watch, search, proofs and report.
"""
