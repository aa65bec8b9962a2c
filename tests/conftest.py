"""Root conftest: registers the sqllogictest pytest plugin (tests/slt/*.test become items)
and the hypothesis profiles.

When the project is installed, the pytest11 entry point of the same name registers the
plugin first and that line is a no-op. Under CI (``CI`` set) hypothesis runs derandomized,
so a CI run explores the same examples every time and its verdict is reproducible; a
developer's run explores new ones (and keeps failures in .hypothesis/).
"""

import os

from hypothesis import settings

pytest_plugins = ["sqllogictest_runner.pytest_plugin"]

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
