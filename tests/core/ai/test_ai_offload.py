"""Bot moves as picklable jobs: the same move in this process, after pickling, and in a
worker process, as a server would run them off its event loop."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from core import Game, Move, Rules
from core.ai import Budget, UnknownBot
from core.ai.offload import BotJob, answer_bot_job, run_bot_job

NODES = Budget(seconds=None, nodes=300)


def sample_game() -> Game:
    return Game.replay(Rules(5, 5, 4, gravity=True), [Move(4, 2), Move(4, 1)])


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard", "perfect"])
def test_a_job_round_trips_through_pickle_and_gives_the_same_move(level: str) -> None:
    job = BotJob.of(sample_game(), level, seed=5, budget=NODES)
    copy = pickle.loads(pickle.dumps(job))
    assert copy == job
    assert run_bot_job(copy) == run_bot_job(job)
    assert run_bot_job(job) in sample_game().legal_moves()


def test_jobs_run_in_a_process_pool() -> None:
    jobs = [BotJob.of(sample_game(), level, seed=1, budget=NODES) for level in ("medium", "hard")]
    with ProcessPoolExecutor(max_workers=1) as pool:
        moves = list(pool.map(run_bot_job, jobs))
    assert moves == [run_bot_job(job) for job in jobs]


def test_a_bad_job_raises_the_typed_error() -> None:
    with pytest.raises(UnknownBot):
        run_bot_job(BotJob.of(sample_game(), "grandmaster"))


def test_an_answer_says_whether_the_move_was_proven() -> None:
    small = answer_bot_job(BotJob.of(Game(), "perfect", seed=1, budget=5.0))
    assert small.proven is True and small.move in Game().legal_moves()  # 3x3 proves at once
    big = Game(Rules(rows=15, cols=15, k=5))
    guess = answer_bot_job(BotJob.of(big, "perfect", seed=1, budget=Budget(None, 200)))
    assert guess.proven is False and guess.move in big.legal_moves()  # no proof in 200 nodes
    assert answer_bot_job(BotJob.of(Game(), "hard", seed=1, budget=0.05)).proven is None
