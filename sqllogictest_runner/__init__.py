"""sqllogictest_runner: the sqllogictest harness of the sqlengine project.

It runs scripts in the sqllogictest format (``.test``, ``.test.gz``) against any DB-API
module with the stdlib sqlite3 API, and gives the verdicts of the reference runner
(sqllogictest.c with slt_sqlite.c, verify mode) as /work/shared/sqllogictest/FORMAT.md
states them. Layers, each in its own module:

- ``parser``: script text -> Records;  ``render``: values -> the reference's text;
- ``engines``: the engine adapter (``Engine``, ``DBAPIEngine``, ``open_engine``);
- ``runner``: one script on one engine -> ``ScriptResult``;
- ``corpus``, ``harness``, ``report``: finding scripts, parallel runs, tables and JSON;
- ``clusters``, ``history``, ``repro``, ``baseline``: the iteration engine;
- ``cli`` (``python -m sqllogictest_runner``, ``sqllogictest``), ``pytest_plugin``.

This package never modifies the scripts it runs and never writes outside the paths it is
given (history database, JSON report, reproductions, baseline).
"""

from sqllogictest_runner.engines import DBAPIEngine, Engine, open_engine
from sqllogictest_runner.parser import Record, parse_file, parse_script
from sqllogictest_runner.runner import ScriptResult, run_file, run_script

__all__ = ["Engine", "DBAPIEngine", "open_engine", "Record", "parse_script", "parse_file",
           "ScriptResult", "run_script", "run_file"]
