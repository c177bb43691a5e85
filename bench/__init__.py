"""Benchmarks: speed figures measured by running the code, never asserted in tests."""
