"""The per-database settings pragmas SQLite keeps in its pager and b-tree, and the ones it
answers from them: ``locking_mode``, ``secure_delete``, ``max_page_count``,
``cache_spill``, ``default_cache_size`` and ``optimize``; the connection's
``analysis_limit`` and ``temp_store`` (a change closes the temp database).

Each setting is kept on the Database it names (main, temp, an attached file: PRAGMA
aux.NAME is compiled on that file's own Database, compiler/attach.py), with the defaults
of the sqlite3 build this engine answers as (3.40.1 with SQLITE_SECURE_DELETE and a
SQLITE_MAX_PAGE_COUNT of 1073741823). A name without a schema acts as SQLite's does:
``locking_mode`` and ``secure_delete`` set every database of the connection (and
locking_mode the default a later ATTACH takes), the others main only. ``max_page_count``,
``secure_delete``, ``journal_size_limit`` and ``locking_mode`` are fields of the database's
pager, which it and the b-tree obey (no page allocated past the maximum; freed cells and
pages overwritten with zeros; a persisted journal cut to the limit at commit; locks kept
after a transaction); the others are reported, not acted on (README, Known gaps).

This module emits code; the values are read and set when the statement runs.
"""

from __future__ import annotations

import weakref

from sqlengine.errors import OperationalError
from sqlengine.sql.lexer import leading_hex
from sqlengine.storage.pager import MAX_PAGE_COUNT, SECURE_DELETE
from sqlengine.vdbe import opcodes as O

SETTINGS = frozenset(("locking_mode", "secure_delete", "max_page_count", "cache_spill",
                      "default_cache_size", "optimize", "analysis_limit",
                      "journal_size_limit", "temp_store"))

# (those a database keeps, not the connection: the temp database's own before it is made)
DB_SETTINGS = SETTINGS - {"optimize", "analysis_limit", "temp_store"}

_MAX_MAX = 0xFFFFFFFE  # (the most a setting can ask for)
DEFAULT_CACHE_SIZE = -2000
_PAGE_EXTRA = 136  # (bytes a cached page carries besides its content, this 64-bit build's)
_DEFAULT_CACHE_META = 3  # (BTREE_DEFAULT_CACHE_SIZE: header offset 48)


def compile_setting(p, name, st, val, emit_call, dest=None):
    """Emit PRAGMA ``name`` (one of SETTINGS) of statement ``st`` whose value is ``val``
    (``emit_call(p, fn, nresult, dest)`` runs fn(db) and gives its value as a row); returns
    the result column names."""
    given = st.value is not None
    # a statement compiled on an attached file came with its name (stripped on the way)
    qualified = st.schema is not None or getattr(p.db, "attached_file", False)
    if name == "optimize":  # (ANALYZE of the tables the planner wanted statistics of)
        from sqlengine.compiler.analyze import compile_optimize
        compile_optimize(p, atoi(val) & 0xFFFFFFFF if given else 0xFFFE)
        return ["optimize"]
    if name == "temp_store":  # (the connection's: 0 default, 1 file, 2 memory)
        if given:
            store = _temp_store_value(val)
            emit_call(p, lambda db: _set_temp_store(db, store), 0)
            return []
        emit_call(p, lambda db: _connection(db).temp_store, dest=dest)
        return ["temp_store"]
    if name == "journal_size_limit":  # (the database's: -1 none, below -1 taken as -1)
        n = max(_leading_int(val), -1) if given else None
        emit_call(p, lambda db: _journal_size_limit(db, n), dest=dest)
        return ["journal_size_limit"]
    if name == "analysis_limit":  # (the connection's; N < 0 or not a number: unchanged)
        n = _dec_or_hex(val) if given else None
        emit_call(p, lambda db: _analysis_limit(db, n), dest=dest)
        return ["analysis_limit"]
    if name == "locking_mode":
        mode = str(val).lower() if given else None
        if mode not in ("normal", "exclusive"):
            mode = None
        emit_call(p, lambda db: _locking_mode(db, mode, qualified), dest=dest)
        return ["locking_mode"]
    if name == "secure_delete":
        flag = -1
        if given:
            flag = 2 if str(val).lower() == "fast" else int(get_boolean(val, 0))
        emit_call(p, lambda db: _secure_delete(db, flag, qualified), dest=dest)
        return ["secure_delete"]
    if name == "max_page_count":
        n = _dec_or_hex(val) if given else 0
        n = 0 if n is None or n < 0 else min(n, _MAX_MAX)
        if n:
            p.b.emit(O.OP_Transaction, 0, 0)
        emit_call(p, lambda db: _max_page_count(db, n), dest=dest)
        return ["max_page_count"]
    if name == "cache_spill":
        if not given:
            emit_call(p, _cache_spill, dest=dest)
            return ["cache_spill"]
        size = get_int32(val)
        on = get_boolean(val, (size if size is not None else 1) != 0)
        emit_call(p, lambda db: _set_cache_spill(db, size, on), 0)
        return []
    # default_cache_size (deprecated): kept in the file's header, and the cache size
    if given:
        size = abs(atoi(val))
        p.write = True
        p.b.emit(O.OP_Transaction, 0, 1)
        p.b.emit(O.OP_SetCookie, 0, _DEFAULT_CACHE_META, size)

        def setcache(db, size=size):
            db.bt.cache_size = size
            return None
        emit_call(p, setcache, 0)
        return []
    p.b.emit(O.OP_Transaction, 0, 0)
    emit_call(p, _default_cache_size, dest=dest)
    return ["cache_size"]


