"""The load generator's pure parts: scripts, percentiles, merging, plans, ratios, the bar."""

from __future__ import annotations

import asyncio
import io
import json
import math
import subprocess
import sys
from array import array
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import replace
from types import SimpleNamespace

import pytest

from bench.load.crowd import Crowd, deliveries
from bench.load.game import GameFailed, message
from bench.load.progress import ProgressBar
from bench.load.recorder import Recorder, merge, summarize
from bench.load.report import compare, crowd_line, generator_line, run_record, table
from bench.load.scripts import make_scripts
from bench.load.worker import LoadPlan, Progress
from cli import main
from core import Game, Rules


@pytest.mark.parametrize(
    "rules",
    [
        {},
        {"rows": 6, "cols": 7, "k": 4, "gravity": True},
        {"rows": 4, "cols": 4, "layers": 4, "k": 4},
    ],
)
def test_scripts_are_whole_legal_games_in_protocol_form(rules: dict[str, object]) -> None:
    for script in make_scripts(rules, 20, seed=7):
        game = Game(Rules.from_dict(rules))
        for ply in range(len(script)):
            message = json.loads(script.text(ply, 40 + ply))
            assert message["type"] == "move"
            assert message["version"] == 40 + ply
            assert message["move_id"] == f"m{ply}"
            assert message["col"] == script.cols[ply]
            game.play({k: v for k, v in message.items() if k in ("row", "col", "layer")})
        assert game.outcome is not None  # the last scripted move ends the game


def test_scripts_are_seeded() -> None:
    assert make_scripts({}, 5, seed=3) == make_scripts({}, 5, seed=3)
    assert make_scripts({}, 5, seed=3) != make_scripts({}, 5, seed=4)


def test_scripts_refuse_more_than_two_players() -> None:
    with pytest.raises(ValueError, match="two-player"):
        make_scripts({"players": 3, "rows": 4, "cols": 4}, 1, seed=1)


def test_percentiles_are_nearest_rank_in_milliseconds() -> None:
    samples = [i / 1000 for i in range(1, 101)]  # 1 ms .. 100 ms
    summary = summarize(array("d", reversed(samples)))
    assert summary["count"] == 100
    assert summary["p50"] == pytest.approx(50.0)
    assert summary["p95"] == pytest.approx(95.0)
    assert summary["p99"] == pytest.approx(99.0)
    assert summary["max"] == pytest.approx(100.0)
    assert summary["mean"] == pytest.approx(50.5)
    assert summarize([])["p99"] is None


def test_only_moves_sent_inside_the_window_count() -> None:
    recorder = Recorder(start=10.0, end=20.0)
    for sent in (9.9, 10.0, 15.0, 19.99, 20.0):
        recorder.acked(sent)
    assert (recorder.moves, recorder.moves_total) == (3, 5)
    recorder.opened_one()
    recorder.opened_one()
    recorder.closed_one()
    recorder.opened_one()
    assert (recorder.opened, recorder.peak, recorder.open_now) == (3, 2, 2)


def test_results_of_processes_merge() -> None:
    first, second = Recorder(0, 1), Recorder(0, 1)
    first.opponent.append(0.001)
    second.opponent.extend([0.002, 0.003])
    first.error("timeout")
    second.error("timeout")
    second.error("http")
    first.moves, second.moves = 4, 6
    merged = merge([first.result(), second.result()])
    assert list(merged["opponent"]) == [0.001, 0.002, 0.003]
    assert merged["moves"] == 10
    assert merged["errors"] == {"timeout": 2, "http": 1}


def test_a_plan_shares_its_games_between_processes() -> None:
    plan = LoadPlan("http://127.0.0.1:1", 10, 1, 0.0, 1.0, 2.0, {}, seed=5, procs=3)
    shares = [plan.share(i) for i in range(3)]
    assert [s.games for s in shares] == [4, 3, 3]
    assert len({s.seed for s in shares}) == 3
    assert all(s.procs == 1 for s in shares)


def test_a_crowded_plan_spreads_every_room_s_spectators_over_the_processes() -> None:
    plan = LoadPlan("http://127.0.0.1:1", 2, 1000, 1.0, 1.0, 2.0, {}, procs=3, next="rematch")
    assert plan.crowded
    shares = [plan.share(i) for i in range(3)]
    assert [s.games for s in shares] == [1, 1, 0]  # the third process only watches
    crowds = [s.crowd for s in shares]
    assert all(c is not None for c in crowds)
    assert [c.each for c in crowds if c] == [334, 333, 333]
    assert all(c.gate == 16 for c in crowds if c)  # about 50 joins at once a room, in all
    # the players apart: the first process plays every room, the others watch them all
    apart = [replace(plan, players_apart=True).share(i) for i in range(3)]
    assert [s.games for s in apart] == [2, 0, 0]
    assert [s.crowd.each for s in apart if s.crowd] == [0, 500, 500]
    assert all(s.crowd.gate == 25 for s in apart if s.crowd)  # 50 at once in all, as above
    # the same load in room mode, with one process or with few spectators: no crowd
    for other in ({"next": "room"}, {"procs": 1}, {"spectators": 99}):
        assert not replace(plan, **other).crowded
        assert replace(plan, **other).share(0).crowd is None


