"""Conformance suites and interop."""
