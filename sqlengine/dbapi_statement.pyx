"""The DB-API's view of one prepared engine statement (``dbapi.py``'s ``_Statement``): the
engine statement, the SQL text it came from, and what the DB-API decides from that text
(DML for the implicit BEGIN and rowcount, DDL for the statement cache, the column names
for ``cursor.description``).

Compiled because ``Cursor.execute`` makes one for every statement it prepares (the
statement cache aside): as a plain-Python class its construction and reset were a fixed
cost of thousands of interpreted instructions a statement. Only state and the text
checks live here; every DB-API convention stays in ``dbapi.py``, and like it this module
talks to the engine only through the ``sqlengine.database`` contract.
"""

from sqlengine.dbapi_sqltext import first_keyword

DML_KEYWORDS = frozenset(("INSERT", "UPDATE", "DELETE", "REPLACE"))
DDL_KEYWORDS = frozenset(("CREATE", "DROP", "ALTER", "VACUUM", "REINDEX", "ANALYZE"))
UNSET = object()  # (Statement.bind_all not looked up yet)

# column names (a tuple) -> their plain description, recently made
cdef dict _descriptions = {}


cdef object _first_keyword(object sql):
    """``first_keyword(sql)``, without its Python call for a text that starts with an
    ASCII word of six letters ended by a blank or ``(`` (INSERT, UPDATE, DELETE, CREATE
    ...: the first word is then those letters)."""
    if type(sql) is str and len(sql) > 6 and sql[6] in " \t\n\r(":
        word = sql[:6]
        if word.isascii() and word.isalpha():
            return word.upper()
    return first_keyword(sql)


cdef class Statement:
    """A prepared engine statement with what the DB-API needs to know about it."""

    cdef public object stmt, sql, text, names, description, bind_all
    cdef public bint is_dml, is_ddl, readonly, in_use, cached
    cdef public Py_ssize_t ncols
    cdef object __weakref__

    def __init__(self, stmt, sql, text):
        self.stmt = stmt
        self.sql = sql
        self.text = text
        self.in_use = False
        self.cached = False
        self.description = None
        # the engine's bind-every-parameter-at-once call, when it has one: looked up by
        # the first _bind with parameters (most statements have none)
        self.bind_all = UNSET
        if stmt is None:
            self.is_dml = self.is_ddl = False
            self.readonly = True
            self.ncols = 0
            self.names = []
            return
        if sql[:6].upper() == "SELECT":  # (whatever follows, the word is neither kind)
            self.is_dml = self.is_ddl = False
        else:
            keyword = _first_keyword(sql)
            self.is_dml = keyword in DML_KEYWORDS
            self.is_ddl = keyword in DDL_KEYWORDS
        self.readonly = getattr(stmt, "readonly", not (self.is_dml or self.is_ddl))
        self.names = list(stmt.column_names)
        self.ncols = len(self.names)

    def param_count(self):
        return 0 if self.stmt is None else self.stmt.param_count

    def param_names(self):
        names = getattr(self.stmt, "param_names", None)
        return list(names) if names is not None else [None] * self.param_count()

    def plain_description(self):
        """cursor.description without converters: a 7-tuple per column, the name first
        (made once for the statement; the same names come back statement after statement,
        so their tuple is kept too, a few hundred of them)."""
        description = self.description
        if description is None:
            key = tuple(self.names)
            description = _descriptions.get(key)
            if description is None:
                if len(_descriptions) >= 256:
                    _descriptions.clear()
                description = _descriptions[key] = tuple(
                    [(name, None, None, None, None, None, None) for name in key])
            self.description = description
        return description

    def reset(self):
        if self.stmt is not None:
            self.stmt.reset()
        self.in_use = False

    def finalize(self):
        if self.stmt is not None:
            self.stmt.finalize()
            self.stmt = None
