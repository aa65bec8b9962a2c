# cython: language_level=3
"""The records of one WHERE loop, compiled so that making them costs no attribute stores
through Python (every statement of the corpus is planned once, and makes one of each per
FROM item): ``Access``, how one loop level reads its source (``_where._access_of`` turns
the chosen WhereLoop into one), ``Level``, the state ``_where.pyx`` keeps of an open loop,
and ``WhereInfo``, what ``where_begin`` hands its caller. Plain records: they hold no
logic, emit no code and decide nothing.
"""

cimport cython


@cython.freelist(8)  # (made and freed for every statement)
cdef class Access:
    """How one loop level reads its source. ``kind``: scan, rowid_eq, rowid_range, index
    (``eq`` on a prefix, optional range, or nothing at all: a full index scan), auto (an
    automatic index: ``index`` its key columns, ``partial`` the terms that choose the
    rows it holds, ``covering`` set once every read of the table is moved to it)."""

    # (its fields are declared in _levels.pxd)

    def __init__(self, kind):
        self.kind = kind
        self.index = None
        self.eq = []  # expressions, one per leading index column
        self.lo = None
        self.lo_op = None
        self.hi = None
        self.hi_op = None
        self.key_aff = ""  # of the ``eq`` keys
        self.lo_aff = ""  # of the range bounds (an index access)
        self.hi_aff = ""
        self.partial = ()  # (an automatic index: the terms its rows must pass)
        self.covering = False
        self.eqp = ""
        self.reverse = False  # read backwards (delivers a descending ORDER BY)


@cython.freelist(8)  # (made and freed for every statement)
cdef class Level:
    """One open loop of ``where.where_begin``: its source, its Access, its addresses and
    labels (``top``, ``cont``, ``brk``, ``done``), its LEFT JOIN match flag and the
    cursors it reads."""

    # (its fields are declared in _levels.pxd: the labels, addresses, registers and
    # cursors are C ints)

    def __init__(self, src):
        self.src = src
        self.access = None
        self.top = -1
        self.cont = 0  # (labels, once where_begin gives them)
        self.brk = 0
        self.done = 0
        self.match_reg = 0
        self.after_match = 0
        self.icur = -1
        self.scratch = 0
        self.seek = -1  # address of the IdxRowid of an index loop (a table lookup follows)
        self.start = -1  # address of the loop's first instruction
        self.eqp_addr = -1  # the Noop that carries the loop's EXPLAIN QUERY PLAN line
        self.fill_at = -1  # an automatic index: the address of the code that fills it
        self.fill_end = -1  # and the address after that code
        self.in_loops = ()  # (ephemeral cursor, top, next label, desc) per x IN (list)
        self.minmax = False  # in a min()/max() query: its plan line says SEARCH (sqlite3)
        self.rj = None  # a RIGHT JOIN table's state (rightjoin.RightJoin)


@cython.freelist(4)  # (made and freed for every statement)
cdef class WhereInfo:
    """What ``where_begin`` answers: the ``levels`` (outermost first), the label after
    the loops (``brk``), the scope; ``n_ordered``: how many leading terms of the ORDER BY
    given to ``where_begin`` the loops deliver in order (all of them: the caller needs no
    sort); ``sorted``: a GROUP BY given with ``group=2`` comes in its terms' directions too
    (SQLite's WHERE_SORTBYGROUP: the ORDER BY equal to it needs no sort); ``distinct``:
    what the loops do for a DISTINCT given to ``where_begin`` (0: nothing, the caller
    keeps a table of the rows seen; 1: equal rows come together, so comparing with the
    previous row is enough; 2: no two rows can be equal: SQLite's eDistinct);
    ``on_right``: an ON term names a table to its right (see ``where_end``)."""

    # (its fields are declared in _levels.pxd)

    def __init__(self, scope):
        self.levels = []
        self.brk = 0
        self.scope = scope
        self.n_ordered = 0
        self.on_right = False
        self.sorted = False
        self.distinct = 0
