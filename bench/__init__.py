"""Benchmarks: the same workloads run on sqlengine and on the stdlib sqlite3, side by side.

``python -m bench`` runs them (each engine and workload in its own subprocess, so peak memory
is measured per run) and prints the time ratio of the two engines; ``pytest bench/`` runs
the same workloads under pytest-benchmark. Nothing here is imported by the engine.
"""
