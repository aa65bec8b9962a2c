"""SQLite 3.40's JSON functions: json, json_array, json_object, json_extract and the -> / ->>
operators, json_insert/replace/set/remove, json_patch, json_type, json_valid, json_quote,
json_array_length, and the json_group_array / json_group_object aggregates.

JSON text is parsed as SQLite's json1 parses it (RFC 8259, no JSON5; depth limit 2000; the
input ends at its first NUL) into a node tree that keeps the raw text of numbers and
strings, so ``json()`` re-renders them exactly as written. Paths follow SQLite's lookup
walk, errors included: a path is only checked as far as the walk goes.

Subtypes: SQLite marks the text results of JSON functions with a "JSON" subtype so that a
JSON argument is embedded as JSON rather than quoted as a string. Here such results are
``JsonText`` objects (a ``str`` subclass, TEXT to everyone else); the mark lives as long as
the object, i.e. from one function to the next inside an expression, like SQLite's.

Errors: ``malformed JSON``, ``JSON path error near '...'``, ``JSON cannot hold BLOB
values``, ``json_object() labels must be TEXT`` and the argument-count messages, raised as
``OperationalError``. Registered into the function registry by ``register``.
"""

from __future__ import annotations

from sqlengine.errors import OperationalError
from sqlengine.vdbe import _values as V
from sqlengine.vdbe.func_printf import MAX_LENGTH

MAX_DEPTH = 2000


class JsonText(str):
    """TEXT produced by a JSON function (SQLite's JSON subtype)."""

    __slots__ = ()


NULL, TRUE, FALSE, INT, REAL, STRING, ARRAY, OBJECT = range(8)
TYPE_NAMES = ["null", "true", "false", "integer", "real", "text", "array", "object"]


class JNode:
    __slots__ = ("kind", "raw", "children", "removed", "replaced", "value", "rawlabel",
                 "patch", "escaped")

    def __init__(self, kind, raw=None):
        self.kind = kind
        self.raw = raw  # INT/REAL: the number's text; STRING: the token with its quotes
        self.children = None  # ARRAY: [JNode]; OBJECT: [[label JNode, value JNode]]
        self.removed = False
        self.replaced = False  # value: an SQL value rendered in place of the node
        self.value = None
        self.rawlabel = False  # a label created by a path (raw = the key, unquoted)
        self.patch = None  # json_patch: the node rendered in place of this one
        self.escaped = False


# -- parsing --------------------------------------------------------------------------------------

_WS = " \t\n\r"


def _is_alnum(c: str) -> bool:
    return ("0" <= c <= "9") or ("a" <= c <= "z") or ("A" <= c <= "Z")


def _scalar(z: str, i: int):
    """Parse a non-container value at z[i] (no leading space): (next index, node); index
    -1 for an error, -2 for '}', -3 for ']', 0 at the end of the text."""
    n = len(z)
    if i >= n:
        return 0, None
    c = z[i]
    if c == '"':
        j = i + 1
        escaped = False
        while True:
            if j >= n:
                return -1, None
            c = z[j]
            if ord(c) < 0x20:
                return -1, None
            if c == "\\":
                j += 1
                c = z[j] if j < n else ""
                if c and c in '"\\/bfnrt':
                    escaped = True
                elif c == "u" and _is4hex(z, j + 1):
                    escaped = True
                else:
                    return -1, None
            elif c == '"':
                break
            j += 1
        node = JNode(STRING, z[i:j + 1])
        node.escaped = escaped
        return j + 1, node
    if c == "n" and z.startswith("null", i) and not _is_alnum(z[i + 4:i + 5] or " "):
        return i + 4, JNode(NULL)
    if c == "t" and z.startswith("true", i) and not _is_alnum(z[i + 4:i + 5] or " "):
        return i + 4, JNode(TRUE)
    if c == "f" and z.startswith("false", i) and not _is_alnum(z[i + 5:i + 6] or " "):
        return i + 5, JNode(FALSE)
    if c == "-" or "0" <= c <= "9":
        seen_dp = seen_e = False
        if c <= "0":
            j = i + 1 if c == "-" else i
            if z[j:j + 1] == "0" and "0" <= (z[j + 1:j + 2] or " ") <= "9":
                return -1, None
        j = i + 1
        while True:
            c = z[j] if j < n else ""
            if c and "0" <= c <= "9":
                j += 1
                continue
            if c == ".":
                if z[j - 1] == "-" or seen_dp:
                    return -1, None
                seen_dp = True
                j += 1
                continue
            if c in ("e", "E"):
                if z[j - 1] < "0" or seen_e:
                    return -1, None
                seen_dp = seen_e = True
                c = z[j + 1] if j + 1 < n else ""
                if c in ("+", "-"):
                    j += 1
                    c = z[j + 1] if j + 1 < n else ""
                if not c or not ("0" <= c <= "9"):
                    return -1, None
                j += 1
                continue
            break
        if z[j - 1] < "0":
            return -1, None
        return j, JNode(REAL if seen_dp else INT, z[i:j])
    if c == "}":
        return -2, None
    if c == "]":
        return -3, None
    return -1, None


