"""Sound and attention in real Chromium: a cue for each move and the result, real Web Audio
oscillators only after a user gesture, a remembered sound switch, "Your move" in the title
of a hidden tab, and a browser notification when the player turned them on.

An init script records what the page asks for: the `ttt:cue` events of sound.js, the
oscillators Chromium actually started (AudioScheduledSourceNode.start) and when the audio
context was made: after the first move's piece is drawn, never before it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import cell, expect_cell, role_badge, status_line
from tests.e2e.browser_helpers import seat as take_seat

pytestmark = pytest.mark.e2e

RECORD = """
window.__cues = [];
window.addEventListener("ttt:cue", (e) => window.__cues.push(e.detail));
window.__oscillators = 0;
window.__audioMadeAt = null;
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  constructor(...args) {
    if (window.__audioMadeAt === null) window.__audioMadeAt = performance.now();
    super(...args);
  }
};
const start = AudioScheduledSourceNode.prototype.start;
AudioScheduledSourceNode.prototype.start = function (...args) {
  window.__oscillators += 1;
  return start.apply(this, args);
};
window.__notes = [];
if (window.Notification) {
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) {
      super(title, options);
      window.__notes.push({ title, body: options && options.body });
    }
  };
}
"""

HIDE = """(hidden) => {
  const state = hidden ? "hidden" : "visible";
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def seat(page: Any, room: str, mark: str) -> Any:
    page.add_init_script(RECORD)
    return take_seat(page, room, mark)


def cues(page: Any) -> list[str]:
    return [c["cue"] for c in page.evaluate("window.__cues")]


def sounded(page: Any) -> list[str]:
    return [c["cue"] for c in page.evaluate("window.__cues") if c["sounded"]]


def oscillators(page: Any) -> int:
    count: int = page.evaluate("window.__oscillators")
    return count


def played(page: Any, at_least: int) -> None:
    """Wait until the page started ``at_least`` oscillators (a cue plays after the paint)."""
    page.wait_for_function(f"() => window.__oscillators >= {at_least}")


PIECE_SEEN = """() => {
  window.__pieceAt = null;
  new MutationObserver(() => {
    if (window.__pieceAt === null && document.querySelector(".board .piece:not(.ghost)")) {
      window.__pieceAt = performance.now();
    }
  }).observe(document.querySelector(".board"), { childList: true, subtree: true });
}"""


def switch(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def test_moves_and_the_result_sound_but_only_after_a_gesture(
    new_page: Any, create_room: Any
) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room, "X")
    grace = seat(new_page(name="Grace"), room, "O")
    grace.reload()  # her answer to the name question was a gesture; the reloaded page has none
    expect(role_badge(grace)).to_have_text("You play O")
    expect(switch(ada, "Sound")).to_have_attribute("aria-pressed", "true")  # on by default

    cell(ada, 2, 2).click()
    expect_cell(grace, 2, 2, "X")
    # Grace has not touched her page yet: the cue is asked for, the browser plays nothing
    grace.wait_for_function("() => window.__cues.length === 1")
    assert cues(grace) == ["opponent"]
    assert sounded(grace) == [] and oscillators(grace) == 0

    cell(grace, 1, 1).click()  # her first gesture
    expect_cell(ada, 1, 1, "O")
    cell(ada, 1, 2).click()
    expect_cell(grace, 1, 2, "X")
    cell(grace, 3, 3).click()
    expect_cell(ada, 3, 3, "O")
    cell(ada, 3, 2).click()  # b1, b2, b3: X wins
    expect(status_line(ada)).to_be_hidden()
    ada.wait_for_function("() => window.__cues.some((c) => c.cue === 'win')")
    grace.wait_for_function("() => window.__cues.some((c) => c.cue === 'loss')")

    assert cues(ada) == ["move", "opponent", "move", "opponent", "move", "win"]
    assert sounded(ada) == cues(ada)  # every click on the board was a gesture
    assert cues(grace) == ["opponent", "move", "opponent", "move", "loss"]
    assert sounded(grace) == ["move", "opponent", "move", "loss"]
    played(ada, 6)  # real Web Audio notes
    played(grace, 4)


def test_the_sound_switch_is_remembered_across_a_reload(new_page: Any, create_room: Any) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room, "X")
    grace = seat(new_page(name="Grace"), room, "O")
    switch(ada, "Sound").click()
    expect(switch(ada, "Sound")).to_have_attribute("aria-pressed", "false")
    ada.reload()
    expect(role_badge(ada)).to_have_text("You play X")
    expect(switch(ada, "Sound")).to_have_attribute("aria-pressed", "false")

    cell(ada, 2, 2).click()  # a gesture, but sound is off
    cell(grace, 1, 1).click()
    expect_cell(ada, 1, 1, "O")
    ada.wait_for_function("() => window.__cues.length === 2")
    assert cues(ada) == ["move", "opponent"]
    assert sounded(ada) == [] and oscillators(ada) == 0

    switch(ada, "Sound").click()  # on again: a tick confirms it
    expect(switch(ada, "Sound")).to_have_attribute("aria-pressed", "true")
    assert sounded(ada) == ["move"]
    played(ada, 1)
    ada.reload()
    expect(switch(ada, "Sound")).to_have_attribute("aria-pressed", "true")


