"""Regression tests for the engine bugs the reliability runs found and their owners fixed:
each runs the minimal reproduction kept in tools/repros.py (where the still-open ones wait;
``python -m tools.repros`` lists both)."""

import pytest

from tools import repros

FIXED = [
    repros.pager_page1_journaled_after_sync,
    repros.pager_first_commit_has_no_journal,
    repros.journal_playback_stops_at_empty_segment,
    repros.persist_journal_stale_segment,
    repros.failed_rollback_deletes_journal,
    repros.failed_journal_delete_keeps_commit,
    repros.header_page_count_beyond_file,
    repros.corrupt_index_record_index_error,
    repros.fresh_writer_waits_holding_shared,
    repros.begin_immediate_takes_no_lock,
    repros.stale_schema_at_prepare,
    repros.collation_of_left_binary_column,
    repros.compound_select_collation,
    repros.scalar_subquery_affinity,
    repros.sign_function_missing,
    repros.aggregate_filter_with_group_by,
    repros.too_many_result_columns,
    repros.hex_literal_too_big,
    repros.variable_number_with_many_digits,
    repros.subquery_affinity_in_insert_values,
]


@pytest.mark.parametrize("repro", FIXED, ids=[f.__name__ for f in FIXED])
def test_fixed_bug_stays_fixed(repro):
    ok, detail = repro()
    assert ok, detail
