"""BASIC mode, rule by rule: each test builds a position from a snapshot, acts, and checks."""

from __future__ import annotations

import pytest

import mindtable
from mindtable.core.errors import IllegalAction, InvalidOptions
from mindtable.games.neurorace.components import TILES
from mindtable.games.neurorace.rules import state_problems


def refused(match, code: str, **action) -> IllegalAction:
    before = match.snapshot()
    with pytest.raises(IllegalAction) as info:
        match.apply(action)
    assert info.value.code == code, info.value
    assert match.snapshot() == before
    return info.value


def test_everyone_starts_at_level_one_with_the_card_face_down_until_start() -> None:
    match = mindtable.new_match("neurorace", players=3, seed=4)
    assert [p["level"] for p in match.view(0)["players"]] == [1, 1, 1]
    assert all(p["task"] is None for p in match.view(0)["players"])
    refused(match, "not_started", type="take", seat=0, spot=0, at=0)
    for seat in range(3):
        match.apply({"type": "ready", "seat": seat, "at": 500})
    match.apply({"type": "go", "at": 3500})
    view = match.view(1)
    assert view["phase"] == "playing" and all(p["task"] for p in view["players"])
    assert view["round_started_at"] == 3500


def test_a_round_starts_only_when_every_seat_is_ready_then_after_a_countdown() -> None:
    # The book: "When everyone is ready, the leader announces START." Nobody starts it for the others.
    match = mindtable.new_match("neurorace", players=3, seed=4)
    view = match.view(None)
    assert view["phase"] == "ready" and view["ready"] == [False, False, False]
    assert view["countdown_ends_at"] is None and match.to_act() == [0, 1, 2]
    assert {a["type"] for a in match.legal_actions(0)} == {"ready"}  # no START for the others
    error = refused(match, "start_by_ready", type="start", seat=0, at=100)
    assert "every seat is ready" in str(error)
    match.apply({"type": "ready", "seat": 0, "at": 100})
    refused(match, "already_ready", type="ready", seat=0, at=150)
    match.apply({"type": "ready", "seat": 2, "at": 400})
    assert match.view(1)["ready"] == [True, False, True] and match.to_act() == [1]
    assert match.next_deadline() is None  # seat 1 is not ready: nothing starts
    events = match.apply({"type": "ready", "seat": 1, "at": 900})
    assert [e.type for e in events] == ["ready", "countdown"]
    assert events[1].data == {"at": 900, "ends_at": 3900, "seconds": 3.0}
    view = match.view(0)
    assert view["phase"] == "countdown" and view["countdown_ends_at"] == 3900
    assert all(p["task"] is None for p in view["players"])  # cards still face down
    assert match.to_act() == [] and match.legal_actions(0) == []
    error = refused(match, "countdown_running", type="take", seat=0, spot=0, at=2000)
    assert "3900" in str(error)
    refused(match, "countdown_not_due", type="go", at=3899)
    deadline = match.next_deadline()
    assert deadline.at == 3900 and deadline.action == {"type": "go", "seat": None}
    events = match.apply(deadline.due_action())
    assert events[0].type == "round_started" and events[0].data["at"] == 3900
    view = match.view(0)
    assert view["phase"] == "playing" and view["round_started_at"] == 3900
    assert view["ready"] == [False, False, False] and view["countdown_ends_at"] is None
    refused(match, "system_action", type="go", seat=0, at=4000)


def test_after_a_check_every_seat_marks_ready_again(nr) -> None:
    match = nr.position(edit=lambda s: nr.lay_solution(s, 0))
    match.apply({"type": "stop", "seat": 0, "at": 100})
    view = match.view(0)
    assert view["phase"] == "ready" and view["ready"] == [False, False]
    match.apply({"type": "ready", "seat": 1, "at": 200})
    assert match.view(0)["phase"] == "ready"
    assert nr.start_round(match, at=300) == 3300


