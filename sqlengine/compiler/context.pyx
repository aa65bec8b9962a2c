"""The per-statement compilation state (SQLite's ``Parse``): the program being built, the
database (schema, functions, collations), the parameters seen, and what the statement does
(reads, writes, changes the schema).

One ``Parse`` compiles one statement; it is thrown away afterwards. It never runs code.

Every statement makes one and every coder reads its fields, so it is a compiled cdef class
(context.pxd declares its fields): making one stores them in C, and a module that cimports
it (select.py's and statement.py's .pxd) reads ``p.b``, ``p.schema``, ... as C fields; the
others read them through the slots' getters. A field context.pxd does not declare goes to
the instance's ``__dict__`` (resolve_order's pending_error, explain's sel_ids, pragma's
schema_given).
"""

from sqlengine.compiler._codegen import emit_constant
from sqlengine.compiler._resolve cimport clear_caches
from sqlengine.errors import OperationalError
from sqlengine.sql.limits import MAX_VARIABLE_NUMBER
from sqlengine.vdbe import opcodes as O


def _variable_number(text):
    """The number of a ``?NNN`` token. Leading zeros do not count (``?0001`` is ?1), and
    a number of more than 12 digits is out of range anyway: it reads as 0, so Python's
    int-string limit is never reached."""
    digits = text[1:].lstrip("0")
    if len(digits) > 12:
        return 0
    return int(digits or "0")


