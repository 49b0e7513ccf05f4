"""Benchmark topics for `companion bench` (one module each)."""
