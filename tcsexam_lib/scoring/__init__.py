"""Scoring: every formula, the solver relative score, the attempts table and the index."""
