"""The one list of the VM's opcodes: number, name, operands and a one-line doc for each.

Names and operand conventions follow SQLite's VDBE wherever they fit (``r[P1]`` is register
P1, jumps go to address P2). The compiler emits these numbers, the Cython loop in
``_vm.pyx`` switches on them (its ``cdef enum`` must list them in this order; a test holds
the two together) and ``EXPLAIN`` prints these names. This module holds no behaviour and
must never import from the rest of the engine.

Comparison flags (P5 of Eq/Ne/Lt/Le/Gt/Ge):
    low 3 bits   affinity to apply before comparing (AFF_* below; 0 = none)
    JUMPIFNULL   jump when either operand is NULL (otherwise fall through)
    STOREP2      do not jump: store the result (1, 0 or NULL) in r[P2]
    NULLEQ       IS / IS NOT semantics: NULL compares equal to NULL, never NULL result
"""

from __future__ import annotations

# Affinities are SQLite's letters (see _values.pyx); in P5 of a comparison the letter is
# stored as ``ord(letter) & 7`` and read back through AFF_CHARS.
AFF_NONE = "@"
AFF_BLOB = "A"
AFF_TEXT = "B"
AFF_NUMERIC = "C"
AFF_INTEGER = "D"
AFF_REAL = "E"
AFF_CHARS = "@ABCDE"

# P5 flags of the comparison opcodes.
CMP_AFF_MASK = 0x07
CMP_JUMPIFNULL = 0x10
CMP_STOREP2 = 0x20
CMP_NULLEQ = 0x80

# P5 flags of Insert / Delete.
OPFLAG_NCHANGE = 0x01
OPFLAG_NESTED = 0x08     # a change made by a trigger's statement: total_changes only
OPFLAG_LASTROWID = 0x20
# P5 flag of OpenRead / OpenWrite: P2 is a register holding the root page.
OPFLAG_P2ISREG = 0x10

