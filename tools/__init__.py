"""Reliability tools for sqlengine: crash simulation, process kills, I/O-error loops, malformed
files, SQL fuzzing and concurrency drivers (issue 11). Each module has a CLI
(``python -m tools.<name> --help``) for the large on-demand runs; the regular test suite
(tests/reliability) runs the same code with small, bounded counts.

Nothing here is imported by the engine, and nothing here edits the engine.
"""