def test_the_countdown_length_is_an_option_and_zero_starts_at_once() -> None:
    match = mindtable.new_match("neurorace", players=2, seed=4, options={"countdown_seconds": 0})
    match.apply({"type": "ready", "seat": 0, "at": 10})
    events = match.apply({"type": "ready", "seat": 1, "at": 20})
    assert [e.type for e in events] == ["ready", "round_started"]
    assert match.view(0)["phase"] == "playing" and match.view(0)["round_started_at"] == 20
    with pytest.raises(InvalidOptions, match="countdown_seconds"):
        mindtable.new_match("neurorace", players=2, options={"countdown_seconds": 11})


def test_matches_set_up_under_the_older_rule_keep_any_seat_saying_start() -> None:
    # A revision-2 room (its pinned start has no start_rule): it goes on as it began, and replays.
    snapshot = mindtable.new_match("neurorace", players=2, seed=4).snapshot()
    for key in ("start_rule", "ready", "countdown_ms", "countdown_ends_at"):
        del snapshot["state"][key]
    match = mindtable.Match.from_snapshot(snapshot)
    assert match.view(0)["start_rule"] == "anyone"
    assert {a["type"] for a in match.legal_actions(1)} == {"start"}
    refused(match, "start_by_anyone", type="ready", seat=0, at=10)
    match.apply({"type": "start", "seat": 1, "at": 20})
    assert match.view(0)["phase"] == "playing" and match.view(0)["round_started_at"] == 20
    assert mindtable.replay(match.record()).snapshot() == match.snapshot()


def test_one_hand_take_a_tile_then_place_or_return_it_before_the_next(nr) -> None:
    match = nr.position()
    nr.act(match, type="take", seat=0, spot=3, at=10)
    error = refused(match, "hand_full", type="take", seat=0, spot=4, at=20)
    assert "place it or return it" in str(error)
    assert {a["type"] for a in match.legal_actions(0)} == {"turn", "place", "return"}
    nr.act(match, type="return", seat=0, at=30)
    assert match.state["centre"][3] is not None and match.state["players"][0]["hand"] is None
    nr.act(match, type="take", seat=0, spot=4, at=40)


def test_a_tile_in_hand_and_a_tile_in_the_centre_can_be_turned_over(nr) -> None:
    match = nr.position()
    tile, up = match.state["centre"][5]
    nr.act(match, type="turn", seat=1, spot=5, at=5)
    assert match.state["centre"][5] == [tile, 1 - up]
    nr.act(match, type="take", seat=0, spot=5, at=6)
    nr.act(match, type="turn", seat=0, at=7)
    nr.act(match, type="place", seat=0, slot=0, at=8)
    assert match.view(1)["players"][0]["slots"][0]["number"] == TILES[tile][up][2]
    refused(match, "turn_needs_spot", type="turn", seat=0, at=9)


def test_places_fill_from_left_to_right(nr) -> None:
    match = nr.position()
    nr.act(match, type="take", seat=0, spot=0, at=1)
    error = refused(match, "slot_too_early", type="place", seat=0, slot=2, at=2)
    assert "place 0 to its left is still empty" in str(error)
    nr.act(match, type="place", seat=0, slot=0, at=3)
    nr.act(match, type="take", seat=0, spot=1, at=4)
    refused(match, "slot_taken", type="place", seat=0, slot=0, at=5)
    nr.act(match, type="place", seat=0, at=6)  # no slot: the next free place
    assert [s is not None for s in match.state["players"][0]["slots"]] == [True, True] + [False] * 5


def test_only_the_rightmost_tile_can_be_taken_back_and_then_it_is_in_hand(nr) -> None:
    match = nr.position(edit=lambda s: nr.lay_solution(s, 0, count=3))
    third = match.state["players"][0]["slots"][2]
    nr.act(match, type="take_back", seat=0, at=5)
    assert match.state["players"][0]["hand"]["tile"] == third["tile"]
    nr.act(match, type="return", seat=0, at=6)
    assert match.state["centre"][third["spot"]][0] == third["tile"]
    fresh = nr.position()
    refused(fresh, "nothing_to_take_back", type="take_back", seat=0, at=1)