# (name, operands, doc) in opcode-number order.
OPCODES: list[tuple[str, str, str]] = [
    ("Noop", "", "Do nothing."),
    ("Init", "P2", "Start of every program: jump to P2 (the one-time set-up at the end)."),
    ("Goto", "P2", "Jump to P2."),
    ("Halt", "P1 P2 P4", "Stop. P1 = result code (0 ok); if non-zero raise with message P4, P2 = conflict action."),
    ("HaltIfNull", "P1 P2 P3 P4", "If r[P3] is NULL halt with result code P1 and message P4 (NOT NULL constraint)."),
    ("Integer", "P1 P2", "r[P2] = integer P1."),
    ("Int64", "P2 P4", "r[P2] = integer P4."),
    ("Real", "P2 P4", "r[P2] = real P4."),
    ("String8", "P2 P4", "r[P2] = text P4."),
    ("Blob", "P2 P4", "r[P2] = blob P4."),
    ("Null", "P2 P3", "r[P2..P3] = NULL (only r[P2] when P3 <= P2)."),
    ("Variable", "P1 P2", "r[P2] = the value bound to parameter P1 (1-based)."),
    ("Move", "P1 P2 P3", "Move P3 registers r[P1..] to r[P2..]; the sources become NULL."),
    ("Copy", "P1 P2 P3", "Copy P3+1 registers r[P1..] to r[P2..]."),
    ("SCopy", "P1 P2", "r[P2] = r[P1] (shallow)."),
    ("ResultRow", "P1 P2 P5", "Output the row r[P1..P1+P2-1] to the caller (P5=1: text "
     "with a subtype, i.e. JSON, leaves as plain str)."),
    ("OpenRead", "P1 P2 P4", "Open cursor P1 for reading on b-tree root P2; P4 = KeyInfo (index) or column count (table)."),
    ("OpenWrite", "P1 P2 P4", "Open cursor P1 for writing on b-tree root P2; P4 as OpenRead."),
    ("OpenEphemeral", "P1 P2 P4", "Open cursor P1 on a new transient table of P2 columns; P4 = KeyInfo makes it an index."),
    ("OpenPseudo", "P1 P2 P3", "Open cursor P1 on the single row held as a record in r[P2] (P3 columns)."),
    ("Close", "P1", "Close cursor P1."),
    ("Rewind", "P1 P2", "Move cursor P1 to its first row; jump to P2 if it is empty."),
    ("Last", "P1 P2", "Move cursor P1 to its last row; jump to P2 if it is empty."),
    ("Next", "P1 P2", "Advance cursor P1; jump to P2 if there is a row."),
    ("Prev", "P1 P2", "Move cursor P1 back; jump to P2 if there is a row."),
    ("SeekRowid", "P1 P2 P3", "Move table cursor P1 to rowid r[P3]; jump to P2 if absent or not an integer "
     "(a tuple r[P3] is a WITHOUT ROWID row key: the PRIMARY KEY values to seek)."),
    ("NotExists", "P1 P2 P3", "As SeekRowid (for write cursors)."),
    ("SeekGE", "P1 P2 P3 P4", "Move cursor P1 to the first entry >= key r[P3..P3+P4-1]; jump to P2 if none."),
    ("SeekGT", "P1 P2 P3 P4", "Move cursor P1 to the first entry > key r[P3..P3+P4-1]; jump to P2 if none."),
    ("SeekLE", "P1 P2 P3 P4", "Move cursor P1 to the last entry <= key r[P3..P3+P4-1]; jump to P2 if none."),
    ("SeekLT", "P1 P2 P3 P4", "Move cursor P1 to the last entry < key r[P3..P3+P4-1]; jump to P2 if none."),
    ("IdxGE", "P1 P2 P3 P4", "Jump to P2 if the index entry at P1 (rowid ignored) >= key r[P3..P3+P4-1]."),
    ("IdxGT", "P1 P2 P3 P4", "Jump to P2 if the index entry at P1 (rowid ignored) > key r[P3..P3+P4-1]."),
    ("IdxLE", "P1 P2 P3 P4", "Jump to P2 if the index entry at P1 (rowid ignored) <= key r[P3..P3+P4-1]."),
    ("IdxLT", "P1 P2 P3 P4", "Jump to P2 if the index entry at P1 (rowid ignored) < key r[P3..P3+P4-1]."),
    ("IdxRowid", "P1 P2", "r[P2] = the rowid at the end of the index entry at cursor P1 (WITHOUT ROWID: "
     "the tuple of its PRIMARY KEY values; NULL on a NullRow cursor)."),
    ("Column", "P1 P2 P3 P4", "r[P3] = column P2 of the row at cursor P1 (P4 = default when the record is short)."),
    ("Rowid", "P1 P2", "r[P2] = the rowid of the row at cursor P1 (WITHOUT ROWID: its PRIMARY KEY tuple)."),
    ("NullRow", "P1", "Put cursor P1 on a row of NULLs (the unmatched side of a LEFT JOIN)."),
    ("IfNullRow", "P1 P2 P3", "If cursor P1 is on its NULL row, r[P3] = NULL and jump to P2."),
    ("MakeRecord", "P1 P2 P3 P4", "r[P3] = a record of r[P1..P1+P2-1], after applying affinity string P4."),
    ("NewRowid", "P1 P2", "r[P2] = a new rowid for table cursor P1 (largest + 1)."),
    ("Insert", "P1 P2 P3 P4 P5", "Write record r[P2] with rowid r[P3] into table cursor P1; P4 = table name; P5 flags."),
    ("IdxInsert", "P1 P2", "Write record r[P2] into index cursor P1."),
    ("Delete", "P1 P5", "Delete the row at cursor P1; P5 flags (count the change)."),
    ("IdxDelete", "P1 P2 P3", "Delete the index entry of cursor P1 whose key is r[P2..P2+P3-1]."),
    ("Found", "P1 P2 P3 P4", "Jump to P2 if index P1 holds an entry whose prefix is r[P3..P3+P4-1]."),
    ("NotFound", "P1 P2 P3 P4", "Jump to P2 if index P1 holds no entry whose prefix is r[P3..P3+P4-1]."),
    ("NoConflict", "P1 P2 P3 P4", "As NotFound, but also jump when any key value is NULL."),
    ("Count", "P1 P2", "r[P2] = number of rows in the b-tree of cursor P1."),
    ("Clear", "P1 P2", "Delete every row of b-tree root P1; P2 = count them as changes."),
    ("Eq", "P1 P2 P3 P4 P5", "Jump to P2 if r[P3] == r[P1]; P4 = collation; P5 = affinity and flags."),
    ("Ne", "P1 P2 P3 P4 P5", "Jump to P2 if r[P3] != r[P1]."),
    ("Lt", "P1 P2 P3 P4 P5", "Jump to P2 if r[P3] < r[P1]."),
    ("Le", "P1 P2 P3 P4 P5", "Jump to P2 if r[P3] <= r[P1]."),
    ("Gt", "P1 P2 P3 P4 P5", "Jump to P2 if r[P3] > r[P1]."),
    ("Ge", "P1 P2 P3 P4 P5", "Jump to P2 if r[P3] >= r[P1]."),
    ("Compare", "P1 P2 P3 P4", "Compare r[P1..P1+P3-1] with r[P2..P2+P3-1] under KeyInfo P4; remember the result."),
    ("Jump", "P1 P2 P3", "Jump to P1, P2 or P3 as the last Compare found less, equal or greater."),
    ("If", "P1 P2 P3", "Jump to P2 if r[P1] is true (or NULL when P3 is non-zero)."),
    ("IfNot", "P1 P2 P3", "Jump to P2 if r[P1] is false (or NULL when P3 is non-zero)."),
    ("IsNull", "P1 P2", "Jump to P2 if r[P1] is NULL."),
    ("NotNull", "P1 P2", "Jump to P2 if r[P1] is not NULL."),
    ("And", "P1 P2 P3", "r[P3] = r[P1] AND r[P2] (three-valued)."),
    ("Or", "P1 P2 P3", "r[P3] = r[P1] OR r[P2] (three-valued)."),
    ("Not", "P1 P2", "r[P2] = NOT r[P1] (three-valued)."),
    ("IsTrue", "P1 P2 P3 P4", "r[P2] = r[P1] IS TRUE (P4 = 0) / IS FALSE ...: NULL gives P3."),
    ("Add", "P1 P2 P3", "r[P3] = r[P2] + r[P1]."),
    ("Subtract", "P1 P2 P3", "r[P3] = r[P2] - r[P1]."),
    ("Multiply", "P1 P2 P3", "r[P3] = r[P2] * r[P1]."),
    ("Divide", "P1 P2 P3", "r[P3] = r[P2] / r[P1] (NULL when r[P1] is zero)."),
    ("Remainder", "P1 P2 P3", "r[P3] = r[P2] % r[P1] (NULL when r[P1] is zero)."),
    ("Concat", "P1 P2 P3", "r[P3] = r[P2] || r[P1]."),
    ("BitAnd", "P1 P2 P3", "r[P3] = r[P1] & r[P2]."),
    ("BitOr", "P1 P2 P3", "r[P3] = r[P1] | r[P2]."),
    ("ShiftLeft", "P1 P2 P3", "r[P3] = r[P2] << r[P1]."),
    ("ShiftRight", "P1 P2 P3", "r[P3] = r[P2] >> r[P1]."),
    ("BitNot", "P1 P2", "r[P2] = ~r[P1]."),
    ("Negative", "P1 P2", "r[P2] = -r[P1] (numeric, overflow to REAL)."),
    ("Function", "P1 P2 P3 P4 P5", "r[P3] = function P4 of the P5 arguments r[P2..]."),
    ("AggStep", "P1 P2 P3 P4 P5", "Step aggregate P4 whose state is r[P3] with P5 arguments r[P2..]; P1 bit 0 = DISTINCT, P1 >> 1 = register set to 0 when the row became the min/max, else 1."),
    ("AggFinal", "P1 P2 P4", "r[P1] = the final value of aggregate P4 whose state is r[P1]."),
    ("AggValue", "P1 P2 P3 P4", "r[P3] = the current value of aggregate P4 whose state is r[P1] (no finalisation)."),
    ("SorterOpen", "P1 P2 P4", "Open sorter cursor P1 of P2 columns ordered by KeyInfo P4."),
    ("SorterInsert", "P1 P2", "Add the record r[P2] to sorter P1."),
    ("SorterSort", "P1 P2", "Sort sorter P1 and move to its first row; jump to P2 if it is empty."),
    ("SorterNext", "P1 P2", "Advance sorter P1; jump to P2 if there is a row."),
    ("SorterData", "P1 P2", "r[P2] = the record at the current row of sorter P1."),
    ("ResetSorter", "P1", "Empty the transient table or sorter P1."),
    ("Once", "P1 P2", "Fall through the first time this instruction runs in a run; jump to P2 afterwards."),
    ("Gosub", "P1 P2", "r[P1] = address of this instruction; jump to P2."),
    ("Return", "P1", "Jump to the instruction after the address in r[P1]."),
    ("InitCoroutine", "P1 P2 P3", "r[P1] = P3 - 1 (the coroutine's entry); jump to P2 if non-zero."),
    ("Yield", "P1 P2", "Swap the address in r[P1] with the current one (enter or leave a coroutine)."),
    ("EndCoroutine", "P1", "Return from the coroutine in r[P1] for the last time (its caller jumps to its Yield's P2)."),
    ("Affinity", "P1 P2 P4", "Apply affinity string P4 to r[P1..P1+P2-1]."),
    ("Cast", "P1 P2", "r[P1] = CAST(r[P1] AS affinity P2), P2 the affinity's letter code "
                      "(SQLite's: 'A' BLOB .. 'E' REAL)."),
    ("CastType", "P1 P4", "r[P1] = CAST(r[P1] AS type name P4)."),
    ("RealAffinity", "P1", "If r[P1] is an integer, make it a real (REAL columns read back)."),
    ("MustBeInt", "P1 P2", "Make r[P1] an integer; if it cannot be, jump to P2 (or raise datatype mismatch when P2 = 0)."),
    ("IfPos", "P1 P2 P3", "If r[P1] > 0: r[P1] -= P3 and jump to P2."),
    ("IfNotZero", "P1 P2", "If r[P1] != 0: decrement it if positive, and jump to P2."),
    ("DecrJumpZero", "P1 P2", "r[P1] -= 1; jump to P2 if it became zero."),
    ("OffsetLimit", "P1 P2 P3", "r[P2] = r[P1] + max(r[P3], 0) when r[P1] > 0 (rows to read), else -1."),
    ("Transaction", "P1 P2", "Begin a read (P2 = 0) or write (P2 = 1) transaction if none is open."),
    ("AutoCommit", "P1 P2", "Set autocommit to P1; P2 = 1 rolls back (COMMIT/ROLLBACK/BEGIN)."),
    ("Savepoint", "P1 P4", "P1 = 0 open, 1 release, 2 rollback to the savepoint named P4."),
    ("ReadCookie", "P2 P3", "r[P2] = header meta value P3."),
    ("SetCookie", "P2 P3", "Header meta value P2 = P3 (P3 < 0: current value + 1)."),
    ("CreateBtree", "P2 P3", "r[P2] = root page of a new b-tree (P3 = 1 table, 2 index)."),
    ("Destroy", "P1", "Drop the b-tree rooted at page P1."),
    ("ParseSchema", "P4", "Read the schema again from sqlite_schema: only the groups a schema.SchemaEdit P4 names (a DDL statement's), else all of it (P4 = the reason)."),
    ("SetLastRowid", "P1", "Set last_insert_rowid to r[P1]."),
    ("AddChanges", "P1 P2", "Count P1 changes (statements that write rows without Insert/Delete); P2: made by a trigger's statement (total_changes only)."),
    ("Sequence", "P1 P2", "r[P2] = the next sequence number of cursor P1."),
    ("IdxKeyCheck", "P1 P2 P3 P4", "Jump to P2 unless index cursor P1 is on an entry with prefix r[P3..P3+P4-1]."),
    ("RowData", "P1 P2", "r[P2] = the full row (as a record) at cursor P1."),
    ("MemMax", "P1 P2", "r[P1] = max(r[P1], r[P2]) (integers)."),
    ("Raise", "P1 P4", "RAISE(...) from a trigger: P1 = conflict action code, P4 = message."),
    ("IfNullJump", "P1 P2 P3", "Jump to P2 if any of r[P1..P1+P3-1] is NULL."),
    ("InListCheck", "P1 P2 P3 P4", "r[P2] = r[P1] IN set P4 (a frozen set of normalised values), NULL-aware; P3 = has NULL."),
    ("ClrSubtype", "P1", "r[P1] loses its subtype (JSON text becomes plain text), as a value "
     "read out of a FROM subquery, view or CTE does in SQLite."),
    ("SorterCutoff", "P1 P2 P3", "Jump to P2 when top-N sorter P1 already holds rows that "
     "a row with the sort keys r[P3..] would sort after (it cannot be among them), before "
     "its other columns are computed (SQLite's Last + IdxLE on a LIMIT sorter)."),
    ("Program", "P2 P3 P4", "Run trigger sub-program P4 = (holder of the Program, "
     "((parent register, its register, count), ...) copied in, (its register, parent "
     "register, count) copied back at its end) in a frame of its own, P3 trigger frames "
     "coded inline around the call; a RAISE(IGNORE) in it jumps to P2. Fails 'too many "
     "levels of trigger recursion' past the connection's trigger depth limit. P4 None: "
     "a trigger coded inline, only its depth checked."),
    ("OpenDup", "P1 P2", "Open cursor P1 on the transient table cursor P2 is open on (a "
     "CTE read by two FROM items, stored once), positioned on no row."),
]

