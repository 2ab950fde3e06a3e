"""Positions for Carrera de Mente scenarios: built as snapshots, played through the public API."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import mindtable
from mindtable.core.match import Match
from mindtable.games.carrera_de_mente import rules
from mindtable.trivia.model import question_from_dict

GAME_ID = "carrera-de-mente"


def position(
    players: int = 3,
    *,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    turn: int = 0,
    pegs: list[int] | None = None,
    prizes: Mapping[int, list[str]] | None = None,
    arrive: bool = False,
    edit: Callable[[dict[str, Any]], None] | None = None,
) -> Match:
    """A match of ``players`` with ``turn`` to play, pegs on ``pegs``, ``prizes`` held; with ``arrive`` the peg
    of ``turn`` has just stopped on its square (the topic or the number comes next)."""
    start = mindtable.new_match(GAME_ID, players=players, seed=seed, options=dict(options or {}))
    snap = start.snapshot()
    state = snap["state"]
    state["turn"]["seat"] = turn
    if pegs is not None:
        state["pegs"] = list(pegs)
    for seat, colours in (prizes or {}).items():
        for colour in colours:
            rules.take(state["tokens"], seat, colour)
    if arrive:
        rules.FLOW.advance(state, rules._arrive(state, turn))
    if edit is not None:
        edit(state)
    return Match.from_snapshot(snap)


def roll_number(match: Match, digits: tuple[int, ...] | None = None) -> list[mindtable.Event]:
    """Roll the three number dice (their values come from the match's generator)."""
    seat = match.to_act()[0]
    events: list[mindtable.Event] = []
    while match.state["phase"] == rules.NUMBER:
        events += match.apply({"type": "roll_number", "seat": seat})
    return events


def asked(match: Match) -> Any:
    """The question being asked (read from the state, as the asker's booklet shows it)."""
    ask = match.state["ask"]
    return question_from_dict(ask["card"]["questions"][ask["index"]])


def answer(match: Match, text: str, *, confirm: bool = True) -> list[mindtable.Event]:
    ask = match.state["ask"]
    events = match.apply({"type": "ask_answer", "seat": ask["answerers"][0], "text": text})
    if confirm:
        events += match.apply({"type": "ask_confirm", "seat": ask["reader"]})
    return events


def answer_right(match: Match) -> list[mindtable.Event]:
    return answer(match, asked(match).required_answer)


def answer_wrong(match: Match) -> list[mindtable.Event]:
    return answer(match, "zzzz qqqq")


def kinds(events: list[mindtable.Event]) -> list[str]:
    return [e.type for e in events]


def of_kind(events: list[mindtable.Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == kind]


def seen_by(match: Match, events: list[mindtable.Event], seat: int | None) -> str:
    return json.dumps(match.view(seat)) + json.dumps(mindtable.events_for(events, seat))


def question(
    qid: str,
    answer: str,
    *,
    options: list[str] | None = None,
    correct: int | None = None,
    number: int = 111,
    slot: int = 1,
    **extra: Any,
) -> dict[str, Any]:
    """A booklet question as the state holds it."""
    q: dict[str, Any] = {
        "id": qid,
        "kind": "text",
        "prompt": f"Question {qid}?",
        "answer": answer,
        "category": "",
        "extra": {"number": number, "slot": slot},
        **extra,
    }
    if options is not None:
        q["options"] = options
        q["correct"] = correct
    return q


def only(*questions: dict[str, Any], topics: tuple[str, ...] = rules.TOPICS) -> Callable[[dict[str, Any]], None]:
    """An edit: every booklet in ``topics`` holds only ``questions`` (grouped by number)."""

    def edit(state: dict[str, Any]) -> None:
        for topic in topics:
            numbers: dict[int, list[dict[str, Any]]] = {}
            for q in questions:
                numbers.setdefault(q["extra"]["number"], []).append({**q, "id": f"{topic}-{q['id']}"})
            state["booklets"][topic] = rules.pack_booklet([[n, numbers[n]] for n in sorted(numbers)])

    return edit


def both(*edits: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def edit(state: dict[str, Any]) -> None:
        for e in edits:
            e(state)

    return edit