def _temp_store_value(v) -> int:
    """SQLite's getTempStore: a leading 0, 1 or 2, else 'file' 1, 'memory' 2, else 0."""
    text = _text(v)
    if text[:1] in ("0", "1", "2"):
        return int(text[0])
    return {"file": 1, "memory": 2}.get(text.lower(), 0)


def _set_temp_store(db, store):
    """PRAGMA temp_store=store: a change closes the temp database, its tables gone (SQLite's
    invalidateTempStorage), which a transaction forbids."""
    if db.temp_store == store:
        return None
    from sqlengine.compiler.attach import drop_temp, find
    temp = find(db, "temp")
    if temp is not None or getattr(db, "temp_used", False):
        if temp is not None and (not db.autocommit or temp.db.bt.in_trans):
            raise OperationalError(
                "temporary storage cannot be changed from within a transaction")
        if temp is not None:
            drop_temp(db, temp)
        db.temp_used = False
    db.temp_store = store
    return None


def _journal_size_limit(db, n):
    """PRAGMA journal_size_limit[=n] of ``db`` (n None: a query)."""
    pager = db.bt.pager
    if n is not None:
        pager.journal_size_limit = n
    return pager.journal_size_limit


def _analysis_limit(db, n):
    """PRAGMA analysis_limit[=n]: n >= 0 sets the connection's limit (31 bits of it)."""
    if n is not None and n >= 0:
        db.analysis_limit = n & 0x7FFFFFFF
    return getattr(db, "analysis_limit", 0)


def set_query_only(db, on):
    """PRAGMA query_only=on: the connection's flag, kept on each of its databases (the
    temp and attached ones compile and run their own statements), which Statement.step
    reads before a statement that would write."""
    db.query_only = on
    for att in getattr(db, "attached", ()):
        att.db.query_only = on


def _memory(db) -> bool:
    """Whether ``db``'s pages live in memory (main ``:memory:``, temp, an attached one):
    SQLite's pager of such a database is always in exclusive locking mode."""
    return bool(getattr(db, "_memory", False) or getattr(db, "is_temp", False))


def _own_lock_mode(db, mode):
    """Set (``mode`` not None) and return the locking mode of ``db``'s own pager."""
    if _memory(db):
        return "exclusive"
    if mode is not None:
        db.lock_mode = mode
        db.bt.pager.exclusive = mode == "exclusive"  # (the pager keeps its locks)
    return getattr(db, "lock_mode", "normal")


def _locking_mode(db, mode, qualified):
    """PRAGMA [schema.]locking_mode[=mode] on ``db``: unqualified, a query answers the
    connection's default (what a later ATTACH takes) and a setting sets that default and
    every attached file's mode; the answer is then the named (or main) database's own."""
    if not qualified:
        if mode is None:
            return getattr(db, "dflt_lock_mode", "normal")
        db.dflt_lock_mode = mode
        for att in getattr(db, "attached", ()):
            if att.name.lower() != "temp":
                _own_lock_mode(att.db, mode)
    return _own_lock_mode(db, mode)


def attach_settings(db, adb):
    """Give the database ``adb`` attached to ``db`` the connection's default locking mode,
    main's secure_delete and the connection's cache_spill flag, as SQLite's ATTACH does
    (and mark it attached: its pragmas come with its schema name)."""
    adb.attached_file = True
    _own_lock_mode(adb, getattr(db, "dflt_lock_mode", None))
    adb.bt.pager.secure_delete = db.bt.pager.secure_delete
    adb.query_only = db.query_only
    adb.main_db = weakref.ref(db)


