"""Helpers for unokit's own tests and benchmarks (not a public API)."""
