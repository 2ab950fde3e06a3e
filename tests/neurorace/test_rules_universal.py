"""UNIVERSAL mode: start levels, cards as points, staying at a level, the end and the tie-break by age."""

from __future__ import annotations

import pytest

import mindtable
from mindtable.core.errors import IllegalAction, InvalidOptions

UNIVERSAL = {"mode": "universal"}


def test_players_start_at_the_levels_they_choose() -> None:
    match = mindtable.new_match("neurorace", players=3, seed=2, options={**UNIVERSAL, "start_levels": "1, 3,5"})
    assert [p["level"] for p in match.view(None)["players"]] == [1, 3, 5]
    assert match.options["start_levels"] == "1,3,5"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"start_levels": "1,3"}, "one value per player \\(3\\)"),
        ({"start_levels": "1,3,11"}, "11 is not between 1 and 10"),
        ({"start_levels": "1,3,6", "last_level": 5}, "6 is not between 1 and 5"),
        ({"ages": "7,x,9"}, "whole numbers separated by commas"),
        ({"stay_at_level": "3"}, "3 is not between 0 and 2"),
    ],
)
def test_bad_universal_options_say_what_is_allowed(options, message) -> None:
    with pytest.raises(InvalidOptions, match=message):
        mindtable.new_match("neurorace", players=3, options={**UNIVERSAL, **options})


def test_the_round_winner_keeps_the_card_as_a_point_and_moves_up(nr) -> None:
    match = nr.position(options=UNIVERSAL, edit=lambda s: nr.lay_solution(s, 1))
    card = match.state["players"][1]["card"]
    match.apply({"type": "stop", "seat": 1, "at": 100})
    p1 = match.state["players"][1]
    assert p1["won"] == [card] and p1["level"] == 2
    assert all(card not in pile for pile in match.state["box"])
    assert match.view(0)["players"][1]["cards_won"] == [card]


def test_a_player_may_stay_at_the_same_level_after_winning(nr) -> None:
    options = {**UNIVERSAL, "stay_at_level": "1"}
    match = nr.position(options=options, edit=lambda s: nr.lay_solution(s, 1))
    card = match.state["players"][1]["card"]
    match.apply({"type": "stop", "seat": 1, "at": 100})
    p1 = match.state["players"][1]
    assert p1["level"] == 1 and p1["card"] != card and p1["won"] == [card]


def test_completing_level_ten_ends_the_game_and_most_cards_win(nr) -> None:
    def edit(state):
        nr.give_card(state, 0, 84, 0)
        nr.lay_solution(state, 0)
        state["players"][1]["won"] = [state["box"][1].pop(), state["box"][1].pop()]

    match = nr.position(options={**UNIVERSAL, "start_levels": "10,2"}, edit=edit)
    match.apply({"type": "stop", "seat": 0, "at": 100})
    assert match.is_over
    assert match.result.winners == (1,) and match.result.scores == (1.0, 2.0)


def test_a_tie_on_cards_goes_to_the_younger_player(nr) -> None:
    def edit(state):
        nr.give_card(state, 0, 84, 0)
        nr.lay_solution(state, 0)
        state["players"][1]["won"] = [state["box"][1].pop()]

    match = nr.position(options={**UNIVERSAL, "ages": "40,9"}, edit=edit)
    match.apply({"type": "stop", "seat": 0, "at": 100})
    assert match.result.winners == (1,)
    no_ages = nr.position(options=UNIVERSAL, edit=edit)
    no_ages.apply({"type": "stop", "seat": 0, "at": 100})
    assert no_ages.result.winners == (0, 1)


def test_players_may_end_the_game_early_when_all_agree(nr) -> None:
    match = nr.position(players=3, options=UNIVERSAL, playing=False)
    match.state["players"][2]["won"] = []
    match.apply({"type": "end", "seat": 0, "at": 10})
    with pytest.raises(IllegalAction) as info:
        match.apply({"type": "end", "seat": 0, "at": 11})
    assert info.value.code == "already_voted"
    match.apply({"type": "end", "seat": 1, "at": 12})
    assert not match.is_over
    match.apply({"type": "end", "seat": 2, "at": 13})
    assert match.is_over and match.result.reason == "ended" and match.result.winners == (0, 1, 2)


def test_start_clears_end_votes_and_end_is_only_between_rounds(nr) -> None:
    match = nr.position(options=UNIVERSAL, playing=False)
    match.apply({"type": "end", "seat": 0, "at": 10})
    nr.start_round(match, at=20)
    assert not any(p["end_vote"] for p in match.state["players"])
    with pytest.raises(IllegalAction) as info:
        match.apply({"type": "end", "seat": 0, "at": 3030})
    assert info.value.code == "round_running"


def test_when_a_level_runs_out_of_cards_the_next_level_up_is_dealt(nr) -> None:
    def edit(state):
        nr.lay_solution(state, 0)
        state["players"][1]["won"].extend(state["box"][1])
        state["box"][1] = []

    match = nr.position(options={**UNIVERSAL, "stay_at_level": "0"}, edit=edit)
    match.apply({"type": "stop", "seat": 0, "at": 100})
    assert match.state["players"][0]["level"] == 1  # stays: level 1 still has cards
    fresh = nr.position(options=UNIVERSAL, edit=edit)
    fresh.apply({"type": "stop", "seat": 0, "at": 100})
    assert fresh.state["players"][0]["level"] == 3
