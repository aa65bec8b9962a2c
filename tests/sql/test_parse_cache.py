"""sqlengine.sql.parse_one's cache: the same Parsed back for the same text and start, the
least recently used of more than CACHE_SIZE texts dropped first."""

import sqlengine.sql as S


def test_same_text_gives_the_same_parsed_object():
    S.clear_cache()
    a = S.parse_one("SELECT 1")
    assert S.parse_one("SELECT 1") is a
    assert S.parse_one("SELECT 1; SELECT 2", 9) is S.parse_one("SELECT 1; SELECT 2", 9)
    assert S.parse_one("SELECT 1; SELECT 2", 9).stmt.body.columns[0].expr.value == 2
    assert S.parse_one("SELECT 1; SELECT 2").stmt.body.columns[0].expr.value == 1


def test_least_recently_used_text_goes_first():
    S.clear_cache()
    hot = S.parse_one("SELECT 'hot'")
    cold = S.parse_one("SELECT 'cold'")
    for i in range(S.CACHE_SIZE - 2):
        S.parse_one(f"SELECT {i}")
    assert S.parse_one("SELECT 'hot'") is hot      # a hit: now the most recent
    S.parse_one("SELECT 'new'")                    # one too many: the oldest goes
    assert S.parse_one("SELECT 'hot'") is hot
    assert S.parse_one("SELECT 'cold'") is not cold
    assert len(S._cache) == S.CACHE_SIZE


def test_blank_text_is_not_kept():
    S.clear_cache()
    assert S.parse_one("  ;; -- x") is None
    assert len(S._cache) == 0
