"""Running long jobs: stopping cleanly on SIGINT and SIGTERM (signals), and a campaign's
independent tasks in this process, local processes or on a Dask cluster (parallel).

Imports nothing else of rulecheck.check.
"""
