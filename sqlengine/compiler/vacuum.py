"""VACUUM [schema] [INTO filename]: the statement's program.

The work is the storage layer's (storage/vacuum.py) and the checks SQLite makes first (no open
transaction, no other statement running, a text file name) are the database's
(``Database._vacuum``); this module only codes the call, with the INTO expression evaluated
at run time so that a bound parameter can name the file. An attached schema never gets here:
its VACUUM is run by the attached file's own database (compiler/attach.py).

Never touches pages or files itself.
"""

from __future__ import annotations

from sqlengine.compiler._codegen import code_expr_reg
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O


def compile_vacuum(p, st: A.Vacuum) -> None:
    schema = (st.schema or "main").lower()
    if schema not in ("main", "temp"):
        raise OperationalError(f"unknown database {st.schema}")
    b = p.b
    out = b.alloc_reg()
    if st.into is None:
        b.emit(O.OP_Function, 0, out, out,
               lambda vm, args, s=schema: vm.db._vacuum(s, None), 0)
    else:
        arg = code_expr_reg(p, None, st.into)
        b.emit(O.OP_Function, 0, arg, out,
               lambda vm, args, s=schema: vm.db._vacuum(s, args[0], True), 1)