def _skip_ws(z: str, i: int) -> int:
    n = len(z)
    while i < n and z[i] in _WS:
        i += 1
    return i


def _parse_tree(z: str) -> JNode | None:
    """SQLite's jsonParseValue without recursion: an explicit stack of open containers,
    each [node, pending label (objects)]."""
    n = len(z)
    stack: list = []
    i = _skip_ws(z, 0)
    while True:
        # -- parse one value at i (i is past any white space) --
        c = z[i] if i < n else ""
        if c == "{" or c == "[":
            node = JNode(OBJECT if c == "{" else ARRAY)
            node.children = []
            stack.append([node, None])
            i = _skip_ws(z, i + 1)
            if len(stack) > MAX_DEPTH:
                return None
            if i < n and z[i] == ("}" if c == "{" else "]"):
                i += 1
                stack.pop()
                value = node
            else:
                continue
        else:
            i, value = _scalar(z, i)
            if i <= 0:
                return None
        # -- attach the value to the open containers, closing those that end --
        while True:
            if not stack:
                i = _skip_ws(z, i)
                return value if i == n else None
            top = stack[-1]
            cont = top[0]
            if cont.kind == OBJECT and top[1] is None:
                if value.kind != STRING:
                    return None
                top[1] = value
                i = _skip_ws(z, i)
                if i >= n or z[i] != ":":
                    return None
                i = _skip_ws(z, i + 1)
                break
            if cont.kind == OBJECT:
                cont.children.append([top[1], value])
                top[1] = None
                closer = "}"
            else:
                cont.children.append(value)
                closer = "]"
            i = _skip_ws(z, i)
            c = z[i] if i < n else ""
            if c == ",":
                i = _skip_ws(z, i + 1)
                if len(stack) > MAX_DEPTH:
                    return None
                break
            if c != closer:
                return None
            i += 1
            stack.pop()
            value = cont


def _is4hex(z: str, i: int) -> bool:
    s = z[i:i + 4]
    return len(s) == 4 and all(ch in "0123456789abcdefABCDEF" for ch in s)


def parse(text) -> JNode | None:
    """The node tree of a JSON text, or None when it is malformed."""
    z = text
    k = z.find("\0")
    if k >= 0:
        z = z[:k]
    return _parse_tree(z)


def _parse_arg(v) -> JNode | None:
    """Parse a function's JSON argument: None for SQL NULL; 'malformed JSON' otherwise."""
    if v is None:
        return None
    node = parse(V.to_text(v))
    if node is None:
        raise OperationalError("malformed JSON")
    return node


# -- rendering -------------------------------------------------------------------------------------

_SPECIAL = {8: "b", 9: "t", 10: "n", 12: "f", 13: "r"}


def json_string(s: str) -> str:
    """SQLite's jsonAppendString: a JSON string literal for a text."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif o <= 0x1F:
            sp = _SPECIAL.get(o)
            out.append("\\" + sp if sp else "\\u00" + "0123456789abcdef"[o >> 4] + "0123456789abcdef"[o & 15])
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def sql_to_json(v) -> str:
    """SQLite's jsonAppendValue: the JSON for an SQL value."""
    if v is None:
        return "null"
    t = type(v)
    if t is JsonText:
        return str(v)
    if t is int or t is bool:
        return str(int(v))
    if t is float:
        return V.real_to_text(v)
    if isinstance(v, str):
        return json_string(v)
    raise OperationalError("JSON cannot hold BLOB values")


