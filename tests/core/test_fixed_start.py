"""A match's start shares the parts of the state its game declares fixed (``Game.fixed_state``) instead of
copying them: whole games leave them as they were dealt, so every record still starts where the match did."""

from __future__ import annotations

import json
from typing import Any

import pytest

import mindtable
from mindtable.core.driver import play_out

QUIZ_GAMES = [
    ("carrera-de-mente", 2, {}),
    ("carrera-de-mente", 3, {"variant_young": True}),
    ("caida-libre", 2, {"language": "en"}),
    ("caida-libre", 4, {"pack": "all"}),
    ("eesti-malumang", 2, {}),
    ("eesti-malumang", 3, {"variant": "outer_track"}),
]


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize(("game_id", "players", "options"), QUIZ_GAMES)
def test_whole_games_keep_the_fixed_parts_and_the_start_as_dealt(game_id: str, players: int, options: dict) -> None:
    match = mindtable.new_match(game_id, players=players, seed=4, options=options)
    fixed = match.game.fixed_state
    assert fixed, f"{game_id} declares fixed parts"
    dealt = _plain(match.state)  # a copy of the start, taken before anything is played
    bots = {s: match.game.make_bot("knowing", seat=s, seed=4) for s in range(players)}
    play_out(match, bots)
    assert match.is_over
    for seat in (*range(players), None):  # every page view read them too
        match.view(seat)
    for name in fixed:
        assert _plain(match.state[name]) == dealt[name], name  # never changed by a move
    record = match.record()
    assert record["start"]["state"] == dealt
    assert list(record["start"]["state"]) == list(dealt)  # the parts in their places
    again = mindtable.replay(record)
    assert again.snapshot() == match.snapshot()


def test_the_start_is_its_own_copy_of_the_fixed_parts() -> None:
    match = mindtable.new_match("caida-libre", players=2, seed=1, options={"language": "en"})
    start = match.record()["start"]["state"]
    assert start["cards"] == match.state["cards"] and start["cards"] is not match.state["cards"]
    start["cards"].clear()  # the record's copy is the caller's: the match and its next record keep every card
    assert len(match.state["cards"]) == len(match.record()["start"]["state"]["cards"]) == 120