def test_sends_and_arrivals_of_several_processes_join_into_latencies() -> None:
    owner = {
        "sends": {("a", 0, 0): 10.0, ("a", 0, 1): 11.0, ("b", 1, 0): 20.0},
        "arrivals": {
            ("a", 0, 0): array("d", [10.5]),
            ("a", 0, 1): array("d", [11.25]),
            ("a", 9, 9): array("d", [1.0]),
        },  # sent outside the window
        "watching": {"a": 1, "b": 1},
    }
    other = {
        "sends": {},
        "arrivals": {("a", 0, 0): array("d", [10.75, 9.0]), ("b", 1, 0): array("d", [20.125])},
        "watching": {"a": 2, "b": 1},
    }
    joined = deliveries([owner, other])
    assert sorted(joined["spectator"]) == [0.125, 0.25, 0.5, 0.75]
    assert joined["early"] == 1  # 9.0 arrived before its send at 10.0: counted, not used
    # a: 2 moves x 3 spectators, b: 1 move x 2 spectators; 4 arrived, 1 too early
    assert (joined["expected"], joined["missed"]) == (8, 3)
    assert (joined["watchers"], joined["rooms"]) == (5, 2)


def test_crowd_figures_merge_and_print() -> None:
    first, second = Recorder(0, 1).result(), Recorder(0, 1).result()
    crowd = {"expected": 10, "missed": 1, "early": 0, "watchers": 4, "rooms": 2}
    first["crowd"] = second["crowd"] = crowd
    assert merge([first, second])["crowd"]["expected"] == 20
    assert merge([first, second], side_by_side=False)["crowd"]["watchers"] == 4
    merged = merge([first, second], side_by_side=False)
    run = run_record("server", "redis2", merged, duration=10, server=None, extra={"spectators": 2})
    assert crowd_line(run) == (
        "redis2 server: 4 of 4 spectators (2 rooms) joined before the warm-up, spread over "
        "1 load processes; 20 deliveries of moves sent in the window, 2 missed"
    )


def _result(moves: int, latency: float) -> dict[str, object]:
    recorder = Recorder(0, 1)
    recorder.moves = moves
    recorder.opponent.extend([latency] * 10)
    recorder.spectator.extend([latency] * 10)
    recorder.cpu_s = 2.5
    return merge([recorder.result()])


def test_server_figures_are_compared_to_the_relay() -> None:
    cpu = {"cpu_s": 1.0, "cpu_percent": 50.0, "rss_bytes": 1 << 20}
    server = run_record("server", "memory", _result(700, 0.004), duration=10, server=cpu)
    relay = run_record("relay", "memory", _result(1000, 0.002), duration=10, server=cpu)
    ratios = compare(server, relay)
    assert ratios["moves_per_s"] == pytest.approx(0.7)
    assert ratios["opponent_p99"] == pytest.approx(2.0)
    assert ratios["cpu_per_move"] == pytest.approx(1000 / 700)
    assert server["generator"] == {
        "procs": 1,
        "cpu_s": 2.5,
        "cpu_percent": 25.0,
        "full_collections": 0,
    }
    text = table([server, relay], [ratios])
    assert "| memory | server | 70 | 0.70 |" in text
    assert text.count("\n") == 3


def test_the_load_processes_own_full_collections_in_the_window_are_shown() -> None:
    """A pause of the instrument is in every latency behind it: the run says so."""
    first, second, third = (Recorder(0, 1) for _ in range(3))
    first.full_collections, third.full_collections = 1, 2
    side_by_side = merge([first.result(), second.result()])
    assert side_by_side["full_collections"] == 1
    windows = merge([side_by_side, merge([third.result()])], side_by_side=False)
    run = run_record("relay", "redis2", windows, duration=10, server=None)
    assert run["generator"]["full_collections"] == 3
    assert generator_line(run) == (
        "redis2 relay: the load processes made 3 full garbage collection(s) inside the "
        "window; its latencies include those pauses"
    )
    quiet = run_record("server", "redis2", merge([second.result()]), duration=10, server=None)
    assert generator_line(quiet) is None