def made_temp(db, adb):
    """Give the temp database ``adb`` just made for ``db`` the settings SQLite's temp
    b-tree has: its secure_delete as set while it was open but not yet made here (a
    PRAGMA temp.NAME opens it in SQLite), the journal mode of where SQLite keeps it
    (temp_journal_unmade), the page size a PRAGMA page_size asked for (temp_page_size)
    and the connection's cache_spill flag."""
    adb.bt.pager.secure_delete = getattr(db, "temp_secure_delete", SECURE_DELETE)
    adb.bt.set_page_size(temp_page_size(db))
    adb.temp_in_memory = _temp_in_memory(db)
    adb.temp_journal_mode = temp_journal_unmade(db)
    adb.query_only = db.query_only
    adb.main_db = weakref.ref(db)


def set_page_size(db, n):
    """PRAGMA [schema.]page_size=n on ``db``: its page size while it has no pages (else
    kept for its next VACUUM), and the size of a temp database made later: SQLite keeps
    any schema's value as the connection's nextPagesize, which its temp b-tree takes
    when it opens."""
    _connection(db).next_page_size = n
    db.bt.set_page_size(n)
    return None


def temp_page_size(db) -> int:
    """The page size a new temp database of ``db``'s connection takes: the last size a
    PRAGMA page_size asked for when it is a valid one, else the default 4096."""
    n = getattr(_connection(db), "next_page_size", 0)
    return n if 512 <= n <= 65536 and not n & (n - 1) else 4096


def _temp_in_memory(db) -> bool:
    """Whether SQLite keeps the temp database of ``db``'s connection in memory rather than
    in a temporary file: temp_store 2 (MEMORY), this build's SQLITE_TEMP_STORE being 1.
    This engine keeps it in memory either way; only the answers differ."""
    return getattr(_connection(db), "temp_store", 0) == 2


def temp_journal_unmade(db) -> str:
    """The journal mode of a new temp database for ``db``'s connection: a temporary
    file's DELETE, or MEMORY when it is kept in memory."""
    return "memory" if _temp_in_memory(db) else "delete"


def temp_journal_mode(db, mode):
    """PRAGMA temp.journal_mode[=mode] on the temp Database ``db`` (mode None: a query):
    a temporary file takes any mode but WAL, an in-memory one only MEMORY or OFF (SQLite's
    sqlite3PagerSetJournalMode), and neither changes while it has a write transaction.
    The pages stay in memory; MEMORY and OFF also act on its pager."""
    allowed = ("memory", "off") if db.temp_in_memory else (
        "delete", "truncate", "persist", "memory", "off")
    if mode in allowed and db.bt.in_trans != 2:
        db.bt.set_journal_mode(mode if mode in ("memory", "off") else "memory")
        db.temp_journal_mode = mode
    return db.temp_journal_mode


def temp_unmade(db, name):
    """PRAGMA temp.NAME (a setting) before this engine has made the temp database: a new
    one's value (secure_delete as set while SQLite's was open)."""
    if name == "secure_delete":
        return getattr(db, "temp_secure_delete", SECURE_DELETE)
    if name == "max_page_count":
        return MAX_PAGE_COUNT
    if name == "journal_size_limit":
        return -1
    if name == "cache_spill":
        if not getattr(_connection(db), "cache_spill", True):
            return 0
        return (-1024 * DEFAULT_CACHE_SIZE) // (temp_page_size(db) + _PAGE_EXTRA)
    return DEFAULT_CACHE_SIZE  # (default_cache_size)


def _connection(db):
    """The main Database of the connection ``db`` (temp or attached) belongs to."""
    ref = getattr(db, "main_db", None)
    main = ref() if ref is not None else None
    return main if main is not None else db


def _secure_delete(db, flag, qualified):
    """PRAGMA [schema.]secure_delete[=flag] (flag -1: a query): 0 off, 1 on, 2 fast; a
    setting without a schema sets every database of the connection."""
    if flag >= 0:
        if not qualified:
            for att in getattr(db, "attached", ()):
                att.db.bt.pager.secure_delete = flag
            if getattr(db, "temp_used", False):  # (SQLite's temp b-tree is open)
                db.temp_secure_delete = flag
        db.bt.pager.secure_delete = flag
    return db.bt.pager.secure_delete


