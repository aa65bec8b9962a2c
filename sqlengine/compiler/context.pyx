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
    # (the fields are context.pxd's, which says what each holds; a new Parse's fields are
    # all None, and __init__ sets those that start with another value)

    def __init__(self, db, sql="", ast=None, eqp=False):
        clear_caches()
        self.db = db
        self.schema = db.schema
        self.functions = db.functions  # (the compiler's look-ups: vdbe/functions_bridge.py)
        # (made without the type call: its __cinit__ takes no arguments and it has no
        # __init__)
        self.b = ProgramBuilder.__new__(ProgramBuilder)
        self.sql = sql
        self.ast = ast
        self.eqp = eqp
        self.trigger_stack = ()
        self.eqp_names = {}
        self.n_param = 0
        self.param_names = ()
        self.write = False
        self.one_row_write = False
        self.ddl = False
        self.nested = 0
        self.naming = 0  # (_resolve.RESULT_NAMES)
        self.values_unused = False
        self.eqp_parent = 0
        self.left_flat = False

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