def test_contested_tile_goes_to_the_earlier_timestamp_and_the_other_gets_a_clear_refusal(nr) -> None:
    match = nr.position()
    nr.act(match, type="take", seat=1, spot=9, at=1200)
    error = refused(match, "tile_taken", type="take", seat=0, spot=9, at=1200)
    assert "taken by seat 1 at 1200 ms" in str(error)
    with pytest.raises(IllegalAction) as info:
        match.apply({"type": "take", "seat": 0, "spot": 9, "at": 1100})
    assert info.value.code == "time_went_backwards"
    nr.act(match, type="place", seat=1, at=1300)
    assert "lies on seat 1's card" in str(refused(match, "tile_on_card", type="turn", seat=0, spot=9, at=1400))


def test_stop_game_only_with_all_seven_places_filled(nr) -> None:
    match = nr.position(edit=lambda s: nr.lay_solution(s, 0, count=6))
    assert "stop" not in {a["type"] for a in match.legal_actions(0)}
    refused(match, "not_finished", type="stop", seat=0, at=10)


def test_a_correct_stop_advances_the_player_and_returns_the_card_to_the_box(nr) -> None:
    def edit(state):
        nr.lay_solution(state, 0)
        nr.lay_solution(state, 1, count=2)

    match = nr.position(edit=edit)
    card0, card1 = match.state["players"][0]["card"], match.state["players"][1]["card"]
    centre_before = list(match.state["centre"])
    events = match.apply({"type": "stop", "seat": 0, "at": 9000})
    checked = next(e for e in events if e.type == "checked")
    assert checked.data["correct"] and checked.data["seat"] == 0 and checked.to is None
    p0, p1 = match.state["players"]
    assert p0["level"] == 2 and p0["completed"] == 1 and p0["card"] != card0
    assert card0 in match.state["box"][0]  # back in the box
    assert p1["card"] == card1 and p1["level"] == 1  # the other keeps their task
    # All tiles back to the centre, shuffled; a new round waits for START.
    assert all(entry is not None for entry in match.state["centre"])
    assert match.state["centre"] != centre_before
    assert p1["slots"] == [None] * 7 and match.state["phase"] == "ready"
    assert state_problems(match.state, 2) == []
    stopped = refused(match, "round_stopped", type="take", seat=1, spot=0, at=9001)
    assert stopped.params == {"round": 1, "by": 0, "at": 9000}  # a seat number: the page shows the name


def test_a_wrong_stop_gives_a_new_card_of_the_same_level_and_the_others_keep_theirs(nr) -> None:
    match = nr.position(edit=lambda s: nr.lay_wrong(s, 1))
    card0, card1 = match.state["players"][0]["card"], match.state["players"][1]["card"]
    events = match.apply({"type": "stop", "seat": 1, "at": 4000})
    checked = next(e for e in events if e.type == "checked")
    assert not checked.data["correct"] and checked.data["problems"][0]["place"] == 0
    p0, p1 = match.state["players"]
    assert p1["level"] == 1 and p1["card"] != card1 and p1["losses"] == 1
    assert p0["card"] == card0
    assert card1 in match.state["box"][0]
    assert all(entry is not None for entry in match.state["centre"])
    assert match.view(0)["last_stop"]["correct"] is False


def test_a_new_card_skips_cards_already_solved_on_their_reverse_side(nr) -> None:
    def edit(state):
        nr.lay_solution(state, 0)
        pile = state["box"][1]
        state["solved"] = [[pile[0], 1], [pile[1], 0]]

    match = nr.position(edit=edit)
    top = match.state["box"][1][:3]
    match.apply({"type": "stop", "seat": 0, "at": 100})
    assert match.state["players"][0]["card"] == top[2]
    assert top[0] in match.state["box"][1] and top[1] in match.state["box"][1]


def test_when_every_card_of_a_level_has_a_solved_side_the_unsolved_side_is_played(nr) -> None:
    def edit(state):
        nr.lay_solution(state, 0)
        state["solved"] = [[card, 0] for card in state["box"][1]]

    match = nr.position(edit=edit)
    match.apply({"type": "stop", "seat": 0, "at": 100})
    assert match.state["players"][0]["side"] == 1


