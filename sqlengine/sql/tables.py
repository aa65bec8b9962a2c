"""The LALR(1) tables of SQLite's grammar, computed by lark from ``grammar.lark``.

lark does the LR(0) and LALR(1) lookahead analysis; this module replaces only its last
step (turning items into actions) so that conflicts are resolved by operator precedence
the way lemon (SQLite's parser generator) resolves them:

- a rule's precedence is the one given explicitly in ``RULE_PRECEDENCE`` (lemon's
  ``[X]`` marks) or else that of its first terminal that has one;
- shift/reduce: the higher precedence wins; on a tie ``%left`` reduces, ``%right``
  shifts and ``%nonassoc`` makes the token a syntax error there;
- reduce/reduce: the rule of higher precedence wins.

A conflict that precedence cannot settle fails the build (``GrammarConflict``): the
grammar has none, as SQLite's has none.

The result is plain data (``Tables``): numbered terminals, nonterminals and rules, one
action map and one goto map per state. It is cached as a pickle under ``__pycache__``
keyed by the hash of the grammar and of this file. This module never parses SQL.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass

GRAMMAR_PATH = os.path.join(os.path.dirname(__file__), "grammar.lark")

# SQLite's precedence declarations (parse.y), lowest first.
PRECEDENCE = [
    ("left", ["OR"]),
    ("left", ["AND"]),
    ("right", ["NOT"]),
    ("left", ["IS", "MATCH", "LIKE_KW", "BETWEEN", "IN", "ISNULL", "NOTNULL", "NE", "EQ"]),
    ("left", ["GT", "LE", "LT", "GE"]),
    ("right", ["ESCAPE"]),
    ("left", ["BITAND", "BITOR", "LSHIFT", "RSHIFT"]),
    ("left", ["PLUS", "MINUS"]),
    ("left", ["STAR", "SLASH", "REM"]),
    ("left", ["CONCAT", "PTR"]),
    ("left", ["COLLATE"]),
    ("right", ["BITNOT"]),
    ("nonassoc", ["ON"]),
]

# Explicit rule precedences (lemon's ``[X]``), by the rule's callback alias.
RULE_PRECEDENCE = {
    "like": "LIKE_KW",
    "like_escape": "LIKE_KW",
    "between": "BETWEEN",
    "in_list": "IN",
    "in_select": "IN",
    "in_table": "IN",
    "unary_minus": "BITNOT",
    "unary_plus": "BITNOT",
    "on_none": "OR",
}

# Keywords that become an identifier where the keyword cannot be shifted (%fallback ID).
FALLBACK_ID = frozenset("""
    ABORT ACTION AFTER ANALYZE ASC ATTACH BEFORE BEGIN BY CASCADE CAST COLUMNKW
    CONFLICT DATABASE DEFERRED DESC DETACH DO EACH END EXCLUSIVE EXPLAIN FAIL FOR
    IGNORE IMMEDIATE INITIALLY INSTEAD LIKE_KW MATCH NO PLAN QUERY KEY OF OFFSET PRAGMA
    RAISE RECURSIVE RELEASE REPLACE RESTRICT ROW ROWS ROLLBACK SAVEPOINT TEMP TRIGGER
    VACUUM VIEW VIRTUAL WITH WITHOUT NULLS FIRST LAST CURRENT FOLLOWING PARTITION
    PRECEDING RANGE UNBOUNDED EXCLUDE GROUPS OTHERS TIES GENERATED ALWAYS MATERIALIZED
    REINDEX RENAME CTIME_KW IF