def _render_scalar(node: JNode, out: list) -> None:
    k = node.kind
    if k == STRING:
        out.append(json_string(node.raw) if node.rawlabel else node.raw)
    elif k == NULL:
        out.append("null")
    elif k == TRUE:
        out.append("true")
    elif k == FALSE:
        out.append("false")
    else:
        out.append(node.raw)


def _render(node: JNode, out: list) -> None:
    """SQLite's jsonRenderNode, iteratively (documents may nest 2000 deep)."""
    stack: list = []  # [container, iterator over children, first element still to come]
    while True:
        if node.replaced:
            out.append(sql_to_json(node.value))
        else:
            if node.patch is not None:
                node = node.patch
            if node.kind == OBJECT or node.kind == ARRAY:
                out.append("{" if node.kind == OBJECT else "[")
                stack.append([node, iter(node.children), True])
            else:
                _render_scalar(node, out)
        node = None
        while stack:
            fr = stack[-1]
            is_obj = fr[0].kind == OBJECT
            for item in fr[1]:
                if (item[1] if is_obj else item).removed:
                    continue
                if not fr[2]:
                    out.append(",")
                fr[2] = False
                if is_obj:
                    _render_scalar(item[0], out)
                    out.append(":")
                    node = item[1]
                else:
                    node = item
                break
            if node is not None:
                break
            out.append("}" if is_obj else "]")
            stack.pop()
        if node is None:
            return


def render(node: JNode) -> JsonText:
    out: list = []
    _render(node, out)
    return JsonText("".join(out))


