"""Glicko-2 ratings: a rating, how sure it is (deviation) and how erratic (volatility).

Mark Glickman, "Example of the Glicko-2 system" (2013), steps 1-8, with the volatility found
by the Illinois algorithm of its step 5. ``rate`` updates one player over one rating period
from the results of that period against opponents' ratings taken at its start; a server
that rates each game as it ends (as lichess does) makes each game a period of its own with
``rate_game``. A period without games only widens the deviation (``idle``).

The deviation is kept within [``MIN_DEVIATION``, ``MAX_DEVIATION``] (lichess's floor keeps
a rating able to move; the ceiling is a new player's). A rating whose deviation is above
``PROVISIONAL_DEVIATION`` is provisional, shown with a "?" as lichess does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import GameError

__all__ = [
    "DEFAULT_TAU",
    "MAX_DEVIATION",
    "MIN_DEVIATION",
    "PROVISIONAL_DEVIATION",
    "RatedResult",
    "Rating",
    "RatingError",
    "games_to_establish",
    "idle",
    "rate",
    "rate_game",
]

SCALE = 173.7178  # Glicko-2's scale: (rating - 1500) / SCALE
DEFAULT_TAU = 0.5  # the system constant: how much volatility may change (0.3 to 1.2)
MIN_DEVIATION = 45.0
MAX_DEVIATION = 350.0
PROVISIONAL_DEVIATION = 110.0
_EPSILON = 0.000001  # the convergence tolerance of step 5
_MOST_ITERATIONS = 200  # step 5 converges in a few dozen; a bound against a bad input


class RatingError(GameError):
    """A rating, a result or a setting the system cannot compute with."""

    code = "invalid_rating"


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating on the familiar scale (1500 for a newcomer)."""

    rating: float = 1500.0
    deviation: float = MAX_DEVIATION
    volatility: float = 0.06

    def __post_init__(self) -> None:
        _finite("rating", self.rating)
        _finite("deviation", self.deviation, above_zero=True)
        _finite("volatility", self.volatility, above_zero=True)

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION


@dataclass(frozen=True, slots=True)
class RatedResult:
    """One game of the period: the opponent's rating at its start, and the score (1 a win,
    0.5 a draw, 0 a loss)."""

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        if self.score not in (0, 0.5, 1) or isinstance(self.score, bool):
            raise RatingError(f"a score is 1, 0.5 or 0, got {self.score!r}")


def rate(player: Rating, results: Sequence[RatedResult], *, tau: float = DEFAULT_TAU) -> Rating:
    """``player``'s rating after a period with ``results`` (none: ``idle``)."""
    _finite("tau", tau, above_zero=True)
    if not results:
        return idle(player)
    mu, phi, sigma = _to_glicko2(player)  # step 2
    impacts = [(_g(_to_glicko2(r.opponent)[1]), r) for r in results]
    expected = [(g, _expected(mu, _to_glicko2(r.opponent)[0], g), r.score) for g, r in impacts]
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in expected)  # step 3
    improvement = sum(g * (score - e) for g, e, score in expected)
    delta = v * improvement  # step 4
    sigma = _volatility(phi, sigma, delta, v, tau)  # step 5
    phi_star = math.sqrt(phi * phi + sigma * sigma)  # step 6
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    mu += phi * phi * improvement
    return _from_glicko2(mu, phi, sigma)  # step 8


def rate_game(
    first: Rating, second: Rating, first_score: float, *, tau: float = DEFAULT_TAU
) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them (``first_score``: 1 when
    ``first`` won, 0.5 a draw, 0 a loss), each rated against the other's rating before it."""
    first_result = RatedResult(second, first_score)  # checks the score
    return (
        rate(first, [first_result], tau=tau),
        rate(second, [RatedResult(first, 1 - first_score)], tau=tau),
    )


ESTIMATE_LIMIT = 100
"""The most games ``games_to_establish`` counts (a deviation this high never comes back)."""


def games_to_establish(player: Rating) -> int:
    """About how many more games bring ``player``'s deviation to ``PROVISIONAL_DEVIATION``
    (0 once established): drawn against a peer as unsure as them, the newcomer's usual
    opponent, which is the slow case (a game against an established player teaches more). An
    estimate for people ("ranked in about N games"); the rating itself decides."""
    games = 0
    while player.provisional and games < ESTIMATE_LIMIT:
        player = rate(player, [RatedResult(player, 0.5)])
        games += 1
    return games


def idle(player: Rating, periods: int = 1) -> Rating:
    """``player``'s rating after ``periods`` periods without a game: less sure of it."""
    if isinstance(periods, bool) or not isinstance(periods, int) or periods < 0:
        raise RatingError(f"periods must be a whole number ≥ 0, got {periods!r}")
    mu, phi, sigma = _to_glicko2(player)
    phi = math.sqrt(phi * phi + periods * sigma * sigma)
    return _from_glicko2(mu, phi, sigma)


def _to_glicko2(player: Rating) -> tuple[float, float, float]:
    return (player.rating - 1500.0) / SCALE, player.deviation / SCALE, player.volatility


def _from_glicko2(mu: float, phi: float, sigma: float) -> Rating:
    deviation = min(max(phi * SCALE, MIN_DEVIATION), MAX_DEVIATION)
    return Rating(mu * SCALE + 1500.0, deviation, sigma)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, opponent_mu: float, g: float) -> float:
    return 1.0 / (1.0 + math.exp(-g * (mu - opponent_mu)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, the root of ``f`` by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    phi2, delta2 = phi * phi, delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    low = a
    if delta2 > phi2 + v:
        high = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    for _ in range(_MOST_ITERATIONS):
        if abs(high - low) <= _EPSILON:
            return math.exp(low / 2.0)
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    raise RatingError(f"the volatility did not converge (delta {delta!r}, v {v!r})")


def _finite(name: str, value: float, *, above_zero: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RatingError(f"{name} must be a finite number, got {value!r}")
    if above_zero and value <= 0:
        raise RatingError(f"{name} must be above 0, got {value!r}")
