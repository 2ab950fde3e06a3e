"""What each seat sees: the up side of the centre tiles and every card; never a down side it may not see."""

from __future__ import annotations

import json

import mindtable
from mindtable.core.events import events_for
from mindtable.games.neurorace.components import TILES


def test_centre_tiles_show_only_their_up_side_and_no_tile_identity(nr) -> None:
    match = nr.position()
    view = match.view(0)
    assert len(view["centre"]) == 60
    for entry in view["centre"]:
        tile, up = match.state["centre"][entry["spot"]]
        assert set(entry) == {"spot", "up"}
        side = TILES[tile][up]
        assert entry["up"] == {"symbol": side[0], "colour": side[1], "number": side[2]}
    assert '"tile"' not in json.dumps(view)
    assert "down side" in view["hidden"]


def test_the_holder_sees_both_sides_of_the_tile_in_hand_others_only_the_up_side(nr) -> None:
    match = nr.position(players=3)
    tile, up = match.state["centre"][7]
    events = match.apply({"type": "take", "seat": 1, "spot": 7, "at": 10})
    down = TILES[tile][1 - up]
    assert match.view(1)["players"][1]["hand"]["down"]["number"] == down[2]
    assert "down" not in match.view(0)["players"][1]["hand"]
    assert "down" not in match.view(None)["players"][1]["hand"]
    assert match.view(0)["players"][1]["hand"]["from_spot"] == 7
    assert [e["type"] for e in events_for(events, 1)] == ["took", "holding"]
    assert [e["type"] for e in events_for(events, 0)] == ["took"]
    assert [e["type"] for e in events_for(events, None)] == ["took"]


def test_every_card_and_every_laid_tile_is_visible_to_everyone_during_a_round(nr) -> None:
    match = nr.position(edit=lambda s: nr.lay_solution(s, 1, count=3))
    spectator = match.view(None)
    for seat, player in enumerate(spectator["players"]):
        assert player["task"] is not None and player["card"] == match.state["players"][seat]["card"]
    assert [s is not None for s in spectator["players"][1]["slots"]] == [True] * 3 + [False] * 4


def test_before_start_the_tasks_and_cards_are_face_down() -> None:
    match = mindtable.new_match("neurorace", players=2, seed=5)
    for seat in (0, 1, None):
        for player in match.view(seat)["players"]:
            assert player["task"] is None and player["card"] is None and player["level"] == 1


def test_views_are_json_ready(nr) -> None:
    match = nr.position(edit=lambda s: nr.lay_solution(s, 0))
    match.apply({"type": "stop", "seat": 0, "at": 5})
    for seat in (0, 1, None):
        assert json.loads(json.dumps(match.view(seat))) == match.view(seat)