NAMES: list[str] = [op[0] for op in OPCODES]
NUMBER: dict[str, int] = {name: i for i, name in enumerate(NAMES)}

# Module-level constants: OP_Goto, OP_Halt, ...
for _i, _name in enumerate(NAMES):
    globals()["OP_" + _name] = _i
del _i, _name

# Conflict actions (Halt P2, Insert P5 high bits ...), SQLite's OE_* values.
OE_NONE = 0
OE_ROLLBACK = 1
OE_ABORT = 2
OE_FAIL = 3
OE_IGNORE = 4
OE_REPLACE = 5
OE_DEFAULT = 11
ON_CONFLICT = {"ROLLBACK": OE_ROLLBACK, "ABORT": OE_ABORT, "FAIL": OE_FAIL,
               "IGNORE": OE_IGNORE, "REPLACE": OE_REPLACE}

# Program.is_ddl of a schema change whose code counts the rows it changes, so that its
# end sets changes() as a DML statement's does (DROP TABLE's implicit DELETE: SQLite's
# sqlite3VdbeCountChanges); any other DDL program's is True and leaves changes() alone.
DDL_COUNTS_CHANGES = 2


def doc(name: str) -> str:
    """The one-line doc of an opcode."""
    return OPCODES[NUMBER[name]][2]