def test_the_progress_bar_draws_only_when_asked() -> None:
    stream = io.StringIO()
    bar = ProgressBar("memory server", 10.0, stream=stream, enabled=True)
    bar.update(Progress(2.5, 120, 10, 0, 6))
    bar.update(Progress(5.0, 620, 60, 1, 6))
    bar.close()
    out = stream.getvalue()
    assert "[############            ]" in out
    assert "moves 620 (200/s)" in out and "errors 1" in out
    silent = io.StringIO()
    ProgressBar("x", 1.0, stream=silent).update(Progress(0.5, 1, 0, 0, 0))  # not a tty
    assert silent.getvalue() == ""


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--configs", "memory,nope"], "unknown configuration 'nope'"),
        (["--games", "0"], "--games must be at least 1"),
        (["--duration", "0"], "--duration must be above 0"),
        (["--games", "2", "--procs", "3"], "--procs (3) cannot exceed --games (2)"),
        (
            ["--games", "2", "--procs", "3", "--next", "rematch", "-S", "99"],
            "--procs (3) cannot exceed --games (2)",
        ),
        (["--next", "newroom"], "invalid choice: 'newroom'"),
        (["--think", "1", "--think-spread", "1.5"], "--think-spread must be from 0 to 1, got 1.5"),
        (["--think-spread", "-0.1"], "--think-spread must be from 0 to 1, got -0.1"),
        (
            ["--players-apart", "--next", "rematch", "--procs", "2", "-S", "99"],
            "--players-apart needs the spectators spread",
        ),
        (
            ["--players-apart", "--next", "rematch", "-S", "1000"],
            "--players-apart needs the spectators spread",
        ),
        (["--rematch-think", "1"], "--rematch-think needs --next rematch"),
        (
            ["--rematch-think", "-1", "--next", "rematch"],
            "--rematch-think must be from 0 to 3600 seconds, got -1",
        ),
        (["--rematch-think", "nan", "--next", "rematch"], "--rematch-think must be from 0 to 3600"),
        (["--open-loop", "0"], "--open-loop must be above 0 and at most 1000, got 0.0"),
        (["--open-loop", "1", "--think", "0.5"], "--open-loop sets when moves are made"),
    ],
)
def test_bad_flags_are_refused_before_anything_starts(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        assert main(["bench", *argv]) == 2
    except SystemExit as exc:  # argparse refuses a bad choice itself
        assert exc.code == 2
    assert message in capsys.readouterr().err


_SETTLE = """
import asyncio, gc, weakref
from bench.load.worker import settle
from server.fastpath.collector import YOUNG_EVERY, YOUNG_THRESHOLD

class Node:
    pass

async def main():
    dropped, kept = Node(), Node()
    dropped.me, kept.me = dropped, kept  # two cycles; only ``kept`` stays reachable
    gone = weakref.ref(dropped)
    del dropped
    gc.disable()  # only settle collects here
    before = gc.get_freeze_count()
    collector = settle()
    frozen = gc.get_freeze_count()
    later = Node()  # made in the window, as a connection is
    await asyncio.sleep(YOUNG_EVERY * 4)  # the test: four tick periods pass
    print(gone() is None, frozen > before, gc.is_tracked(kept),
          any(obj is kept for obj in gc.get_objects()),
          collector.young > 0, any(obj is later for obj in gc.get_objects()),
          gc.get_threshold()[0] == YOUNG_THRESHOLD)
    collector.close()
    print(gc.get_freeze_count() == 0, gc.get_threshold()[0] != YOUNG_THRESHOLD)

asyncio.run(main())
"""


def test_a_load_process_settles_before_the_window() -> None:
    """settle collects the garbage of setting up and freezes what is left, then keeps
    freezing what the window makes (server.fastpath.collector): no collection but a full one walks
    any of it, although it stays tracked; closed, the collector gives everything back."""
    done = subprocess.run(
        [sys.executable, "-c", _SETTLE], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split() == [
        "True",
        "True",
        "True",
        "False",
        "True",
        "False",
        "True",
        "True",
        "True",
    ]


class _Queued:
    """A connection whose events are all queued already, in ``recv_messages.frames`` as in
    the websockets client: iterating it never suspends, as the client's ``recv`` does not
    while frames wait in its queue."""

    def __init__(self, texts: list[str]) -> None:
        self.recv_messages = SimpleNamespace(frames=deque(texts))

    async def __aiter__(self) -> AsyncIterator[str]:
        frames = self.recv_messages.frames
        while frames:
            yield frames.popleft()


def test_a_crowd_takes_everyone_s_first_event_before_anyone_s_second() -> None:
    events = [json.dumps({"type": "moved", "version": version}) for version in (7, 8)]
    events.append(json.dumps({"type": "new_game", "version": 9}))
    recorder = Recorder(0.0, math.inf)
    crowd = Crowd("ws://unused", recorder)

    async def watch_all() -> None:
        await asyncio.gather(
            *(
                crowd._watch(_Queued(events), "r")  # type: ignore[arg-type]
                for _ in range(3)
            )
        )

    asyncio.run(watch_all())
    first, second = crowd.arrivals[("r", 0, 0)], crowd.arrivals[("r", 0, 1)]
    assert len(first) == len(second) == 3
    assert max(first) < min(second)
    assert recorder.errors == {"closed_by_server": 3}  # each stream ended: counted, as ever


def test_a_frame_is_an_event_or_a_counted_failure() -> None:
    assert message('{"type":"moved","col":2,"at":1796093959.4195235}') == {
        "type": "moved",
        "col": 2,
        "at": 1796093959.4195235,
    }
    assert message(b'{"type":"ack"}') == {"type": "ack"}
    for text, kind in (
        ("[1, 2]", "not_an_object"),
        ('"moved"', "not_an_object"),
        ("{not json", "not_json"),
        ("", "not_json"),
    ):
        with pytest.raises(GameFailed) as failed:
            message(text)
        assert failed.value.kind == kind
