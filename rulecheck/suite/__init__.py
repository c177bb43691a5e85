"""Conformance suites for other implementations of the games, and OpenSpiel interop.

The suite file and its schema (format.py), recording a trace on our engine (record.py), choosing
a suite's traces (export.py), its readable playthrough (playthrough.py), the engine protocol
(protocol.py), our engine behind it (reference.py), replaying a suite on an engine (replay.py),
the pytest plugin (pytest_plugin.py) and every game as a pyspiel game (openspiel.py, an extra).
"""
