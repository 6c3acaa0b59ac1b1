"""A token bucket per connection: ``rate`` messages per second, bursts of ``burst``.

Pure: the caller passes the time (a monotonic clock reading) in, so it is testable without
sleeping and without a clock.
"""

from __future__ import annotations

__all__ = ["TokenBucket"]


class TokenBucket:
    __slots__ = ("_stamp", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError(f"a token bucket needs rate > 0 and burst >= 1, got {rate}, {burst}")
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._stamp = now

    def take(self, now: float) -> bool:
        """Spend one token if there is one (refilling for the time since the last call)."""
        elapsed = max(0.0, now - self._stamp)
        self._stamp = max(self._stamp, now)
        self._tokens = min(float(self.burst), self._tokens + elapsed * self.rate)
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    @property
    def tokens(self) -> float:
        return self._tokens

    @property
    def full(self) -> bool:
        """Whether it had its whole burst before the last ``take`` (an idle client's)."""
        return self._tokens >= self.burst - 1
