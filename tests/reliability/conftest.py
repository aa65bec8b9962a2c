"""Reliability tests (issue 11): make the repository root importable so the tests can use
the drivers in tools/ (the same code the on-demand runs use)."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
