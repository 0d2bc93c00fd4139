"""Solver references and suites: loading, the rules of a reference file, checking, building."""
