"""``python -m sqllogictest_runner``: the command line (see cli.py). Holds no logic."""

import sys

from sqllogictest_runner.cli import main

sys.exit(main())
