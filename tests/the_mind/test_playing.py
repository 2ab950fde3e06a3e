"""Playing cards: only the lowest, mistakes cost a life, lower cards are set aside and still played."""

import pytest

import mindtable
from tests.the_mind.conftest import act, all_ready, position


def test_a_player_may_only_play_their_lowest_card():
    match = position([[36, 37], [60, 61]])
    before = match.snapshot()
    with pytest.raises(mindtable.IllegalAction) as err:
        act(match, "play", 0, card=37)
    assert err.value.code == "not_lowest"
    assert "36" in err.value.message
    assert match.snapshot() == before
    events = act(match, "play", 0)
    assert events[0] == {"type": "card_played", "seat": 0, "card": 36}


def test_cards_in_ascending_order_cost_nothing():
    match = position([[12, 50], [30, 77]], lives=2)
    for seat in (0, 1, 0, 1):
        act(match, "play", seat)
    view = match.view(0)
    assert view["lives"] == 2
    assert view["level"] == 3  # level 2 completed, next level dealt


def test_book_example_36_while_someone_holds_35_costs_a_life():
    """'Si tienes el 36 y el 37, pero alguien tiene el 35, no puedes jugar el 36 hasta que ese 35 se haya jugado.'"""
    match = position([[36, 37], [35, 90]], lives=2)
    events = act(match, "play", 0)
    life_lost = next(e for e in events if e["type"] == "life_lost")
    assert life_lost["lives"] == 1
    assert life_lost["set_aside"] == {"1": [35]}
    view = match.view(0)
    assert view["set_aside"] == [[], [35]]  # face up: everyone sees it
    assert view["hand_counts"] == [1, 1]
    assert view["phase"] == "refocus"  # hands back on the table before going on


def test_set_aside_cards_stay_in_play_and_must_be_played_in_order():
    match = position([[50, 80], [10, 20, 90]], lives=3, level=3)
    act(match, "play", 0)  # 50 while 10 and 20 are held
    assert match.view(1)["set_aside"] == [[], [10, 20]]
    all_ready(match)
    # 80 while the set-aside 10 and 20 are still in play is another mistake
    events = act(match, "play", 0)
    assert next(e for e in events if e["type"] == "life_lost")["lives"] == 1
    all_ready(match)
    # seat 1's lowest card is now its set-aside 10, then 20, then its hand's 90
    assert [e["card"] for e in act(match, "play", 1) if e["type"] == "card_played"] == [10]
    assert [e["card"] for e in act(match, "play", 1) if e["type"] == "card_played"] == [20]
    events = act(match, "play", 1)
    assert events[0]["card"] == 90
    assert any(e["type"] == "level_completed" for e in events)
    assert match.view(0)["lives"] == 2  # one life left, plus level 3's reward


def test_losing_the_last_life_ends_the_game_at_once():
    match = position([[60, 70], [5, 99]], lives=1)
    events = act(match, "play", 0)
    assert [e["type"] for e in events][-1] == "game_lost"
    assert match.is_over and match.result.reason == "lost" and match.result.winners == ()
    assert match.legal_actions(1) == []
    before = match.snapshot()
    with pytest.raises(mindtable.IllegalAction) as err:
        act(match, "play", 1)
    assert err.value.code == "match_over"
    assert match.snapshot() == before


def test_stop_call_mode_a_mistake_costs_nothing_until_someone_calls_stop():
    match = position([[36, 37], [35, 90]], detection="players", lives=2)
    events = act(match, "play", 0)
    assert [e["type"] for e in events] == ["card_played"]
    assert match.view(1)["lives"] == 2
    events = act(match, "stop", 1)
    assert events[0] == {"type": "stop_called", "seat": 1, "error": True}
    assert events[1]["set_aside"] == {"1": [35]}
    assert match.view(0)["lives"] == 1
    assert match.view(0)["phase"] == "refocus"


