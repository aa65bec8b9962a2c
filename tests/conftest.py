"""Root conftest: registers the sqllogictest pytest plugin (tests/slt/*.test become items).

When the project is installed, the pytest11 entry point of the same name registers it
first and this line is a no-op.
"""

pytest_plugins = ["sqllogictest_runner.pytest_plugin"]
