"""Seeded bot games of the quiz games, fingerprinted step by step: making bot games faster must not change them.

Each game is played by the game's knowing bots through ``play_out``; after every step its fingerprint takes in
the action as recorded, every event, and the view of every seat and of a spectator as a page receives it
(``Match.view``; its long parts every few steps). The fingerprints were taken from the code before the views
for bots were made cheaper (``tests/sim/data/seeded_bot_games.json``); the same seeds must give the same games,
step for step.

A change to a game's rules or content changes its games on purpose: then take the fingerprints again with
``PYTHONPATH=. python tests/sim/test_seeded_bot_games.py`` and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import mindtable
from mindtable.core.driver import play_out
from mindtable.core.events import Event
from mindtable.core.match import Match

DATA = Path(__file__).parent / "data" / "seeded_bot_games.json"

#: (game, players, options, bot parameters, seeds): the usual games, the variants, and bots that take their time
#: against an answer clock (deadlines, bots asked out of turn).
CASES: list[tuple[str, int, dict[str, Any], dict[str, Any], range]] = [
    ("carrera-de-mente", 2, {}, {}, range(6)),
    ("carrera-de-mente", 4, {}, {}, range(4)),
    ("carrera-de-mente", 3, {"language": "es", "variant_young": True, "board": "small"}, {}, range(3)),
    ("carrera-de-mente", 3, {"variant_experts": True, "variant_short": True, "team_members": 2}, {}, range(3)),
    ("carrera-de-mente", 2, {"answer_seconds": 15, "board": "small"}, {"think_ms": 5_000}, range(3)),
    ("caida-libre", 2, {}, {}, range(6)),
    ("caida-libre", 4, {"language": "en"}, {}, range(4)),
    ("caida-libre", 8, {"pack": "all"}, {}, range(3)),
    ("caida-libre", 3, {"answer_seconds": 30}, {"think_ms": 10_000}, range(3)),
    ("eesti-malumang", 2, {}, {}, range(4)),
    ("eesti-malumang", 4, {"variant": "outer_track"}, {}, range(3)),
    ("eesti-malumang", 3, {"variant": "cards_only", "game_minutes": 10}, {}, range(3)),
    ("eesti-malumang", 2, {"language": "en", "answer_seconds": 30}, {"think_ms": 10_000}, range(3)),
    ("stepping-stones", 2, {}, {}, range(4)),
]


#: The long parts of a view that change seldom (the board, the last questions decided), fingerprinted every
#: ``WHOLE_EVERY`` steps and at the end; the rest of every view at every step.
LONG = frozenset(("board", "quiz_history"))
WHOLE_EVERY = 8


def _key(game_id: str, players: int, options: dict[str, Any], params: dict[str, Any], seed: int) -> str:
    return json.dumps([game_id, players, options, params, seed], sort_keys=True)


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def fingerprint(
    game_id: str, players: int, options: dict[str, Any], params: dict[str, Any], seed: int
) -> dict[str, Any]:
    """The game's start and its steps as two digests, with its length and result."""
    match = mindtable.new_match(game_id, players=players, seed=seed, options=options)
    start = hashlib.sha256(_dump(match.snapshot()))
    steps = hashlib.sha256()
    seats: list[int | None] = [*range(players), None]
    for seat in seats:
        steps.update(_dump(match.view(seat)))
    count = 0

    def step(action: dict[str, Any], events: list[Event]) -> None:
        nonlocal count
        count += 1
        steps.update(_dump(match.last_action))
        steps.update(_dump([e.to_dict() for e in events]))
        whole = count % WHOLE_EVERY == 0 or match.is_over
        for seat in seats:
            view = match.view(seat)
            steps.update(_dump(view if whole else {k: v for k, v in view.items() if k not in LONG}))

    bots = {s: match.game.make_bot("knowing", seat=s, seed=seed, **params) for s in range(players)}
    result = play_out(match, bots, on_events=step)
    return {
        "start": start.hexdigest()[:16],
        "steps": steps.hexdigest()[:16],
        "actions": count,
        "result": json.loads(_dump(result.to_dict())),
    }


def _all() -> list[tuple[str, int, dict[str, Any], dict[str, Any], int]]:
    return [(g, p, o, b, seed) for g, p, o, b, seeds in CASES for seed in seeds]


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted({case[0] for case in CASES}))
def test_seeded_bot_games_are_the_same_step_by_step(game_id: str) -> None:
    if game_id not in mindtable.available_game_ids():
        pytest.skip(f"{game_id} is not installed")
    saved = json.loads(DATA.read_text(encoding="utf-8"))
    changed = []
    for case in _all():
        if case[0] != game_id:
            continue
        key = _key(*case)
        now, then = fingerprint(*case), saved[key]
        if now != then:
            what = "its start (dealt content)" if now["start"] != then["start"] else "its play"
            changed.append(f"{key}: {what} differs: {then} -> {now}")
    assert not changed, "seeded bot games changed (see this file's docstring):\n" + "\n".join(changed)


def _same_views(match: Match, step: int) -> None:
    seats = list(range(match.players))
    views = match.bot_views(seats)
    for seat in seats:
        page = match.view(seat)
        lazy = views[seat]
        first = list(page)[step % len(page)]  # a different part read first at each step
        assert lazy[first] == page[first]
        assert lazy.get("ask") == page["ask"] and lazy.get("no such part") is None
        assert dict(lazy) == page and lazy == page and list(lazy) == list(page)
        assert repr(lazy) == repr(page)


@pytest.mark.parametrize("game_id", sorted({case[0] for case in CASES}))
def test_the_views_bots_get_are_the_views_pages_get_step_by_step(game_id: str) -> None:
    """``Match.bot_views`` (built as a bot reads them) equals ``Match.view`` at every step, key order and text
    included, for every seat, whichever part is read first."""
    if game_id not in mindtable.available_game_ids():
        pytest.skip(f"{game_id} is not installed")
    for _, players, options, params, seeds in [case for case in CASES if case[0] == game_id][:2]:
        match = mindtable.new_match(game_id, players=players, seed=seeds[0], options=options)
        steps = [0]
        _same_views(match, 0)

        def compare(_: dict[str, Any], events: list[Event], match: Match = match, steps: list[int] = steps) -> None:
            steps[0] += 1
            _same_views(match, steps[0])

        bots = {s: match.game.make_bot("knowing", seat=s, seed=seeds[0], **params) for s in range(players)}
        play_out(match, bots, on_events=compare)
        assert steps[0] > 10


if __name__ == "__main__":
    games = {_key(*case): fingerprint(*case) for case in _all() if case[0] in mindtable.available_game_ids()}
    DATA.parent.mkdir(exist_ok=True)
    lines = [f"{json.dumps(key)}: {json.dumps(games[key], sort_keys=True, ensure_ascii=False)}" for key in games]
    DATA.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"{len(games)} games fingerprinted into {DATA}", file=sys.stderr)
