"""Helpers for the NeuroRace tests: build positions (snapshots) and lay tiles the way a player would."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

import mindtable
from mindtable.core.match import Match
from mindtable.games.neurorace.components import TILES
from mindtable.games.neurorace.deck import CARDS
from mindtable.games.neurorace.solver import solve
from mindtable.games.neurorace.tasks import parse_task


def position(
    players: int = 2,
    options: dict[str, Any] | None = None,
    seed: int = 1,
    playing: bool = True,
    started_at: int = 0,
    edit: Any = None,
) -> Match:
    """A match from a snapshot: by default round 1 has started at ``started_at`` ms."""
    snapshot = mindtable.new_match("neurorace", players=players, seed=seed, options=options).snapshot()
    state = snapshot["state"]
    if playing:
        state["phase"] = "playing"
        state["round"] = 1
        state["round_started_at"] = started_at
        snapshot["clock"] = started_at
    if edit is not None:
        edit(state)
    return Match.from_snapshot(snapshot)


def give_card(state: dict[str, Any], seat: int, card: int, side: int = 0) -> None:
    """Put ``card`` (from the box) in front of ``seat``; the seat's old card goes back to the box."""
    player = state["players"][seat]
    old = player["card"]
    for pile in state["box"]:
        if card in pile:
            pile.remove(card)
    if old is not None and old != card:
        state["box"][CARDS[old].level - 1].append(old)
    player["card"], player["side"], player["level"] = card, side, CARDS[card].level


def spot_of(state: dict[str, Any], tile: int) -> int:
    return next(spot for spot, entry in enumerate(state["centre"]) if entry is not None and entry[0] == tile)


def lay(state: dict[str, Any], seat: int, layout: list[tuple[int, int]]) -> None:
    """Move tiles ``(tile, side up)`` from the centre onto ``seat``'s card, left to right."""
    player = state["players"][seat]
    start = sum(1 for entry in player["slots"] if entry is not None)
    for index, (tile, up) in enumerate(layout):
        spot = spot_of(state, tile)
        state["centre"][spot] = None
        player["slots"][start + index] = {"tile": tile, "up": up, "spot": spot}


def solution(state: dict[str, Any], seat: int) -> list[tuple[int, int]]:
    """A layout of the seat's task made of tiles still in the centre."""
    player = state["players"][seat]
    free = [entry[0] for entry in state["centre"] if entry is not None]
    layout = solve(CARDS[player["card"]].tasks[player["side"]], [TILES[t] for t in free])
    assert layout is not None
    return [(free[item], side) for item, side in layout]


def lay_solution(state: dict[str, Any], seat: int, count: int = 7) -> None:
    lay(state, seat, solution(state, seat)[:count])


def lay_wrong(state: dict[str, Any], seat: int) -> None:
    """Seven tiles that break the task's first place (and maybe more)."""
    player = state["players"][seat]
    task = CARDS[player["card"]].tasks[player["side"]]
    free = [entry[0] for entry in state["centre"] if entry is not None]
    first = next(t for t in free if not task.places[0].matches(TILES[t][0]))
    others = [t for t in free if t != first][:6]
    lay(state, seat, [(first, 0)] + [(t, 0) for t in others])


def act(match: Match, **action: Any) -> list[Any]:
    return match.apply(action)


def start_round(match: Match, at: int = 0) -> int:
    """Every seat marks ready at ``at``; the countdown's own move starts the round. Returns the start time."""
    for seat in range(match.players):
        if not match.view(seat)["ready"][seat]:
            match.apply({"type": "ready", "seat": seat, "at": at})
    deadline = match.next_deadline()
    assert deadline is not None and deadline.action["type"] == "go"
    match.apply(deadline.due_action())
    return deadline.at


@pytest.fixture
def nr() -> SimpleNamespace:
    return SimpleNamespace(
        position=position,
        give_card=give_card,
        spot_of=spot_of,
        lay=lay,
        lay_solution=lay_solution,
        lay_wrong=lay_wrong,
        solution=solution,
        act=act,
        start_round=start_round,
        CARDS=CARDS,
        parse_task=parse_task,
    )
