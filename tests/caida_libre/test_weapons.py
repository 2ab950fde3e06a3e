"""The five weapons: they apply at the start of your turn, when you stand on one as you must answer."""

from __future__ import annotations

import pytest

from mindtable.core.codes import seat_params
from mindtable.core.errors import IllegalAction
from tests.caida_libre.conftest import act, play_card, position

# The built-in scale: Sniper 120, Hook 100, Dynamite 80, Jetpack 60, Armageddon 30.


def test_the_scale_has_the_five_weapon_squares() -> None:
    match = position()
    weapons = {s["iq"]: s["weapon"] for s in match.view(0)["scale"]["squares"] if s["weapon"]}
    assert weapons == {120: "sniper", 100: "hook", 80: "dynamite", 60: "jetpack", 30: "armageddon"}


def test_sniper_the_answerer_chooses_a_victim_before_the_card() -> None:
    match = position(iq=[150, 120, 140], card="roulette-001")
    assert match.view(0)["phase"] == "weapon" and match.to_act() == [1]
    with pytest.raises(IllegalAction) as refused:
        act(match, "draw", 0)
    assert refused.value.code == "cl_target_first" and refused.value.params == {"seat": 1, "weapon": "sniper"}
    assert sorted(a["target"] for a in match.legal_actions(1)) == [0, 2]
    with pytest.raises(IllegalAction) as refused:
        act(match, "target", 1, target=1)
    assert refused.value.code == "cl_bad_target" and refused.value.params["allowed"] == [0, 2]
    assert seat_params("cl_bad_target", refused.value.params, match.game.seat_params) == ["target", "allowed"]
    assert refused.value.message.endswith("choose one of 0, 2")
    with pytest.raises(IllegalAction) as refused:
        act(match, "target", 0, target=2)
    assert refused.value.code == "cl_not_weapon_holder"
    act(match, "target", 1, target=0)
    play_card(match, [True])
    assert match.state["iq"] == [120, 130, 140]  # +10 for the sniper, -30 for the victim


def test_sniper_wrong_only_the_sniper_loses_the_card_penalty() -> None:
    match = position(iq=[150, 120, 140], card="roulette-001")
    act(match, "target", 1, target=0)
    play_card(match, [False])
    assert match.state["iq"] == [150, 80, 140]


def test_hook_correct_both_recover_ten() -> None:
    match = position(iq=[150, 100, 60], card="roulette-001")
    act(match, "target", 1, target=2)
    play_card(match, [True])
    assert match.state["iq"] == [150, 110, 70]


def test_hook_wrong_only_the_answerer_loses() -> None:
    match = position(iq=[150, 100, 60], card="roulette-001")
    act(match, "target", 1, target=2)
    play_card(match, [False])
    assert match.state["iq"] == [150, 60, 60]


def test_dynamite_correct_plus_ten_wrong_twenty_more_than_the_card() -> None:
    match = position(iq=[150, 80, 150], card="roulette-001")
    assert match.view(0)["weapon"]["kind"] == "dynamite" and match.view(0)["phase"] == "draw"
    play_card(match, [True])
    assert match.state["iq"][1] == 90
    match = position(iq=[150, 80, 150], card="roulette-001")
    play_card(match, [False])
    assert match.state["iq"][1] == 20  # 40 + 20


def test_jetpack_correct_plus_thirty_wrong_the_card_penalty() -> None:
    match = position(iq=[150, 60, 150], card="roulette-001")
    play_card(match, [True])
    assert match.state["iq"][1] == 90
    match = position(iq=[150, 60, 150], card="more_or_less-001")
    play_card(match, [True, False])
    assert match.state["iq"][1] == 40


def test_armageddon_correct_plus_ten_and_minus_twenty_for_every_other_player() -> None:
    match = position(4, iq=[150, 30, 100, 50], card="roulette-001")
    play_card(match, [True])
    assert match.state["iq"] == [130, 40, 80, 30]


def test_armageddon_wrong_only_the_answerer_loses() -> None:
    match = position(4, iq=[150, 30, 100, 50], card="fake_news-001")
    play_card(match, [False, True])
    assert match.state["iq"] == [150, 10, 100, 50]


def test_a_partly_wrong_card_is_a_wrong_answer_for_the_weapon() -> None:
    match = position(iq=[150, 80, 150], card="quote5-001")
    act(match, "draw", 0)
    act(match, "ask_answer", 1, text="Mercury, Venus, Mars, Jupiter")
    act(match, "ask_confirm", 0)
    assert match.state["iq"][1] == 50  # one missing (-10) and the dynamite (-20)


def test_landing_on_a_weapon_after_answering_does_nothing_then() -> None:
    match = position(iq=[150, 150, 150], card="shootout-001")
    play_card(match, [False])  # seat 1 falls from 150 to 120, the Sniper square
    assert match.state["iq"][1] == 120
    assert match.view(0)["weapon"] is None, "seat 2 answers next; seat 1's weapon waits"
    assert match.view(0)["phase"] == "draw" and match.view(0)["asker"] == 1


def test_the_weapon_applies_at_the_start_of_the_next_turn_you_answer() -> None:
    match = position(2, iq=[150, 150], card="shootout-001")
    play_card(match, [False])  # seat 1 lands on the Sniper (120); seat 1 now asks seat 0
    assert match.view(0)["weapon"] is None
    play_card(match, [True, True, True, True, True])  # seat 0 answers the next card
    assert match.view(0)["phase"] == "weapon" and match.view(0)["weapon"] == {
        "kind": "sniper",
        "seat": 1,
        "target": None,
    }


def test_the_weapons_can_be_left_out() -> None:
    match = position(iq=[150, 120, 140], card="roulette-001", weapons=False)
    assert match.view(0)["weapon"] is None and match.view(0)["phase"] == "draw"
    play_card(match, [True])
    assert match.state["iq"] == [150, 120, 140]