def _unescape(raw: str) -> str:
    """The text of a JSON string token (SQLite's decoding, \\u0000 ends the text)."""
    z = raw
    n = len(z)
    out = []
    i = 1
    while i < n - 1:
        c = z[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        i += 1
        c = z[i]
        if c == "u":
            v = int(z[i + 1:i + 5], 16)
            i += 4
            if v == 0:
                break
            if 0xD800 <= v <= 0xDBFF and i < n - 6 and z[i + 1] == "\\" and z[i + 2] == "u" \
                    and _is4hex(z, i + 3) and 0xDC00 <= int(z[i + 3:i + 7], 16) <= 0xDFFF:
                lo = int(z[i + 3:i + 7], 16)
                out.append(chr(((v & 0x3FF) << 10) + (lo & 0x3FF) + 0x10000))
                i += 6
            elif 0xD800 <= v <= 0xDFFF:
                # SQLite writes the code point's 3 bytes, which are not UTF-8: kept as
                # the bytes they are (see _values.text_bytes)
                out.append(V.text_of_bytes(chr(v).encode("utf-8", "surrogatepass")))
            else:
                out.append(chr(v))
        else:
            out.append({"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}.get(c, c))
        i += 1
    return "".join(out)


def _int_value(raw: str):
    neg = raw.startswith("-")
    digits = raw[1:] if neg else raw
    v = int(digits)
    if neg:
        if v <= 2**63:
            return -v
    elif v < 2**63:
        return v
    return float(raw)


def sql_value(node: JNode):
    """SQLite's jsonReturn: the SQL value of a node (arrays/objects as JSON text)."""
    if node.replaced:
        # only reachable through a later lookup of a replaced node at the end of a path
        return node.value
    if node.patch is not None:
        node = node.patch
    k = node.kind
    if k == NULL:
        return None
    if k == TRUE:
        return 1
    if k == FALSE:
        return 0
    if k == INT:
        return _int_value(node.raw)
    if k == REAL:
        return float(node.raw)  # the oracle's json1 converts with strtod (correctly rounded)
    if k == STRING:
        if node.rawlabel:
            return node.raw
        if not node.escaped:
            return node.raw[1:-1]
        return _unescape(node.raw)
    return render(node)


# -- paths -----------------------------------------------------------------------------------------


class _PathError(Exception):
    def __init__(self, rest: str):
        self.rest = rest


def _path_error(rest: str) -> OperationalError:
    return OperationalError("JSON path error near '%s'" % rest.replace("'", "''"))


def _label_matches(lab: JNode, key: str) -> bool:
    if lab.rawlabel:
        return lab.raw == key
    return lab.raw[1:-1] == key


def _step(node: JNode, path: str, i: int, apnd: list | None):
    """jsonLookupStep: the node at path[i:] below ``node`` (None if absent); ``apnd`` (a
    one-element list) enables creating missing object members / array elements."""
    if i >= len(path):
        return node
    if node.replaced:
        return None
    c = path[i]
    if c == ".":
        if node.kind != OBJECT:
            return None
        i += 1
        if path[i:i + 1] == '"':
            k = path.find('"', i + 1)
            if k < 0:
                raise _PathError(path[i:])
            key = path[i + 1:k]
            nxt = k + 1
        else:
            k = i
            while k < len(path) and path[k] not in ".[":
                k += 1
            key = path[i:k]
            if not key:
                raise _PathError(path[i:])
            nxt = k
        for lab, val in node.children:
            if _label_matches(lab, key):
                return _step(val, path, nxt, apnd)
        if apnd is not None:
            newval = _append(path, nxt, apnd)
            if newval is not None:
                lab = JNode(STRING, key)
                lab.rawlabel = True
                node.children.append([lab, newval[0]])
                return newval[1]
        return None
    if c == "[":
        j = i + 1
        idx = 0
        while j < len(path) and "0" <= path[j] <= "9":
            idx = (idx * 10 + ord(path[j]) - 48) & 0xFFFFFFFF  # (SQLite's u32 wraps)
            j += 1
        if j < i + 2 or path[j:j + 1] != "]":
            if path[i + 1:i + 2] == "#":
                if node.kind != ARRAY:
                    return None
                idx = sum(1 for ch in node.children if not ch.removed)
                j = i + 2
                if path[j:j + 1] == "-" and "0" <= (path[j + 1:j + 2] or " ") <= "9":
                    j += 1
                    x = 0
                    while j < len(path) and "0" <= path[j] <= "9":
                        x = (x * 10 + ord(path[j]) - 48) & 0xFFFFFFFF
                        j += 1
                    if x > idx:
                        return None
                    idx -= x
                if path[j:j + 1] != "]":
                    raise _PathError(path[i:])
            else:
                raise _PathError(path[i:])
        if node.kind != ARRAY:
            return None
        nxt = j + 1
        for ch in node.children:
            if ch.removed:
                continue
            if idx == 0:
                return _step(ch, path, nxt, apnd)
            idx -= 1
        if idx == 0 and apnd is not None:
            newval = _append(path, nxt, apnd)
            if newval is not None:
                node.children.append(newval[0])
                return newval[1]
        return None
    raise _PathError(path[i:])


def _append(path: str, i: int, apnd: list):
    """jsonLookupAppend: build the missing part of a path; (new subtree, target) or None."""
    apnd[0] = True
    if i >= len(path):
        n = JNode(NULL)
        return n, n
    if path[i] == ".":
        root = JNode(OBJECT)
        root.children = []
    elif path.startswith("[0]", i):
        root = JNode(ARRAY)
        root.children = []
    else:
        return None
    target = _step(root, path, i, apnd)
    if target is None:
        return None
    return root, target


def lookup(root: JNode, path, apnd: list | None = None):
    """jsonLookup: the node for a '$...' path (None if absent; NULL path -> None)."""
    if path is None:
        return None
    p = V.to_text(path)
    k = p.find("\0")
    if k >= 0:
        p = p[:k]
    if not p.startswith("$"):
        raise _path_error(p)
    try:
        return _step(root, p, 1, apnd)
    except _PathError as e:
        raise _path_error(e.rest) from None


# -- scalar functions ------------------------------------------------------------------------------


def f_json(ctx, x):
    node = _parse_arg(x)
    return None if node is None else render(node)


def f_json_valid(ctx, x):
    if x is None:
        return 0
    return 0 if parse(V.to_text(x)) is None else 1


def f_json_quote(ctx, x):
    return JsonText(sql_to_json(x))


def f_json_array(ctx, *args):
    return JsonText("[" + ",".join(sql_to_json(a) for a in args) + "]")


def f_json_object(ctx, *args):
    if len(args) % 2:
        raise OperationalError("json_object() requires an even number of arguments")
    for i in range(0, len(args), 2):
        if not isinstance(args[i], str):  # checked before any BLOB value error surfaces
            raise OperationalError("json_object() labels must be TEXT")
    parts = []
    for i in range(0, len(args), 2):
        k = args[i]
        parts.append(json_string(k) + ":" + sql_to_json(args[i + 1]))
    return JsonText("{" + ",".join(parts) + "}")


def f_json_extract(ctx, *args):
    if len(args) < 2:
        return None
    root = _parse_arg(args[0])
    if root is None:
        return None
    if len(args) == 2:
        node = lookup(root, args[1])
        return None if node is None else sql_value(node)
    out = []
    for p in args[1:]:
        node = lookup(root, p)
        out.append("null" if node is None else render(node))
    return JsonText("[" + ",".join(out) + "]")


def _abbreviated(root: JNode, p):
    """The node for the right operand of -> / ->> (a '$' path, a label or an index)."""
    if p is None:
        return None
    z = V.to_text(p)
    k = z.find("\0")
    if k >= 0:
        z = z[:k]
    if not z.startswith("$"):
        if z[:1].isdigit() and "0" <= z[0] <= "9":
            z = "$[" + z + "]"
        elif z.startswith("["):
            z = "$" + z
        else:
            z = "$." + z
    return lookup(root, z)


def f_arrow(ctx, x, p):
    """x -> p: the JSON text of the selected element."""
    root = _parse_arg(x)
    if root is None:
        return None
    node = _abbreviated(root, p)
    return None if node is None else render(node)


def f_arrow2(ctx, x, p):
    """x ->> p: the SQL value of the selected element."""
    root = _parse_arg(x)
    if root is None:
        return None
    node = _abbreviated(root, p)
    if node is None:
        return None
    v = sql_value(node)
    return str(v) if type(v) is JsonText else v


def f_json_type(ctx, x, *path):
    root = _parse_arg(x)
    if root is None:
        return None
    node = lookup(root, path[0]) if path else root
    if node is None:
        return None
    if node.replaced:
        return None
    return TYPE_NAMES[(node.patch or node).kind]


def f_json_array_length(ctx, x, *path):
    root = _parse_arg(x)
    if root is None:
        return None
    node = lookup(root, path[0]) if path else root
    if node is None:
        return None
    if node.kind == ARRAY:
        return sum(1 for c in node.children if not c.removed)
    return 0


def _edit(name, args, mode):
    if len(args) < 1:
        return None
    if len(args) % 2 == 0:
        raise OperationalError(f"json_{name}() needs an odd number of arguments")
    root = _parse_arg(args[0])
    if root is None:
        return None
    for i in range(1, len(args), 2):
        if mode == "replace":
            node = lookup(root, args[i])
            apnd = [False]
        else:
            apnd = [False]
            node = lookup(root, args[i], apnd)
        if node is not None and (mode == "replace" or apnd[0] or mode == "set"):
            node.replaced = True
            node.value = args[i + 1]
    if root.replaced:
        return root.value
    return render(root)


def f_json_insert(ctx, *args):
    return _edit("insert", args, "insert")


def f_json_replace(ctx, *args):
    return _edit("replace", args, "replace")


def f_json_set(ctx, *args):
    return _edit("set", args, "set")


def f_json_remove(ctx, *args):
    if not args:
        return None
    root = _parse_arg(args[0])
    if root is None:
        return None
    for p in args[1:]:
        if p is None:
            return None
        node = lookup(root, p)
        if node is not None:
            node.removed = True
    if root.removed:
        return None
    return render(root)


def _remove_all_nulls(node: JNode) -> None:
    for _lab, val in node.children:
        if val.kind == NULL:
            val.removed = True
        elif val.kind == OBJECT:
            _remove_all_nulls(val)


def _merge_patch(target: JNode, patch: JNode) -> JNode:
    if patch.kind != OBJECT:
        return patch
    if target.kind != OBJECT:
        _remove_all_nulls(patch)
        return patch
    original = list(target.children)
    for plab, pval in patch.children:
        found = False
        for tlab, tval in original:
            if tlab.raw == plab.raw:
                found = True
                if tval.removed or tval.patch is not None:
                    break
                if pval.kind == NULL:
                    tval.removed = True
                else:
                    new = _merge_patch(tval, pval)
                    if new is not tval:
                        tval.patch = new
                break
        if not found and pval.kind != NULL:
            _remove_all_nulls_if_object(pval)
            holder = JNode(TRUE)
            holder.patch = pval
            target.children.append([plab, holder])
    return target


def _remove_all_nulls_if_object(node: JNode) -> None:
    if node.kind == OBJECT:
        _remove_all_nulls(node)


def f_json_patch(ctx, t, p):
    target = _parse_arg(t)
    patch = _parse_arg(p)
    if target is None or patch is None:
        return None
    return render(_merge_patch(target, patch))


# -- json_each / json_tree (table-valued) -----------------------------------------------------------

JSON_EACH_COLUMNS = ("key", "value", "type", "atom", "id", "parent", "fullkey", "path",
                     "json", "root")  # the last two are HIDDEN (the arguments)


def _flatten(root: JNode):
    """SQLite's node array: pre-order, an object member as its label node then its value.
    Returns (nodes, is_label, up, end) where end[i] is one past the subtree of node i."""
    nodes: list = []
    is_label: list = []
    up: list = []
    end: list = []
    stack = [(root, 0, False)]
    order: list = []
    while stack:
        node, parent, lab = stack.pop()
        if node is None:  # end marker of a container
            end[parent] = len(nodes)
            continue
        idx = len(nodes)
        nodes.append(node)
        is_label.append(lab)
        up.append(parent if idx else 0)
        end.append(idx + 1)
        order.append(idx)
        if not lab and node.kind in (ARRAY, OBJECT):
            stack.append((None, idx, False))
            if node.kind == ARRAY:
                for ch in reversed(node.children):
                    stack.append((ch, idx, False))
            else:
                for lab_node, val in reversed(node.children):
                    stack.append((val, idx, False))
                    stack.append((lab_node, idx, True))
    return nodes, is_label, up, end


def _path_element(lab: JNode) -> str:
    raw = lab.raw
    inner = raw[1:-1]
    if inner and inner[0].isascii() and inner[0].isalpha() and all(
            ch.isascii() and ch.isalnum() for ch in inner):
        return "." + inner
    return "." + raw


def _each(x, path, recursive: bool) -> list:
    if x is None:
        return []
    text = V.to_text(x)
    k = text.find("\0")
    if k >= 0:
        text = text[:k]
    root = parse(text)
    if root is None:
        raise OperationalError("malformed JSON")
    nodes, is_label, up, end = _flatten(root)
    zroot = None
    start = 0
    if path is not _NO_PATH:
        if path is None:
            return []
        zroot = V.to_text(path)
        k = zroot.find("\0")
        if k >= 0:
            zroot = zroot[:k]
        if not zroot.startswith("$"):
            raise _path_error(zroot)
        try:
            target = _step(root, zroot, 1, None)
        except _PathError as e:
            raise _path_error(e.rest) from None
        if target is None:
            return []
        start = next(i for i, nd in enumerate(nodes) if nd is target and not is_label[i])
    rootname = zroot if zroot is not None else "$"
    ikey = [0] * len(nodes)
    rows = []

    def value_of(i):
        j = i + 1 if is_label[i] else i
        return nodes[j], j

    def compute_path(i):
        parts = []
        while i != 0:
            u = up[i]
            if nodes[u].kind == ARRAY:
                parts.append("[%d]" % ikey[u])
            else:
                lab = nodes[i] if is_label[i] else nodes[i - 1]
                parts.append(_path_element(lab))
            i = u
        return "$" + "".join(reversed(parts))

    def row(i, etype, rowid):
        node, vid = value_of(i)
        key = None
        if i != 0:
            if etype == OBJECT:
                key = sql_value(nodes[i])
            elif etype == ARRAY:
                if recursive:
                    key = None if rowid == 0 else ikey[up[i]]
                else:
                    key = rowid
        val = sql_value(node)
        atom = None if node.kind in (ARRAY, OBJECT) else val
        if recursive:
            parent = up[i] if i > start else None
            fullkey = compute_path(i)
            pth = compute_path(up[i])
        else:
            parent = None
            if etype == ARRAY:
                fullkey = rootname + "[%d]" % rowid
            elif etype == OBJECT:
                fullkey = rootname + _path_element(nodes[i])
            else:
                fullkey = rootname
            pth = rootname
        return (key, val, TYPE_NAMES[node.kind], atom, vid, parent, fullkey, pth,
                text, rootname)

    node = nodes[start]
    if node.kind in (ARRAY, OBJECT):
        iend = end[start]
        if recursive:
            etype = nodes[up[start]].kind
            i = start - 1 if start > 0 and is_label[start - 1] else start
        else:
            etype = node.kind
            i = start + 1
    else:
        iend = start + 1
        etype = node.kind
        i = start
    rowid = 0
    while i < iend:
        rows.append(row(i, etype, rowid))
        if recursive:
            if is_label[i]:
                i += 1
            i += 1
            rowid += 1
            if i < iend:
                u = up[i]
                etype = nodes[u].kind
                if etype == ARRAY:
                    if u == i - 1:
                        ikey[u] = 0
                    else:
                        ikey[u] += 1
        else:
            if etype == ARRAY:
                i = end[i]
            elif etype == OBJECT:
                i = end[i + 1]
            else:
                i = iend
            rowid += 1
    return rows


_NO_PATH = object()


def json_each(x, path=_NO_PATH) -> list:
    """The rows of ``json_each(X[, P])``: tuples in ``JSON_EACH_COLUMNS`` order."""
    return _each(x, path, False)


def json_tree(x, path=_NO_PATH) -> list:
    """The rows of ``json_tree(X[, P])``: tuples in ``JSON_EACH_COLUMNS`` order."""
    return _each(x, path, True)


# -- aggregates ------------------------------------------------------------------------------------


def _group_result(text):
    """The JSON text a json_group_array/json_group_object makes, refused past
    SQLITE_LIMIT_LENGTH bytes as SQLite's sqlite3_result_text does ('string or blob too
    big'; only a text of more than a quarter of the limit in characters is measured)."""
    if len(text) > MAX_LENGTH // 4 and V.utf8_length(text) > MAX_LENGTH:
        raise V.too_big()
    return JsonText(text)


class JsonGroupArray:
    """json_group_array(X): a JSON array of the values (window inverse drops the oldest)."""

    def __init__(self, ctx=None):
        self.items: list[str] = []
        self.start = 0

    def step(self, x=None, *rest):
        self.items.append(sql_to_json(x))

    def inverse(self, x=None, *rest):
        self.start += 1

    def value(self):
        return _group_result("[" + ",".join(self.items[self.start:]) + "]")

    finalize = value


class JsonGroupObject:
    """json_group_object(NAME, VALUE): a JSON object of the pairs (NULL names are skipped
    by SQLite only by accident of its string builder; here too: the label is omitted)."""

    def __init__(self, ctx=None):
        self.items: list[str] = []
        self.start = 0

    def step(self, k=None, v=None, *rest):
        label = "" if k is None else json_string(V.to_text(k))
        self.items.append(label + ":" + sql_to_json(v))

    def inverse(self, k=None, v=None, *rest):
        self.start += 1

    def value(self):
        return _group_result("{" + ",".join(self.items[self.start:]) + "}")

    finalize = value


def register(registry) -> None:
    from sqlengine.vdbe.functions import FuncDef

    for name, nargs, fn in (
        ("json", 1, f_json), ("json_valid", 1, f_json_valid), ("json_quote", 1, f_json_quote),
        ("json_array", -1, f_json_array), ("json_object", -1, f_json_object),
        ("json_extract", -1, f_json_extract), ("->", 2, f_arrow), ("->>", 2, f_arrow2),
        ("json_type", 1, f_json_type), ("json_type", 2, f_json_type),
        ("json_array_length", 1, f_json_array_length),
        ("json_array_length", 2, f_json_array_length),
        ("json_insert", -1, f_json_insert), ("json_replace", -1, f_json_replace),
        ("json_set", -1, f_json_set), ("json_remove", -1, f_json_remove),
        ("json_patch", 2, f_json_patch),
    ):
        registry.add(FuncDef(name, nargs, fn))
    registry.add(FuncDef("json_group_array", 1, JsonGroupArray, kind="aggregate"))
    registry.add(FuncDef("json_group_object", 2, JsonGroupObject, kind="aggregate"))
