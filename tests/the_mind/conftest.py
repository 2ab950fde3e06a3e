"""Build The Mind positions from snapshots, as the scenario tests describe them."""

from __future__ import annotations

from typing import Any

import pytest

import mindtable
from mindtable.core.match import Match


def position(
    hands: list[list[int]],
    *,
    level: int | None = None,
    lives: int | None = None,
    stars: int = 1,
    phase: str = "playing",
    set_aside: list[list[int]] | None = None,
    pile: list[tuple[int, int]] | None = None,
    discards: list[list[int]] | None = None,
    detection: str = "table",
    mode: str = "normal",
    last_level: int | None = None,
    blind_after_win: bool = False,
    clock: int = 1000,
    levels_completed: int | None = None,
    seed: int = 5,
) -> Match:
    """A match in the given position; ``pile`` lists (seat, card) in the order played."""
    players = len(hands)
    level = level if level is not None else max(len(h) for h in hands) or 1
    base = mindtable.new_match(
        "the-mind", players=players, seed=seed, options={"detection": detection, "blind_after_win": blind_after_win}
    )
    snapshot = base.snapshot()
    state: dict[str, Any] = snapshot["state"]
    state.update(
        {
            "mode": mode,
            "level": level,
            "lives": lives if lives is not None else players,
            "stars": stars,
            "phase": phase,
            "hands": [sorted(h) for h in hands],
            "set_aside": set_aside or [[] for _ in hands],
            "discards": discards or [[] for _ in hands],
            "pile": [{"seat": s, "card": c} for s, c in (pile or [])],
            "ready": [phase == "playing"] * players,
            "levels_completed": level - 1 if levels_completed is None else levels_completed,
        }
    )
    if last_level is not None:
        state["last_level"] = last_level
        snapshot["options"]["last_level"] = last_level
    snapshot["clock"] = clock
    return Match.from_snapshot(snapshot)


def act(match: Match, kind: str, seat: int, at: int | None = None, **params: Any) -> list[dict[str, Any]]:
    """Apply an action at ``at`` (default: 100 ms after the last one) and return its public events."""
    when = match.clock + 100 if at is None else at
    events = match.apply({"type": kind, "seat": seat, "at": when, **params})
    return [e.to_dict() for e in events]


def all_ready(match: Match) -> None:
    for seat in range(match.players):
        if not match.state["ready"][seat]:
            act(match, "ready", seat)


@pytest.fixture
def build():
    return position