cdef class Parse:
    # (the fields are context.pxd's; __init__ sets each one's starting value)

    def __init__(self, db, sql="", ast=None, eqp=False):
        clear_caches()
        self.db = db
        self.schema = db.schema
        self.functions = db.functions  # (the compiler's look-ups: vdbe/functions_bridge.py)
        # (made without the type call: its __cinit__ takes no arguments and it has no
        # __init__)
        self.b = ProgramBuilder.__new__(ProgramBuilder)
        self.sql = sql
        # the lower-case names of the triggers being coded (trigger.py), innermost last: a
        # tuple, replaced on each push and pop (most statements code none: no list to make)
        self.trigger_stack = ()
        self.eqp_names = {}  # cursor -> the name a loop's plan line gives
        # id(SelectCore of a subquery) -> (Scope of the query around it, the core): the
        # subqueries that see that query's result aliases (alias.py); made by the first
        # link (resolve_order.py, _alias.pyx), None until then
        self.alias_links = None
        self.n_param = 0
        # made by the first parameter (param_number): text -> number, and the names by
        # number
        self.params = None
        self.param_names = ()
        self._param_pos = None  # (source offset -> number, once numbered: _number_params)
        self.write = False
        # an INSERT of one row that cannot fail after its first write (insert.py): its
        # program needs no statement savepoint (SQLite's !isMultiWrite)
        self.one_row_write = False
        self.ddl = False
        self.trigger_ctx = None  # (new_base_reg, old_base_reg, table) while coding a trigger
        self.nested = 0
        self.halt_label = None
        # True while a FROM subquery or CTE body compiles: SQLite names its columns before
        # names resolve, so a double-quoted string keeps its bare name there (select.py)
        self.early_names = False
        # True while a value SQLite never codes is coded (select.py: an EXISTS subquery's
        # result columns, a flattened subquery's unused ones): an aggregate that would be
        # "misuse of aggregate" there is NULL (expr.py)
        self.values_unused = False
        self.body_db = None  # the database of the view or trigger body (cte.schema_scope)
        self.trigger_ignore = None  # label RAISE(IGNORE) jumps to inside a trigger body
        self.ast = ast  # the statement's AST (the numbers of its SELECTs: explain.py)
        self.eqp = eqp  # compiling for EXPLAIN QUERY PLAN: plan lines wanted (explain.py)
        self.eqp_parent = 0  # the EXPLAIN QUERY PLAN line new lines go under
        self.returning = None  # what a RETURNING clause (or ALTER's check) returns
        # made on their first write (most statements need none of them):
        self.view_stack = None  # the views being expanded, lower-case (select.py)
        self.flat_names = None  # id(TableRef) -> the name its plan line gives (flatten.py)
        # id(SelectCore of a FROM subquery SQLite flattens) -> the numbers of its result
        # columns the outer query never names (select.py)
        self.unused_values = None
        # id(SelectCore) -> the numbers of its result columns never coded
        # (flatten.ALL_COLUMNS: all, an EXISTS subquery's), while its FROM clause is built
        # (select.py)
        self.uncoded_results = None
        # set while they apply: the WITH stack (cte.py), the calls a subquery may not hand
        # up (aggscope.py), a flattened subquery's FROM item on the right of a LEFT JOIN
        # (select.py), whether the statement can carry JSON (subtype.py)
        self.ctes = None
        self.no_hand_up = None
        self.left_flat = False
        self.json_seen = None
        # and those of a write: the flag registers of partial-index keys (partial.py), the
        # AUTOINCREMENT tables being inserted into (autoinc.py), the generated columns
        # being computed (generated.py)
        self.partial_flags = None
        self.autoincs = None
        self.gen_busy = None

    # ---- parameters --------------------------------------------------------------------
    def _number_params(self):
        """Parameter numbers by source offset, assigned in textual order as SQLite's
        parser does (``?`` takes the next number, ``?NNN`` raises the count to NNN, a
        repeated name reuses its number), so that coding order cannot change them."""
        from sqlengine.sql.lexer import next_token

        sql, i, n, count, names, by_pos = self.sql, 0, len(self.sql), 0, {}, {}
        while i < n:
            kind, end = next_token(sql, i)
            if end <= i:
                break
            tok = sql[i:end]
            if kind == "VARIABLE" or tok == "?":
                if tok == "?":
                    count += 1
                    by_pos[i] = count
                elif tok[0] == "?" and tok[1:].isdigit():
                    k = _variable_number(tok)
                    count = max(count, k)
                    by_pos[i] = k
                else:
                    if tok not in names:
                        count += 1
                        names[tok] = count
                    by_pos[i] = names[tok]
            i = end
        return by_pos

    def param_number(self, text, pos=-1):
        if self.params is None:
            self.params = {}
            self.param_names = []
        if pos >= 0:
            if self._param_pos is None:
                self._param_pos = self._number_params()
            n = self._param_pos.get(pos)
            if n is not None:
                if n > self.n_param:
                    self.param_names.extend([None] * (n - self.n_param))
                    self.n_param = n
                if text != "?" and self.param_names[n - 1] is None:
                    self.param_names[n - 1] = text
                self.params.setdefault(text, n)
                return n
        if text == "?":
            self.n_param += 1
            self.param_names.append(None)
            return self.n_param
        if text[0] == "?":
            try:
                n = _variable_number(text)
            except ValueError:
                raise OperationalError(f'near "{text}": syntax error') from None
            if n < 1 or n > MAX_VARIABLE_NUMBER:
                raise OperationalError(
                    f"variable number must be between ?1 and ?{MAX_VARIABLE_NUMBER}")
            while self.n_param < n:
                self.n_param += 1
                self.param_names.append(None)
            return n
        n = self.params.get(text)
        if n is None:
            self.n_param += 1
            n = self.n_param
            self.params[text] = n
            self.param_names.append(text)
        return n

    # ---- collations and functions -------------------------------------------------------
    def collation(self, name):
        if name is None or name.upper() == "BINARY":
            return None
        c = self.db.find_collation(name)
        if c is None:
            raise OperationalError(f"no such collation sequence: {name}")
        return c

    def coll_func(self, name):
        c = self.collation(name)
        return None if c is None else c.func

    # ---- small emission helpers ---------------------------------------------------------------
    def emit_constant(self, value, reg):
        """Load a constant (None, int, float, str or bytes) into ``reg``."""
        emit_constant(self.b, value, reg)

    def halt_error(self, code, message, action=O.OE_ABORT):
        return self.b.emit(O.OP_Halt, code, action, 0, message)