""".split())

END = "$END"


class GrammarConflict(Exception):
    """The grammar has a conflict that precedence does not resolve."""


@dataclass
class Tables:
    """Numbered LALR(1) tables.

    ``action[state]`` maps a terminal number to ``s >= 0`` (shift, go to state ``s``)
    or ``-1 - r`` (reduce by rule ``r``). ``default[state]`` is the state's default
    reduction (``-1 - r``) or None: as in lemon, the reduction that most lookaheads
    share is taken out of ``action`` and applies to any token not found there (after
    the fallback to ID and the wildcard have been tried). ``goto[state]`` maps a
    nonterminal number to a state. ``rules[r]`` is ``(origin nonterminal number, length,
    alias, rule name)``. ``accept`` holds the states where the statement is complete
    (a ``;`` has just closed it).
    """

    terminals: list[str]
    nonterminals: list[str]
    rules: list[tuple[int, int, str | None, str]]
    action: list[dict[int, int]]
    goto: list[dict[int, int]]
    start_state: int
    default: list[int | None]
    accept: frozenset[int]


def _precedence_of_terminals() -> dict[str, tuple[int, str]]:
    prec = {}
    for level, (assoc, names) in enumerate(PRECEDENCE, start=1):
        for n in names:
            prec[n] = (level, assoc)
    return prec


def _compute() -> Tables:
    from lark.common import ParserConf
    from lark.load_grammar import load_grammar
    from lark.parsers.lalr_analysis import LALR_Analyzer, Reduce, Shift

    with open(GRAMMAR_PATH, encoding="utf-8") as f:
        text = f.read()
    grammar, _ = load_grammar(text, GRAMMAR_PATH, [], True)
    _terminals, rules, _ignore = grammar.compile(["start"], set())
    term_prec = _precedence_of_terminals()

    def rule_prec(rule):
        alias = rule.alias
        if alias in RULE_PRECEDENCE:
            return term_prec[RULE_PRECEDENCE[alias]]
        for sym in rule.expansion:
            if sym.is_term and sym.name in term_prec:
                return term_prec[sym.name]
        return None

    class Analyzer(LALR_Analyzer):
        def compute_lalr1_states(self):  # noqa: C901 - one table walk
            conflicts = []
            table = {}
            for itemset in self.lr0_itemsets:
                actions = {la.name: (Shift, nxt.closure) for la, nxt in itemset.transitions.items()}
                for la, las_rules in itemset.lookaheads.items():
                    rules_ = list(las_rules)
                    if len(rules_) > 1:
                        ranked = sorted(
                            ((rule_prec(r) or (0, ""))[0], i, r) for i, r in enumerate(rules_))
                        if ranked[-1][0] == ranked[-2][0]:
                            conflicts.append(f"reduce/reduce on {la.name}: {rules_}")
                            continue
                        rules_ = [ranked[-1][2]]
                    rule = rules_[0]
                    if la.name in actions:
                        tp = term_prec.get(la.name)
                        rp = rule_prec(rule)
                        if tp is None or rp is None:
                            conflicts.append(f"shift/reduce on {la.name}: {rule}")
                            continue  # keep the shift, but report
                        if rp[0] > tp[0] or (rp[0] == tp[0] and tp[1] == "left"):
                            actions[la.name] = (Reduce, rule)
                        elif rp[0] == tp[0] and tp[1] == "nonassoc":
                            del actions[la.name]
                    else:
                        actions[la.name] = (Reduce, rule)
                table[itemset.closure] = actions
            if conflicts:
                raise GrammarConflict("\n".join(sorted(set(conflicts))))
            self.sql_table = table
            self.sql_start = self.lr0_start_states["start"].closure

    analyzer = Analyzer(ParserConf(rules, None, ["start"]))
    analyzer.compute_lalr()

    used = {sym.name for r in rules for sym in r.expansion if sym.is_term}
    terminals = [END] + sorted(used | FALLBACK_ID | {"ID", "ANY"})
    term_no = {n: i for i, n in enumerate(terminals)}
    nonterminals = sorted({r.origin.name for r in rules})
    nt_no = {n: i for i, n in enumerate(nonterminals)}
    rule_list = []
    rule_no = {}
    for r in rules:
        rule_no[r] = len(rule_list)
        rule_list.append((nt_no[r.origin.name], len(r.expansion), r.alias, r.origin.name))

    # Number the states in breadth-first order from the start state, following symbols
    # in name order, so that the numbering does not depend on hash order.
    states = [analyzer.sql_start]
    seen = {analyzer.sql_start}
    for st in states:
        acts = analyzer.sql_table[st]
        for sym in sorted(acts):
            kind, arg = acts[sym]
            if kind is Shift and arg not in seen:
                seen.add(arg)
                states.append(arg)
    state_no = {s: i for i, s in enumerate(states)}
    action, goto = [], []
    for s in states:
        acts, gotos = {}, {}
        for sym, (kind, arg) in analyzer.sql_table[s].items():
            if sym in nt_no:
                gotos[nt_no[sym]] = state_no[arg]
            elif sym in term_no:
                if kind is Shift:
                    acts[term_no[sym]] = state_no[arg]
                elif arg.origin.name.startswith("$root"):
                    continue
                else:
                    acts[term_no[sym]] = -1 - rule_no[arg]
            # "$root_start" transitions are dropped: the driver accepts on reducing ``start``.
        action.append(acts)
        goto.append(gotos)
    start_nt = nt_no["start"]
    accept = frozenset(
        i for i, acts in enumerate(action)
        if acts.get(term_no[END], 0) < 0 and rule_list[-1 - acts[term_no[END]]][0] == start_nt)
    default = [_default_reduction(acts, rule_list, start_nt, term_no["ANY"]) for acts in action]
    for acts, d in zip(action, default):
        if d is not None:
            for t in [t for t, a in acts.items() if a == d]:
                del acts[t]
    return Tables(terminals, nonterminals, rule_list, action, goto, 0, default, accept)


def _default_reduction(acts, rules, start_nt, any_no):
    """Lemon's choice of a state's default action: the reduction shared by the most
    lookaheads (never one of the start rule, none in a state that shifts the wildcard)."""
    if any_no in acts and acts[any_no] >= 0:
        return None
    counts: dict[int, int] = {}
    for t in sorted(acts):
        a = acts[t]
        if a < 0 and rules[-1 - a][0] != start_nt:
            counts[a] = counts.get(a, 0) + 1
    best, nbest = None, 0
    for a, n in counts.items():
        if n > nbest:
            best, nbest = a, n
    return best


def _cache_path() -> str:
    h = hashlib.sha256()
    with open(GRAMMAR_PATH, "rb") as f:
        h.update(f.read())
    with open(__file__, "rb") as f:
        h.update(f.read())
    d = os.path.join(os.path.dirname(__file__), "__pycache__")
    return os.path.join(d, f"sql_tables_{h.hexdigest()[:16]}.pickle")


_TABLES: Tables | None = None


def load_tables() -> Tables:
    """The tables, from the cache when it matches the grammar, else computed (and cached)."""
    global _TABLES
    if _TABLES is not None:
        return _TABLES
    path = _cache_path()
    try:
        with open(path, "rb") as f:
            _TABLES = pickle.load(f)
        return _TABLES
    except (OSError, pickle.PickleError, EOFError, AttributeError):
        pass
    _TABLES = _compute()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            pickle.dump(_TABLES, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        pass
    return _TABLES