def test_a_hidden_tab_shows_your_move_in_its_title(new_page: Any, create_room: Any) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room, "X")
    grace = seat(new_page(name="Grace"), room, "O")
    cell(ada, 2, 2).click()
    expect(status_line(grace)).to_have_text("Your move")
    expect(grace).to_have_title(re.compile(r"^Your move · Classic"))  # visible: the page's own

    ada.evaluate(HIDE, True)
    grace.evaluate(HIDE, True)
    expect(grace).to_have_title(re.compile(r"^[◉○] Your move · Your move · Classic"))
    for frame in ("◉", "○"):  # it blinks: the mark before "Your move" turns on and off
        expect(grace).to_have_title(re.compile(rf"^{frame} Your move · "))
    expect(ada).to_have_title(re.compile(r"^Grace \(O\) to move · "))  # not Ada's move
    cell(grace, 1, 1).click()
    expect(ada).to_have_title(re.compile(r"^[◉○] Your move · "))
    expect(grace).to_have_title(re.compile(r"^Ada \(X\) to move · "))
    ada.evaluate(HIDE, False)  # back in the tab: the title is the page's own again
    expect(ada).to_have_title("Your move · Classic · Tic-Tac-Toe")


def test_notifications_are_asked_for_and_sent_for_a_move_in_a_hidden_tab(
    new_page: Any, create_room: Any
) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room, "X")
    grace = seat(new_page(name="Grace", permissions=["notifications"]), room, "O")
    notify = switch(grace, "Notify")
    expect(notify).to_have_attribute("aria-pressed", "false")  # off until asked for
    notify.click()
    expect(notify).to_have_attribute("aria-pressed", "true")

    grace.evaluate(HIDE, True)
    cell(ada, 2, 2).click()
    grace.wait_for_function("() => window.__notes.length === 1")
    assert grace.evaluate("window.__notes") == [{"title": "Your move", "body": "Ada played b2."}]

    grace.reload()  # remembered
    expect(switch(grace, "Notify")).to_have_attribute("aria-pressed", "true")
    cell(grace, 1, 1).click()  # visible tab: no notification
    expect_cell(ada, 1, 1, "O")
    cell(ada, 1, 2).click()
    expect_cell(grace, 1, 2, "X")
    assert grace.evaluate("window.__notes") == []


def test_cues_between_two_page_states(js: Any) -> None:
    """attention.cuesFor in the page: low time once when the own clock crosses into its last
    seconds; a draw's end cue; a first snapshot or a new game says nothing."""
    result = js(
        """
        const { cuesFor } = await import("/js/game/attention.js");
        const clock = {
          initial: 60, increment: 0, running: "X", deadline: 1000, remaining: { X: 30, O: 60 },
        };
        const room = {
          game_number: 1, status: "playing", turn: "X", moves: [], clock, players: [], rules: {},
        };
        const page = (now, extra = {}) => ({
          role: "player", mark: "X", pending: null, offset: 0, now: now * 1000,
          room: { ...room, ...extra },
        });
        const draw = {
          status: "finished", outcome: { winner: null, reason: "board_full" },
          moves: [{ mark: "O" }],
        };
        return {
          calm: cuesFor(page(980), page(985)),
          low: cuesFor(page(985), page(990)),
          stillLow: cuesFor(page(990), page(991)),
          theirs: cuesFor(page(980), page(980, { clock: { ...clock, running: "O" } })),
          draw: cuesFor(page(980), page(980, draw)),
          first: cuesFor({ room: null }, page(990)),
          newGame: cuesFor(page(980), page(980, { game_number: 2, moves: [{ mark: "O" }] })),
        };
        """
    )
    assert result == {
        "calm": [],
        "low": ["low"],
        "stillLow": [],
        "theirs": [],
        "draw": ["end"],
        "first": [],
        "newGame": [],
    }


def test_the_first_move_of_a_visit_is_drawn_before_the_sound_starts(
    new_page: Any, create_room: Any
) -> None:
    """Making the audio context can hold the page for tens of milliseconds: the first cue of a
    visit waits until the piece is on the board, so the first click is as quick as the rest."""
    room = create_room()
    ada = seat(new_page(name="Ada"), room, "X")
    seat(new_page(name="Grace"), room, "O")
    expect(status_line(ada)).to_have_text("Your move")
    assert ada.evaluate("window.__audioMadeAt") is None  # nothing made before a cue
    ada.evaluate(PIECE_SEEN)
    cell(ada, 2, 2).click()
    played(ada, 1)
    piece_at, made_at = ada.evaluate("[window.__pieceAt, window.__audioMadeAt]")
    assert piece_at is not None and made_at is not None
    assert piece_at < made_at, "the audio context was made before the piece was drawn"
    assert sounded(ada) == ["move"]
