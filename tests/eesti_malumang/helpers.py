"""Eesti mälumäng positions from snapshots, as the scenario tests describe them."""

from __future__ import annotations

from typing import Any

import mindtable
from mindtable.core.match import Match
from mindtable.core.rng import Rng
from mindtable.trivia.quiz import current_question

GAME_ID = "eesti-malumang"
CATS = ("history", "culture", "science", "geography", "sport", "varia")
ALL = dict.fromkeys(CATS, 1)


def position(
    players: int = 2,
    *,
    pawns: list[str] | None = None,
    held: list[dict[str, int]] | None = None,
    turn: int = 0,
    phase: str | None = None,
    die: int | None = None,
    seed: int = 3,
    **options: Any,
) -> Match:
    """A match in play: pieces on ``pawns``, Estonia cards ``held``, seat ``turn`` to act in ``phase`` (by
    default what the rules give that seat at the start of its turn); ``die`` fixes the next roll."""
    base = mindtable.new_match(GAME_ID, players=players, seed=seed, options=options)
    snapshot = base.snapshot()
    state = snapshot["state"]
    variant = state["variant"]
    if variant != "cards_only":
        state["pawns"] = list(pawns or ["nw"] * players)
        state["placing"] = None
        state["turn"] = {"seat": turn, "players": players, "direction": 1, "extra": 0, "out": [], "number": 1}
    else:
        state["turn"]["seat"] = turn
    state["held"] = [dict(h) for h in (held or [{} for _ in range(players)])]
    for colour in CATS:
        state["supply"][colour] = state["options"]["cards_per_colour"] - sum(h.get(colour, 0) for h in state["held"])
    match = Match.from_snapshot(snapshot)
    from mindtable.games.eesti_malumang.rules import _begin_turn, turn_phase

    _begin_turn(match.state)
    match.state["phase"] = turn_phase(match.state) if phase is None else phase
    snapshot = match.snapshot()
    if die is not None:
        snapshot["rng"] = rng_for_die(snapshot["rng"], die)
    return Match.from_snapshot(snapshot)


def rng_for_die(rng: dict[str, Any], value: int) -> dict[str, Any]:
    """The generator moved on to a point where its next roll is ``value``."""
    for draws in range(rng["draws"], rng["draws"] + 500):
        candidate = {**rng, "draws": draws}
        if Rng.from_dict(candidate).roll() == value:
            return candidate
    raise AssertionError(f"no roll of {value} found")


def act(match: Match, kind: str, seat: int, **params: Any) -> list[dict[str, Any]]:
    return [e.to_dict() for e in match.apply({"type": kind, "seat": seat, **params})]


def right_answer(match: Match) -> str:
    q = current_question(match.state["ask"])
    return q.required_answer or q.answer


def answer(match: Match, right: bool) -> list[dict[str, Any]]:
    """The answering player answers (right or wrong) and the reader confirms the judge."""
    ask = match.state["ask"]
    seat, reader = ask["answerers"][0], ask["reader"]
    text = right_answer(match) if right else "qwertyuiop"
    events = act(match, "ask_answer", seat, text=text)
    assert match.state["ask"]["suggestion"]["correct"] is right, match.state["ask"]["suggestion"]
    return events + act(match, "ask_confirm", reader)


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]
