"""Statistics of a batch of finished matches: win rates with confidence intervals, progress distributions.

Results are folded into a :class:`Tally` (mergeable, so that worker processes can each fold their share),
and a tally becomes a JSON-ready summary with :func:`summarize`.

>>> lo, hi = wilson_interval(50, 100)
>>> round(lo, 4), round(hi, 4)
(0.4038, 0.5962)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mindtable.core.events import Result

#: The two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0 and ``trials`` successes.
    With no trials nothing is known: ``(0.0, 1.0)``.
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} successes in {trials} trials")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _progress_key(value: Any) -> Any:
    """Progress values as counted: whole floats become ints so that 3 and 3.0 share a bar."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


@dataclass
class Tally:
    """Counts over finished matches; ``merge`` adds another tally (order does not matter)."""

    players: int
    games: int = 0
    #: Matches with at least one winner (for a cooperative game: the team won).
    won: int = 0
    seat_wins: list[int] = field(default_factory=list)
    #: Each match's win split evenly among its winners (ties share), per seat.
    seat_shares: list[float] = field(default_factory=list)
    score_sums: list[float] = field(default_factory=list)
    progress: Counter[Any] = field(default_factory=Counter)
    no_progress: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    #: The ``Result.details`` keys counted as further distributions (``Game.simulation_details``).
    detail_keys: tuple[str, ...] = ()
    details: dict[str, Counter[Any]] = field(default_factory=dict)
    #: When seats play with different bot parameters: per value, the seats that had it, their wins and shares.
    value_seats: Counter[str] = field(default_factory=Counter)
    value_wins: Counter[str] = field(default_factory=Counter)
    value_shares: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.seat_wins:
            self.seat_wins = [0] * self.players
        if not self.seat_shares:
            self.seat_shares = [0.0] * self.players
        if not self.score_sums:
            self.score_sums = [0.0] * self.players
        for key in self.detail_keys:
            self.details.setdefault(key, Counter())

    def add(self, result: Result, seat_values: Sequence[str] | None = None) -> None:
        """Count ``result``; ``seat_values`` is the varied bot parameter's value at each seat, if any."""
        self.games += 1
        for value in seat_values or ():
            self.value_seats[value] += 1
        if result.winners:
            self.won += 1
            share = 1.0 / len(result.winners)
            for seat in result.winners:
                self.seat_wins[seat] += 1
                self.seat_shares[seat] += share
                if seat_values:
                    self.value_wins[seat_values[seat]] += 1
                    value = seat_values[seat]
                    self.value_shares[value] = self.value_shares.get(value, 0.0) + share
        for key in self.detail_keys:
            _count_detail(self.details[key], result.details.get(key) if result.details else None)
        for seat, score in enumerate(result.scores[: self.players]):
            self.score_sums[seat] += float(score)
        progress = result.details.get("progress") if result.details else None
        if progress is None:
            self.no_progress += 1
        else:
            self.progress[_progress_key(progress)] += 1
        self.reasons[result.reason] += 1

    def add_all(self, results: Iterable[Result]) -> Tally:
        for result in results:
            self.add(result)
        return self

    def merge(self, other: Tally) -> Tally:
        if other.players != self.players:
            raise ValueError(f"cannot merge a tally of {other.players} players into one of {self.players}")
        self.games += other.games
        self.won += other.won
        self.seat_wins = [a + b for a, b in zip(self.seat_wins, other.seat_wins, strict=True)]
        self.seat_shares = [a + b for a, b in zip(self.seat_shares, other.seat_shares, strict=True)]
        self.score_sums = [a + b for a, b in zip(self.score_sums, other.score_sums, strict=True)]
        self.progress.update(other.progress)
        self.no_progress += other.no_progress
        self.reasons.update(other.reasons)
        for key, counts in other.details.items():
            self.details.setdefault(key, Counter()).update(counts)
        self.value_seats.update(other.value_seats)
        self.value_wins.update(other.value_wins)
        for value, share in other.value_shares.items():
            self.value_shares[value] = self.value_shares.get(value, 0.0) + share
        return self