def test_first_to_complete_level_ten_wins(nr) -> None:
    def edit(state):
        nr.give_card(state, 1, 85, 1)
        nr.lay_solution(state, 1)

    match = nr.position(edit=edit)
    match.apply({"type": "stop", "seat": 1, "at": 100})
    assert match.is_over and match.result.winners == (1,) and match.result.reason == "completed"
    assert match.legal_actions(0) == []


def test_a_shorter_game_for_children_ends_at_the_chosen_level(nr) -> None:
    def edit(state):
        nr.give_card(state, 0, 40, 0)  # a level-5 card
        nr.lay_solution(state, 0)

    match = nr.position(options={"last_level": 5}, edit=edit)
    match.apply({"type": "stop", "seat": 0, "at": 100})
    assert match.result.winners == (0,)


def test_each_round_reshuffles_tiles_and_sides() -> None:
    match = mindtable.new_match("neurorace", players=2, seed=9)
    first = list(match.state["centre"])
    for seat in range(2):
        match.apply({"type": "ready", "seat": seat, "at": 0})
    match.apply({"type": "go", "at": 3000})
    match.apply({"type": "take", "seat": 0, "spot": 0, "at": 3001})
    # Nobody can finish quickly here, so finish by a position: lay 7 tiles and stop.
    snapshot = match.snapshot()
    state = snapshot["state"]
    state["players"][0]["hand"] = None
    state["centre"][0] = first[0]
    for slot in range(7):
        spot = 10 + slot
        tile, up = state["centre"][spot]
        state["centre"][spot] = None
        state["players"][0]["slots"][slot] = {"tile": tile, "up": up, "spot": spot}
    again = mindtable.Match.from_snapshot(snapshot)
    again.apply({"type": "stop", "seat": 0, "at": 3050})
    second = again.state["centre"]
    assert sorted(t for t, _ in second) == list(range(60))
    assert [t for t, _ in second] != [t for t, _ in first]
    assert [u for _, u in second] != [u for _, u in first]


def test_basic_has_no_early_end_and_needs_two_players() -> None:
    match = mindtable.new_match("neurorace", players=2, seed=1)
    refused(match, "not_in_mode", type="end", seat=0, at=0)
    with pytest.raises(InvalidOptions, match="BASIC mode needs 2 to 6 players"):
        mindtable.new_match("neurorace", players=1, options={"mode": "basic"})
    with pytest.raises(InvalidOptions, match="belongs to UNIVERSAL"):
        mindtable.new_match("neurorace", players=2, options={"ages": "7,9"})


def test_malformed_and_foreign_actions_are_refused_with_specific_codes(nr) -> None:
    match = nr.position()
    refused(match, "unknown_action", type="grab", seat=0, at=1)
    refused(match, "bad_spot", type="take", seat=0, spot=60, at=1)
    refused(match, "bad_spot", type="take", seat=0, spot=True, at=1)
    nr.act(match, type="take", seat=0, spot=1, at=1)
    refused(match, "bad_slot", type="place", seat=0, slot=7, at=2)
    refused(match, "seat_required", type="take", seat=None, spot=2, at=2)
    refused(match, "system_action", type="time_up", seat=0, at=2)
    refused(match, "no_timer", type="time_up", seat=None, at=2)
    refused(match, "round_running", type="start", seat=1, at=2)
    refused(match, "round_running", type="ready", seat=1, at=2)
    refused(match, "no_countdown", type="go", at=2)


def test_a_snapshot_that_breaks_an_invariant_is_refused(nr) -> None:
    snapshot = nr.position().snapshot()
    snapshot["state"]["centre"][0] = list(snapshot["state"]["centre"][1])
    with pytest.raises(mindtable.InvalidSnapshot, match=r"tile \d+ is both in centre spot 0 and in centre spot 1"):
        mindtable.Match.from_snapshot(snapshot)


def test_max_rounds_ends_the_game_for_simulations(nr) -> None:
    match = nr.position(options={"max_rounds": 1}, edit=lambda s: nr.lay_wrong(s, 0))
    match.apply({"type": "stop", "seat": 0, "at": 10})
    assert match.result.reason == "round_limit" and match.result.winners == (0, 1)
