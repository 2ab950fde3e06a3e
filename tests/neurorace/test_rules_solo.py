"""SOLO mode: the timer as a Deadline, next level or a new card, and the Master of NeuroRace."""

from __future__ import annotations

import pytest

import mindtable
from mindtable.core.errors import IllegalAction, InvalidOptions


def test_one_player_plays_solo_with_a_20_second_timer_by_default() -> None:
    match = mindtable.new_match("neurorace", players=1, seed=3)
    assert match.options["mode"] == "solo" and match.options["solo_seconds"] == 20.0
    assert match.next_deadline() is None  # the timer runs only during a round
    match.apply({"type": "ready", "seat": 0, "at": 1000})
    assert match.next_deadline().action["type"] == "go"  # 3-2-1, then the timer starts
    match.apply({"type": "go", "at": 4000})
    deadline = match.next_deadline()
    assert deadline.at == 24_001 and deadline.action == {"type": "time_up", "seat": None}
    assert match.view(0)["time_up_at"] == 24_001


def test_the_timer_is_configurable() -> None:
    match = mindtable.new_match("neurorace", players=1, seed=3, options={"solo_seconds": 7.5})
    match.apply({"type": "ready", "seat": 0, "at": 0})
    match.apply({"type": "go", "at": 3000})
    assert match.next_deadline().at == 10_501
    with pytest.raises(InvalidOptions, match="solo_seconds"):
        mindtable.new_match("neurorace", players=1, options={"solo_seconds": 0})
    with pytest.raises(InvalidOptions, match="SOLO mode is for 1 player"):
        mindtable.new_match("neurorace", players=2, options={"mode": "solo"})


def test_done_in_time_moves_to_the_next_level_even_at_exactly_twenty_seconds(nr) -> None:
    match = nr.position(players=1, started_at=1000, edit=lambda s: nr.lay_solution(s, 0))
    match.apply({"type": "stop", "seat": 0, "at": 21_000})
    assert match.state["players"][0]["level"] == 2 and match.state["players"][0]["losses"] == 0
    assert match.next_deadline() is None


def test_time_up_gives_a_new_card_of_the_same_level_and_counts_a_loss(nr) -> None:
    match = nr.position(players=1, edit=lambda s: nr.lay_solution(s, 0, count=5))
    card = match.state["players"][0]["card"]
    with pytest.raises(IllegalAction) as info:
        match.apply(match.next_deadline().action | {"at": 20_000})
    assert info.value.code == "timer_not_due"
    before = match.snapshot()
    with pytest.raises(IllegalAction) as info:
        match.apply({"type": "take", "seat": 0, "spot": 0, "at": 20_001})
    assert info.value.code == "out_of_time" and match.snapshot() == before
    match.apply(match.next_deadline().due_action())
    player = match.state["players"][0]
    assert player["level"] == 1 and player["card"] != card and player["losses"] == 1
    assert match.view(0)["last_stop"]["reason"] == "time_up"
    assert all(entry is not None for entry in match.state["centre"])
    with pytest.raises(IllegalAction) as info:  # nobody stopped this round: the time did
        match.apply({"type": "take", "seat": 0, "spot": 0, "at": 30_000})
    assert info.value.code == "round_timed_out" and info.value.params == {"round": 1, "at": 20_001}


def test_completing_every_level_without_a_loss_makes_a_master(nr) -> None:
    def edit(state):
        nr.give_card(state, 0, 90, 1)
        nr.lay_solution(state, 0)

    match = nr.position(players=1, edit=edit)
    match.apply({"type": "stop", "seat": 0, "at": 100})
    assert match.result.reason == "master" and match.result.details["master"] is True
    assert match.result.winners == (0,)


def test_completing_every_level_after_a_loss_is_not_a_master(nr) -> None:
    def edit(state):
        nr.give_card(state, 0, 90, 1)
        nr.lay_solution(state, 0)
        state["players"][0]["losses"] = 1

    match = nr.position(players=1, edit=edit)
    match.apply({"type": "stop", "seat": 0, "at": 100})
    assert match.result.reason == "completed" and match.result.details["master"] is False


def test_a_wrong_stop_in_time_is_a_loss_too(nr) -> None:
    match = nr.position(players=1, edit=lambda s: nr.lay_wrong(s, 0))
    match.apply({"type": "stop", "seat": 0, "at": 100})
    assert match.state["players"][0]["losses"] == 1 and match.state["players"][0]["level"] == 1


def test_the_player_may_end_a_solo_session_between_rounds() -> None:
    match = mindtable.new_match("neurorace", players=1, seed=3)
    match.apply({"type": "end", "seat": 0, "at": 5})
    assert match.result.reason == "ended" and match.result.winners == ()
