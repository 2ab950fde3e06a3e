"""The end: a pawn reaches Free Fall; the highest IQ wins; IQ never leaves the board."""

from __future__ import annotations

import random

import pytest

import mindtable
from mindtable.core.bots import fill_inputs
from mindtable.core.errors import IllegalAction
from tests.caida_libre.conftest import act, play_card, position


def test_reaching_zero_ends_the_game_chao_pescao() -> None:
    match = position(3, iq=[150, 40, 90], card="roulette-001")
    events = play_card(match, [False])
    assert match.is_over and match.state["iq"] == [150, 0, 90]
    fall = next(e for e in events if e["type"] == "free_fall")
    assert fall["seats"] == [1]
    result = match.result
    assert result is not None and result.winners == (0,) and result.reason == "free_fall"
    assert result.scores == (150.0, 0.0, 90.0)
    with pytest.raises(IllegalAction) as refused:
        act(match, "draw", 1)
    assert refused.value.code == "match_over"


def test_iq_stops_at_zero_below_free_fall() -> None:
    match = position(3, iq=[150, 20, 90], card="roulette-001")
    play_card(match, [False])
    assert match.state["iq"][1] == 0
    assert match.state["last"]["moves"] == [{"seat": 1, "before": 20, "after": 0, "delta": -20, "why": "penalty"}]


def test_iq_stops_at_the_top_above_prodigious_mind() -> None:
    match = position(3, iq=[150, 100, 150], card="roulette-001")  # the Hook lifts a partner already at the top
    act(match, "target", 1, target=2)
    play_card(match, [True])
    assert match.state["iq"] == [150, 110, 150]


def test_a_tie_for_the_highest_iq_shares_the_win() -> None:
    match = position(3, iq=[130, 30, 130], card="roulette-001")
    play_card(match, [False])  # seat 1 on armageddon answers wrong: 30 - 40 -> 0
    result = match.result
    assert result is not None and result.winners == (0, 2)


def test_several_pawns_reaching_zero_at_once_through_armageddon() -> None:
    match = position(4, iq=[20, 30, 10, 90], card="roulette-001")
    events = play_card(match, [True])
    assert match.state["iq"] == [0, 40, 0, 70]
    assert next(e for e in events if e["type"] == "free_fall")["seats"] == [0, 2]
    result = match.result
    assert result is not None and result.winners == (3,) and result.details["fallen"] == [0, 2]


def test_the_sniper_can_push_its_victim_into_free_fall() -> None:
    match = position(3, iq=[30, 120, 150], card="roulette-001")
    act(match, "target", 1, target=0)
    play_card(match, [True])
    result = match.result
    assert result is not None and match.state["iq"] == [0, 130, 150] and result.winners == (2,)


@pytest.mark.parametrize("seed", range(6))
def test_iq_never_leaves_the_board_in_random_play(seed: int) -> None:
    chooser = random.Random(seed)
    players = 2 + seed
    match = mindtable.new_match("caida-libre", players=players, seed=seed, options={"language": "en"})
    now = 0
    for _ in range(3000):
        if match.is_over:
            break
        now += chooser.randint(0, 3000)
        deadline = match.next_deadline()
        if deadline is not None and deadline.at <= now:
            match.apply(deadline.due_action())
        else:
            seat = match.to_act()[0]
            legal = match.legal_actions(seat)
            action = fill_inputs(chooser.choice(legal), chooser) if legal else None
            if action is None:
                continue
            match.apply({**action, "at": max(now, match.clock)})
        iq = match.state["iq"]
        assert all(0 <= v <= 150 and v % 10 == 0 for v in iq), iq
    assert match.is_over