def test_a_stop_that_finds_no_lower_card_costs_nothing_and_needs_no_refocus():
    match = position([[20, 37], [35, 90]], detection="players", lives=2)
    act(match, "play", 0)
    before = match.snapshot()["state"]
    events = act(match, "stop", 1)
    assert events == [{"type": "stop_called", "seat": 1, "error": False}]
    after = match.snapshot()["state"]
    assert after == before
    assert match.view(0)["phase"] == "playing"


def test_stop_is_not_an_action_when_the_table_detects_mistakes():
    match = position([[20, 37], [35, 90]])
    act(match, "play", 0)
    assert "stop" not in {a["type"] for a in match.legal_actions(1)}
    with pytest.raises(mindtable.IllegalAction) as err:
        act(match, "stop", 1)
    assert err.value.code == "stop_not_used"


def test_a_level_ends_when_every_card_is_played_and_the_next_is_dealt_after_a_ready_check():
    match = position([[10], [20]], level=1, lives=2)
    act(match, "play", 0)
    events = act(match, "play", 1)
    types = [e["type"] for e in events]
    assert types[:3] == ["card_played", "level_completed", "level_started"]
    view = match.view(0)
    assert (view["level"], view["phase"], len(view["hand"])) == (2, "refocus", 2)


def test_an_unstopped_mistake_is_charged_when_the_lower_card_is_played():
    # Book: "Si se juega una carta fuera de orden, el equipo pierde una vida". Nobody calls stop after 36,
    # but when 35 goes on the pile after it, everyone sees the pile out of order: the life is lost then.
    match = position([[36, 80], [35, 90]], detection="players", lives=2)
    act(match, "play", 0)  # 36 while seat 1 holds 35: nobody notices yet
    assert match.view(1)["lives"] == 2
    events = act(match, "play", 1)  # 35 on top of 36: evident
    lost = next(e for e in events if e["type"] == "life_lost")
    assert lost["cause"] == "evident" and lost["card"] == 36 and lost["seat"] == 0
    assert match.view(0)["lives"] == 1 and match.view(0)["phase"] == "refocus"
    all_ready(match)
    act(match, "play", 0)  # 80, then 90: in order, nothing more to pay
    act(match, "play", 1)
    assert match.view(0)["lives"] == 1 and match.view(0)["level"] == 3


def test_a_mistake_charged_by_a_stop_is_not_charged_again_when_the_set_aside_card_is_played():
    match = position([[36, 37], [35, 90]], detection="players", lives=3)
    act(match, "play", 0)
    act(match, "stop", 1)
    assert match.view(0)["lives"] == 2 and match.view(0)["set_aside"] == [[], [35]]
    all_ready(match)
    act(match, "play", 1)  # the set-aside 35 goes below 36 on the pile: already paid for
    assert match.view(0)["lives"] == 2 and match.view(0)["phase"] == "playing"


def test_an_unstopped_mistake_whose_lower_card_is_the_last_of_the_level_still_costs_a_life():
    match = position([[36], [35]], level=1, detection="players", lives=2)
    act(match, "play", 0)
    events = act(match, "play", 1)
    types = [e["type"] for e in events]
    assert types.index("life_lost") < types.index("level_completed")
    assert match.view(0)["lives"] == 1 and match.view(0)["level"] == 2


def test_an_unstopped_mistake_that_costs_the_last_life_ends_the_game():
    match = position([[36, 80], [35, 90]], detection="players", lives=1)
    act(match, "play", 0)
    act(match, "play", 1)
    assert match.is_over and match.result.reason == "lost"


def test_stop_in_blind_mode_says_the_pile_is_checked_at_the_end_of_the_level():
    match = position([[60, 70], [5, 99]], mode="blind", level=2, detection="players")
    act(match, "play", 0)
    with pytest.raises(mindtable.IllegalAction) as err:
        act(match, "stop", 1)
    assert err.value.code == "stop_blind"
    assert "checked when the level ends" in err.value.message
