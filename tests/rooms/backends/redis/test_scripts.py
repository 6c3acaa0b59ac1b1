"""The commit script's keys and arguments are built by name (rooms.backends.redis.scripts): the
value object's fields are the names the Lua script gives its slots, and ``keys``/``argv`` list
them in the script's order. Pure: the script's text is read, not run (its runs are the store's
tests)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rooms.backends.index import IndexChange
from rooms.backends.redis.scripts import COMMIT, COMMIT_SHARDED, CommitArgs

SLOT = re.compile(r"^local (\w+) = [^\n]*?\b(KEYS|ARGV)\[(\d+)\]", re.MULTILINE)
"""A line that names a slot: ``local <name> = ... KEYS[n]`` (or ``ARGV[n]``)."""


def slots(script: str, kind: str) -> list[str]:
    """The names ``script`` gives its KEYS or ARGV, in slot order, checking that every slot
    is named once, on a line of its own, and read nowhere else by number."""
    named = [(int(n), name) for name, k, n in SLOT.findall(script) if k == kind]
    assert [n for n, _ in named] == list(range(1, len(named) + 1)), named
    assert script.count(f"{kind}[") == len(named), f"{kind} read by number past the header"
    return [name for _, name in named]


def naming_itself() -> CommitArgs:
    """CommitArgs whose every field holds its own name, an index change included."""
    values: dict[str, Any] = {name: name for name in CommitArgs._fields}
    return CommitArgs(**values)


@pytest.mark.parametrize("script", [COMMIT, COMMIT_SHARDED], ids=["one Redis", "Cluster"])
def test_the_fields_are_the_script_s_slots_in_its_order(script: str) -> None:
    keys, argv = slots(script, "KEYS"), slots(script, "ARGV")
    args = naming_itself()
    assert args.keys() == keys
    assert args.argv() == argv
    assert sorted(CommitArgs._fields) == sorted(keys + argv)  # no field left unsent


def test_without_an_index_change_its_keys_and_arguments_are_left_out() -> None:
    keys, argv = slots(COMMIT, "KEYS"), slots(COMMIT, "ARGV")
    plain = naming_itself()._replace(index_change=b"", due_change=b"")
    assert plain.keys() == keys[:2] == ["room", "log"]
    assert plain.argv() == argv[:13] and argv[13] == "index_change"


def test_what_was_sent_reads_back_by_name() -> None:
    unset = CommitArgs._field_defaults  # what a commit without an index change leaves
    plain = naming_itself()._replace(**unset)
    change = IndexChange(True, ("ttt:w:lease", "ttt:w:rooms"), "roomaaaa", 60_000)
    for args in (plain, plain.indexing(change)):
        assert CommitArgs.read(args.keys(), args.argv()) == args


def test_an_index_change_adds_its_keys_and_arguments() -> None:
    plain = naming_itself()._replace(index_change=b"", due_change=b"")
    change = IndexChange(True, ("ttt:w:lease", "ttt:w:rooms"), "roomaaaa", 60_000)
    indexing = plain.indexing(change)
    assert indexing.keys() == [*plain.keys(), "ttt:w:lease", "ttt:w:rooms"]
    assert indexing.argv() == [*plain.argv(), b"a", "roomaaaa", 60_000]
    assert plain.indexing(IndexChange(False, change.keys, "roomaaaa", 1)).index_change == b"r"


def test_a_due_change_comes_last_with_the_index_change_s_slots_empty_or_not() -> None:
    unset = CommitArgs._field_defaults
    plain = naming_itself()._replace(**unset)
    due = plain.due("ttt:{deadlines}", "roomaaaa", 1.5e9)
    assert due.keys() == [*plain.keys(), "", "", "ttt:{deadlines}"]
    assert due.argv() == [*plain.argv(), b"", "", 0, b"s", "roomaaaa", "1500000000.0"]
    assert plain.due("ttt:{deadlines}", "roomaaaa", None).due_change == b"x"
    change = IndexChange(True, ("ttt:w:lease", "ttt:w:rooms"), "roomaaaa", 60_000)
    both = plain.indexing(change).due("ttt:{deadlines}", "roomaaaa", None)
    assert both.keys()[2:] == ["ttt:w:lease", "ttt:w:rooms", "ttt:{deadlines}"]
    for args in (due, both):
        assert CommitArgs.read(args.keys(), args.argv()) == args
