"""The browser takes a seat with a join key and keeps it until it holds a token: when the
``welcome`` that carried the token is lost (the line cut as it arrives), the page's next join
sends the same key and gets the same seat back instead of ``room_full``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import accept_invite, cell, expect_cell, role_badge, seat
from tests.e2e.socket_line import Line

pytestmark = pytest.mark.e2e

KEY = re.compile(r"[A-Za-z0-9_-]{22}")


def test_a_lost_welcome_is_recovered_with_the_kept_join_key(
    new_page: Any, create_room: Any
) -> None:
    room = create_room()
    x = new_page(name="Xia")
    line = Line(x)

    def lose_the_welcome(message: dict[str, Any]) -> bool:
        if message["type"] != "welcome":
            return False
        line.refuse = True  # no reconnect until the room is full
        return True

    line.cut_after = lose_the_welcome
    accept_invite(x, room)
    line.wait_for(x, "the line cut after the welcome", lambda: line.refuse)
    o = seat(new_page(name="Oda"), room, "O")  # the room is full now

    line.refuse = False
    expect(role_badge(x)).to_have_text("You play X")
    joins = line.sent_of("join")
    assert len(joins) >= 2 and all("token" not in join for join in joins)
    keys = {join["join_key"] for join in joins}
    assert len(keys) == 1 and KEY.fullmatch(keys.pop()), joins
    cell(x, 1, 1).click()
    expect_cell(o, 1, 1, "X")

    # holding a token now, the page resumes with it and keeps no key
    x.reload()
    expect(role_badge(x)).to_have_text("You play X")
    last = line.sent_of("join")[-1]
    assert "token" in last and "join_key" not in last
    stored = x.evaluate(f"localStorage.getItem('ttt.joinkey.{room}')")
    assert stored is None


def test_join_messages_and_kept_keys(js: Any) -> None:
    out = js("""
        const s = await import("/js/browser/storage.js");
        const a = s.joinKeyFor("r1"), b = s.joinKeyFor("r1"), c = s.joinKeyFor("r2");
        s.saveSeat("r1", {token: "t", mark: "X"});
        const d = s.joinKeyFor("r1");
        return {
          a, same: a === b, other: a !== c, fresh: d !== a,
          player: m.protocol.joinMessage({as: "player", joinKey: a}),
          spectator: m.protocol.joinMessage({as: "spectator", joinKey: a}),
          token: m.protocol.joinMessage({as: "player", token: "t", joinKey: a}),
        };
    """)
    assert KEY.fullmatch(out["a"]) and out["same"] and out["other"] and out["fresh"]
    assert out["player"]["join_key"] == out["a"]
    assert "join_key" not in out["spectator"]
    assert "join_key" not in out["token"] and out["token"]["token"] == "t"
