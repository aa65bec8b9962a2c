"""The DB-API statement's DML/DDL flags come from the text's first word (dbapi_sqltext's
first_keyword); the compiled shortcut for a six-letter ASCII word ended by a blank or
``(`` must say the same as first_keyword for every text."""

import pytest

from sqlengine.dbapi_sqltext import first_keyword
from sqlengine.dbapi_statement import DDL_KEYWORDS, DML_KEYWORDS, Statement


class _Engine:
    column_names = ()
    readonly = True


TEXTS = [
    "INSERT INTO t VALUES(1)", "insert\tinto t values(1)", "Update t SET a=1",
    "DELETE(", "DELETE\nFROM t", "CREATE TABLE t(a)", "create(", "DROP TABLE t",
    "REPLACE INTO t VALUES(1)", "INSERTS INTO t", "INSERT_ INTO t", "INSERT1 x",
    "DELETEé FROM t", "ÄNSERT INTO t", "UPDATE", "UPDATE ", " INSERT INTO t",
    "-- c\nDELETE FROM t", "/* c */ UPDATE t SET a=1", "VACUUM ", "ALTER TABLE t",
    "SELECT 1", "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x", "PRAGMA x",
    "BEGIN", "REINDEX ", "ANALYZE\tt", "INS ERT", "123456 x", "UPD8TE t",
]


@pytest.mark.parametrize("sql", TEXTS)
def test_flags_follow_the_first_keyword(sql):
    st = Statement(_Engine(), sql, sql)
    keyword = first_keyword(sql)
    assert st.is_dml == (keyword in DML_KEYWORDS)
    assert st.is_ddl == (keyword in DDL_KEYWORDS)