def _count_detail(counts: Counter[Any], value: Any) -> None:
    """Add one game's detail: a number counts once; a histogram (list by whole value, or a mapping) adds up."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, (int, float)):
        counts[_progress_key(round(value, 3) if isinstance(value, float) else value)] += 1
    elif isinstance(value, list):
        for whole, count in enumerate(value):
            if count:
                counts[whole] += count
    elif isinstance(value, Mapping):
        for key, count in value.items():
            try:
                counts[_progress_key(float(key)) if isinstance(key, str) else _progress_key(key)] += count
            except ValueError:
                counts[key] += count


def _rate(successes: int, trials: int) -> dict[str, Any]:
    low, high = wilson_interval(successes, trials)
    return {
        "wins": successes,
        "games": trials,
        "rate": successes / trials if trials else None,
        "ci95": [low, high],
    }


def median_of_counts(counts: Mapping[Any, int]) -> float | None:
    """The median of a distribution given as value -> count (the mean of the two middle values if even)."""
    total = sum(counts.values())
    if total == 0:
        return None
    ordered = sorted(counts.items())

    def nth(index: int) -> Any:
        seen = 0
        for value, count in ordered:
            seen += count
            if index < seen:
                return value
        raise AssertionError("index beyond the distribution")

    if total % 2:
        return float(nth(total // 2))
    return (nth(total // 2 - 1) + nth(total // 2)) / 2


def describe_counts(counts: Counter[Any]) -> dict[str, Any]:
    """A distribution (value -> count) as JSON: each value's count and share, and for numbers mean, median,
    smallest and largest."""
    numeric = all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in counts)
    counted = sum(counts.values())
    out: dict[str, Any] = {
        "distribution": [
            {"value": value, "count": count, "share": count / counted}
            for value, count in (sorted(counts.items()) if numeric else counts.most_common())
        ],
        "mean": None,
        "median": None,
        "min": None,
        "max": None,
    }
    if numeric and counted:
        out["mean"] = sum(value * count for value, count in counts.items()) / counted
        out["median"] = median_of_counts(counts)
        out["min"] = min(counts)
        out["max"] = max(counts)
    return out


def summarize(
    tally: Tally,
    *,
    cooperative: bool,
    progress_label: str = "progress",
    detail_labels: Mapping[str, str] | None = None,
    varied: tuple[str, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """A JSON-ready summary of ``tally``.

    ``win_rate`` is the team's win rate for a cooperative game and the rate of matches with any winner
    otherwise; ``seats`` gives each seat's win rate and win share (ties split) for competitive games.
    ``details`` has the further distributions (``detail_labels``: key -> label); with ``varied`` (a bot
    parameter and its values, in order) ``wins_by_value`` gives, per value, the seats that had it, their wins
    (rate and 95% interval), their win share and ``relative``: that share over an average seat's (1.0 = as
    often as an average seat).
    """
    games = tally.games
    progress: dict[str, Any] = {
        "label": progress_label,
        "games": sum(tally.progress.values()),
        "missing": tally.no_progress,
        **describe_counts(tally.progress),
    }
    summary: dict[str, Any] = {
        "games": games,
        "cooperative": cooperative,
        "win_rate": _rate(tally.won, games),
        "progress": progress,
        "reasons": dict(sorted(tally.reasons.items())),
        "mean_scores": [total / games if games else None for total in tally.score_sums],
    }
    if not cooperative:
        summary["seats"] = [
            {"seat": seat, **_rate(wins, games), "share": tally.seat_shares[seat] / games if games else None}
            for seat, wins in enumerate(tally.seat_wins)
        ]
    if detail_labels:
        summary["details"] = {
            key: {
                "label": label,
                "count": sum(tally.details.get(key, Counter()).values()),
                **describe_counts(tally.details.get(key, Counter())),
            }
            for key, label in detail_labels.items()
        }
    if varied is not None:
        name, values = varied
        rows = []
        for value in values:
            seats, wins = tally.value_seats[value], tally.value_wins[value]
            low, high = wilson_interval(wins, seats)
            share = tally.value_shares.get(value, 0.0) / seats if seats else None
            rows.append(
                {
                    "value": value,
                    "seats": seats,
                    "wins": wins,
                    "rate": wins / seats if seats else None,
                    "ci95": [low, high],
                    "share": share,
                    "relative": share * tally.players if share is not None else None,
                }
            )
        summary["wins_by_value"] = {"param": name, "values": rows}
    return summary
