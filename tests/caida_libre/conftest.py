"""Build Caída Libre positions from snapshots, as the scenario tests describe them.

Until the game is registered through its entry point, the tests register it here.
"""

from __future__ import annotations

import functools
import json
import marshal
from typing import Any

import mindtable
from mindtable.core.match import Match
from mindtable.core.registry import available_game_ids
from mindtable.games.caida_libre import GAME
from mindtable.games.caida_libre.scale import weapon_at
from mindtable.trivia.model import OPTION_LETTERS, question_from_dict

if GAME.id not in available_game_ids():
    mindtable.register_game(GAME)


def position(
    players: int = 3,
    *,
    iq: list[int] | None = None,
    asker: int = 0,
    card: str | None = None,
    language: str = "en",
    seed: int = 5,
    clock: int = 1000,
    **options: Any,
) -> Match:
    """A match where ``asker`` is about to draw ``card`` (its id) for the player on their left, the pawns at ``iq``.

    The turn starts afresh from the position, so a weapon square under the answerer arms its weapon.
    """
    snapshot = marshal.loads(_start(players, seed, json.dumps({"language": language, "pack": "all", **options})))
    state: dict[str, Any] = snapshot["state"]
    if iq is not None:
        state["iq"] = list(iq)
        state["history"] = [list(iq)]
    state["turn"]["seat"] = asker
    state["now"] = clock
    if card is not None:
        state["deck"]["draw"].remove(card)
        state["deck"]["draw"].insert(0, card)
    answerer = (asker + 1) % players
    kind = weapon_at(state["scale"], state["iq"][answerer]) if state["options"]["weapons"] else None
    state["weapon"] = {"kind": kind, "seat": answerer, "target": None} if kind else None
    state["phase"] = "weapon" if kind in ("sniper", "hook") else "draw"
    snapshot["clock"] = clock
    return Match.from_snapshot(snapshot)


@functools.lru_cache(maxsize=64)
def _start(players: int, seed: int, options: str) -> bytes:
    """A new match's snapshot, made once for its players, seed and options (JSON text) and kept as marshal bytes:
    each position is a fresh copy of it (the deal of every card of a pack, once, not once a position)."""
    return marshal.dumps(
        mindtable.new_match("caida-libre", players=players, seed=seed, options=json.loads(options)).snapshot()
    )


def act(match: Match, kind: str, seat: int, **params: Any) -> list[dict[str, Any]]:
    """Apply an action 100 ms after the last one; return every event (as dicts)."""
    events = match.apply({"type": kind, "seat": seat, "at": match.clock + 100, **params})
    return [e.to_dict() for e in events]


def current(match: Match) -> dict[str, Any]:
    """The question being asked now (from the state: tests may look)."""
    ask = match.state["ask"]
    return ask["card"]["questions"][ask["index"]]


def right(q: dict[str, Any]) -> str:
    question = question_from_dict(q)
    if question.kind == "truefalse":
        return "true" if question.truth else "false"
    if question.kind in ("choice", "higher"):
        assert question.correct is not None
        return OPTION_LETTERS[question.correct]
    if question.kind == "list":
        return ", ".join(item.split(" / ")[0] for item in question.items[: question.count or 5])
    return question.required_answer


def wrong(q: dict[str, Any]) -> str:
    question = question_from_dict(q)
    if question.kind == "truefalse":
        return "false" if question.truth else "true"
    if question.kind in ("choice", "higher"):
        assert question.correct is not None
        return OPTION_LETTERS[(question.correct + 1) % len(question.options)]
    return "xylophone quartet"


def answer(match: Match, correct: bool) -> list[dict[str, Any]]:
    """The answerer answers the current question right or wrong; the asker confirms the judge."""
    ask = match.state["ask"]
    q = current(match)
    act(match, "ask_answer", ask["answerers"][0], text=right(q) if correct else wrong(q))
    return act(match, "ask_confirm", ask["reader"])


def play_card(match: Match, answers: list[bool], choose: int | None = None) -> list[dict[str, Any]]:
    """Draw the card on top and answer its questions as ``answers`` says (as far as the card goes); on a double
    question card the answerer takes ``choose`` (the first topic unless told)."""
    events = act(match, "draw", match.state["turn"]["seat"])
    if choose is None and match.state["ask"] and match.state["ask"]["card"]["type"] == "double":
        choose = 0
    if choose is not None:
        events += act(match, "ask_choose", match.state["ask"]["answerers"][0], question=choose)
    for ok in answers:
        if match.state["ask"] is None:
            break
        events += answer(match, ok)
    return events