def _max_page_count(db, n):
    """PRAGMA max_page_count[=n]: n > 0 sets the maximum, never below the pages the
    database has (SQLite's OP_MaxPgcnt)."""
    pager = db.bt.pager
    if n:
        pager.max_pgno = max(n, db.bt.page_count())
    return pager.max_pgno


def _cache_pages(db) -> int:
    """The pages the cache of ``db`` holds (cache_size, or its KiB when negative)."""
    size = db.bt.cache_size
    if size >= 0:
        return size
    return (-1024 * size) // (db.bt.page_size + _PAGE_EXTRA)


def _cache_spill(db):
    """PRAGMA cache_spill: 0 when spilling is off (the connection's flag), else the pages
    the cache may hold before it spills: the spill size set, at least the cache's."""
    if not getattr(_connection(db), "cache_spill", True):
        return 0
    return max(_cache_pages(db), getattr(db, "spill_size", 1))  # (a new pcache's szSpill: 1)


def _set_cache_spill(db, size, on):
    """PRAGMA cache_spill=value: an integer sets the spill size (0 keeps it; below 0 in
    KiB), and the value as a boolean turns spilling on or off for the connection."""
    if size:
        if size < 0:
            size = (-1024 * size) // (db.bt.page_size + _PAGE_EXTRA)
        db.spill_size = size
    _connection(db).cache_spill = on  # (a flag of the connection)
    return None


def _default_cache_size(db):
    """PRAGMA default_cache_size: the size kept in the header (its absolute value), or the
    build's default when none is."""
    v = db.bt.get_meta(_DEFAULT_CACHE_META)
    if v >= 0x80000000:
        v -= 0x100000000
    return abs(v) if v else DEFAULT_CACHE_SIZE


def get_boolean(v, default) -> bool:
    """SQLite's sqlite3GetBoolean of a pragma's value: a leading digit reads the integer
    (as one byte), else on/yes/true or no/off/false, else ``default``."""
    text = _text(v)
    if text[:1].isdigit():
        return (atoi(text) & 0xFF) != 0
    low = text.lower()
    if low in ("on", "yes", "true"):
        return True
    if low in ("no", "off", "false"):
        return False
    return bool(default)


def _text(v) -> str:
    """A pragma value as the text SQLite's parser hands over."""
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(v)


def atoi(v) -> int:
    """sqlite3Atoi: the leading (signed) decimal integer of the text, 0 for none."""
    n = leading_int(_text(v))
    return n if -0x80000000 <= n <= 0x7FFFFFFF else 0


def leading_int(text: str) -> int:
    """The leading (signed) decimal integer of the text after blanks, 0 for none."""
    text = text.strip()
    sign = -1 if text[:1] == "-" else 1
    if text[:1] in "+-":
        text = text[1:]
    digits = ""
    for ch in text:
        if not "0" <= ch <= "9":
            break
        digits += ch
    return sign * int(digits) if digits else 0


def get_int32(v):
    """sqlite3GetInt32: the 32-bit integer the text starts with (after an optional sign,
    or a 0x hex number), None when it starts with no digit or does not fit."""
    text = _text(v)
    if text[:2].lower() == "0x":
        digits = leading_hex(text, 2)
        if not digits or len(digits.lstrip("0")) > 8:
            return None
        n = int(digits, 16)
        return n - 0x100000000 if n > 0x7FFFFFFF else n
    neg = text[:1] == "-"
    if text[:1] in "+-":
        text = text[1:]
    if not text[:1].isdigit():
        return None
    text = text.lstrip("0")
    digits = ""
    for ch in text[:11]:
        if not "0" <= ch <= "9":
            break
        digits += ch
    if len(digits) > 10:
        return None
    n = int(digits or "0")
    if n - neg > 0x7FFFFFFF:
        return None
    return -n if neg else n


def _leading_int(v) -> int:
    """What sqlite3DecOrHexToI64 leaves in its output even when the text is not a whole
    integer: the 0x hex number, else the leading (signed) decimal integer, else 0."""
    n = _dec_or_hex(v)
    if n is not None:
        return n if n < 0x8000000000000000 else n - 0x10000000000000000
    return leading_int(_text(v))


def _dec_or_hex(v):
    """sqlite3DecOrHexToI64: the whole text as a decimal (signed) or 0x hex integer, None
    when it is not one."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    text = _text(v).strip()
    if text[:2].lower() == "0x":
        try:
            return int(text[2:], 16) & 0xFFFFFFFFFFFFFFFF
        except ValueError:
            return None
    try:
        return int(text)
    except ValueError:
        return None
