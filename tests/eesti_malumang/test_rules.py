"""Scenario tests for every rule of Eesti mälumäng (rulebook 004), from snapshots.

Board facts used here (mindtable/games/eesti_malumang/board.yaml): the outer track runs clockwise nw, o1 … o7,
ne, o8 … o14, se, o15 … o21, sw, o22 … o28; o1 is History, o2 Culture, o3 Natural science, o4 Geography,
o5 Sport, o6 Varia, then again; the finish path from nw is nw1 (History), nw2 (Sport), then the finish square.
"""

from __future__ import annotations

import json

import pytest

import mindtable
from mindtable.core.errors import IllegalAction
from mindtable.core.match import Match
from mindtable.core.turns import roll_off
from mindtable.games.eesti_malumang.rules import content_cards
from mindtable.trivia.quiz import current_question
from tests.eesti_malumang.helpers import ALL, CATS, act, answer, position, right_answer, types


def new(players: int = 2, seed: int = 1, **options):
    return mindtable.new_match("eesti-malumang", players=players, seed=seed, options=options)


# --- setup ----------------------------------------------------------------------------------------------------


def test_each_player_chooses_an_estonia_space_and_several_may_share_one() -> None:
    match = new(3)
    assert match.to_act() == [0]
    assert sorted(a["square"] for a in match.legal_actions(0)) == ["ne", "nw", "se", "sw"]
    with pytest.raises(IllegalAction) as err:
        act(match, "place", 0, square="o3")
    assert err.value.code == "em_not_estonia"
    assert sorted(err.value.params["allowed"]) == ["ne", "nw", "se", "sw"]  # square ids as a list for pages
    act(match, "place", 0, square="se")
    act(match, "place", 1, square="se")  # "More than one player may start from the same space."
    with pytest.raises(IllegalAction) as err:
        act(match, "place", 0, square="nw")
    assert err.value.code == "em_wait"
    events = act(match, "place", 2, square="nw")
    assert match.state["pawns"] == ["se", "se", "nw"]
    assert "first_player" in types(events)


def test_the_highest_roll_starts_and_ties_roll_again() -> None:
    tied = None
    for seed in range(60):
        match = new(4, seed=seed)
        for seat in range(4):
            events = act(match, "place", seat, square="nw")
        first = next(e for e in events if e["type"] == "first_player")
        rounds = first["rolls"]
        last = rounds[-1]
        assert last[str(first["seat"])] == max(last.values())
        assert list(last.values()).count(max(last.values())) == 1
        assert match.state["turn"]["seat"] == first["seat"] and match.to_act() == [first["seat"]]
        if len(rounds) > 1:
            tied = rounds
            best = max(rounds[0].values())
            # only the tied highest roll again
            assert set(rounds[1]) == {s for s, v in rounds[0].items() if v == best}
    assert tied is not None, "no seed in 0-59 had a tie"
    assert roll_off  # the core's roll-off is what the game uses


def test_play_goes_clockwise_to_the_left() -> None:
    match = position(3, turn=1, die=3)
    act(match, "roll", 1)
    act(match, "move", 1, to="o3")
    answer(match, False)
    assert match.state["turn"]["seat"] == 2 and match.to_act() == [2]


def test_four_shuffled_piles_drawn_in_turn_and_36_estonia_cards() -> None:
    match = new(2)
    piles = match.state["piles"]
    # "Shuffle the question cards and place them in four piles": every card of the box, in four piles as even
    # as the count allows
    box = content_cards("et")
    assert len(piles) == 4 and sorted(c for p in piles for c in p) == sorted(box)
    assert max(map(len, piles)) - min(map(len, piles)) <= 1
    assert sorted(piles[0]) != piles[0]  # shuffled
    assert match.state["supply"] == dict.fromkeys(CATS, 6)
    match = position(2, die=3)
    top = [p[0] for p in match.state["piles"]]
    act(match, "roll", 0)
    act(match, "move", 0, to="o3")
    assert match.state["ask"]["card"]["id"] == top[0]
    answer(match, False)
    act(match, "roll", 1)
    for _ in range(2):
        if match.state["phase"] == "move":
            act(match, "move", 1, to=match.legal_actions(1)[0]["to"])
        if match.state["phase"] == "category":
            act(match, "category", 1, category="sport")
    assert match.state["ask"]["card"]["id"] == top[1]


# --- a turn -----------------------------------------------------------------------------------------------------


def test_roll_and_move_either_way_the_listed_squares_are_what_each_direction_reaches() -> None:
    match = position(2, die=3)
    events = act(match, "roll", 0)
    assert match.state["phase"] == "move"
    listed = {a["to"] for a in match.legal_actions(0)}
    assert listed == {"o3", "o26"}
    rolled = next(e for e in events if e["type"] == "rolled")
    assert {(lnd["direction"], lnd["square"]) for lnd in rolled["landings"]} == {
        ("clockwise", "o3"),
        ("anticlockwise", "o26"),
    }
    labels = mindtable.get_game("eesti-malumang").moves.labels(match.state, 0)
    assert labels["move"]["to"]["o3"].startswith("clockwise")
    with pytest.raises(IllegalAction) as err:
        act(match, "move", 0, to="o4")
    assert err.value.code == "em_not_reachable" and err.value.params["die"] == 3
    assert err.value.params["allowed"] == ["o3", "o26"]  # a list of square ids, not a sentence
    assert "o3, o26" in str(err.value)  # the English message joins them
    act(match, "move", 0, to="o26")
    assert match.state["pawns"][0] == "o26"
    # "The circle you stop on shows the category": o26 is Culture.
    assert match.state["asking"]["category"] == "culture"


def test_moving_before_rolling_is_refused() -> None:
    match = position(2)
    with pytest.raises(IllegalAction) as err:
        act(match, "move", 0, to="o3")
    assert err.value.code == "em_roll_first"


def test_the_player_to_the_left_reads_and_only_the_reader_sees_the_answer() -> None:
    match = position(3, turn=2, die=2)
    events = match.apply({"type": "roll", "seat": 2})
    events += match.apply({"type": "move", "seat": 2, "to": "o2"})
    ask = match.state["ask"]
    assert ask["reader"] == 0 and ask["answerers"] == [2]  # seat 0 is on seat 2's left
    # the answer as the reader's card carries it, whichever card the seed draws
    secret = json.dumps(current_question(ask).display_answer)
    assert secret in json.dumps(match.view(0))
    for seat in (1, 2, None):
        assert secret not in json.dumps(match.view(seat))
        assert secret not in json.dumps(mindtable.events_for(events, seat))
    assert match.view(2)["ask"]["question"]["category"] == "culture"


def test_on_an_estonia_space_the_player_chooses_the_category() -> None:
    match = position(2, pawns=["o5", "nw"], die=3)  # o5 + 3 = ne
    act(match, "roll", 0)
    act(match, "move", 0, to="ne")
    assert match.state["phase"] == "category" and match.to_act() == [0]
    assert sorted(a["category"] for a in match.legal_actions(0)) == sorted(CATS)
    with pytest.raises(IllegalAction) as err:
        act(match, "category", 0, category="music")
    assert err.value.code == "em_not_category" and err.value.params["allowed"] == list(CATS)  # ids: pages label them
    assert match.game.label_params["em_not_category"] == {"category": "em.category", "allowed": "em.category"}
    act(match, "category", 0, category="varia")
    assert match.state["ask"]["card"]["questions"][match.state["ask"]["index"]]["category"] == "varia"


def test_a_wrong_answer_passes_the_turn_and_takes_no_card() -> None:
    match = position(2, die=3)
    act(match, "roll", 0)
    act(match, "move", 0, to="o3")
    events = answer(match, False)
    assert match.state["held"][0] == {} and match.state["turn"]["seat"] == 1
    assert "estonia_card" not in types(events)


def test_a_right_answer_takes_the_estonia_card_of_that_colour_and_the_turn_passes() -> None:
    match = position(2, die=3)
    act(match, "roll", 0)
    act(match, "move", 0, to="o3")
    events = answer(match, True)
    assert match.state["held"][0] == {"science": 1}
    assert match.state["supply"]["science"] == 5
    assert "estonia_card" in types(events) and match.state["turn"]["seat"] == 1


def test_a_right_answer_on_a_colour_already_held_rolls_again() -> None:
    match = position(2, held=[{"science": 1}, {}], die=3)
    act(match, "roll", 0)
    act(match, "move", 0, to="o3")
    events = answer(match, True)
    assert "roll_again" in types(events)
    assert match.state["held"][0] == {"science": 1}  # one card per colour
    assert match.state["turn"]["seat"] == 0 and match.state["phase"] == "roll"


def test_the_reader_overrules_the_judge() -> None:
    match = position(2, die=3)
    act(match, "roll", 0)
    act(match, "move", 0, to="o3")
    act(match, "ask_answer", 0, text="something close enough for us")
    assert match.state["ask"]["suggestion"]["correct"] is False
    with pytest.raises(IllegalAction) as err:
        act(match, "ask_overrule", 0)
    assert err.value.code == "ask_not_reader"
    events = act(match, "ask_overrule", 1)
    decided = next(e for e in events if e["type"] == "ask_decided")
    assert decided["correct"] is True and decided["overruled"] is True
    assert match.state["held"][0] == {"science": 1}


def test_the_last_question_names_the_answering_player_and_who_decided_it() -> None:
    match = position(3, turn=1, die=3)
    act(match, "roll", 1)
    act(match, "move", 1, to="o3")
    answer(match, True)  # seat 1 answers, seat 2 (on its left) reads and confirms
    last = match.view(0)["last"]
    assert (last["seat"], last["decided_by"], last["by"], last["correct"]) == (1, 2, "reader", True)
    assert last["category"] == "science" and last["answer"]
    act(match, "roll", 2)
    act(match, "move", 2, to=match.legal_actions(2)[0]["to"])
    if match.state["phase"] == "category":
        act(match, "category", 2, category="history")
    act(match, "ask_pass", 2)  # a pass is decided by the answering player
    last = match.view(1)["last"]
    assert (last["seat"], last["decided_by"], last["by"], last["correct"]) == (2, 2, "pass", False)


def test_a_state_saved_without_decided_by_gets_the_decider_back_from_the_rules() -> None:
    """A snapshot from before ``decided_by`` (its ``last.seat`` is the answerer): the view names the reader."""
    match = position(3, turn=1, die=3)
    act(match, "roll", 1)
    act(match, "move", 1, to="o3")
    answer(match, False)
    snapshot = match.snapshot()
    del snapshot["state"]["last"]["decided_by"]
    old = Match.from_snapshot(snapshot)
    assert old.view(None)["last"]["decided_by"] == 2 and old.view(None)["last"]["seat"] == 1
    snapshot["state"]["last"].update(by="timeout", seat=1)
    assert Match.from_snapshot(snapshot).view(None)["last"]["decided_by"] is None


# --- the finish -------------------------------------------------------------------------------------------------


def test_with_all_six_cards_a_roll_stops_at_an_estonia_space_without_an_exact_count() -> None:
    match = position(2, pawns=["o6", "nw"], held=[ALL, {}], die=5)  # o6 + 2 = ne; 5 would be o11
    act(match, "roll", 0)
    assert {a["to"] for a in match.legal_actions(0)} == {"ne", "o1"}  # anticlockwise: o6 - 5 = o1
    events = act(match, "move", 0, to="ne")
    assert "reached_estonia" in types(events) and match.state["ask"] is None
    assert match.state["turn"]["seat"] == 1  # "on your next turn" the path begins


def test_the_finish_path_needs_no_die_and_a_right_answer_moves_on() -> None:
    match = position(2, pawns=["nw", "o3"], held=[ALL, {}])
    assert match.state["phase"] == "path"
    assert [a["type"] for a in match.legal_actions(0)] == ["path"]
    with pytest.raises(IllegalAction):
        act(match, "roll", 0)
    act(match, "path", 0)
    assert match.state["pawns"][0] == "nw1" and match.state["asking"]["category"] == "history"
    answer(match, True)
    assert match.state["pawns"][0] == "nw2" and match.state["turn"]["seat"] == 1
    match.state["turn"]["seat"] = 0
    match.state["phase"] = "path"
    act(match, "path", 0)
    assert match.state["asking"]["category"] == "sport"
    answer(match, True)
    assert match.state["pawns"][0] == "goal"


def test_a_wrong_answer_on_the_path_stays_and_retries_the_same_category() -> None:
    match = position(2, pawns=["nw2", "o3"], held=[ALL, {}])
    act(match, "path", 0)
    assert match.state["asking"]["category"] == "sport"
    events = answer(match, False)
    assert "stays" in types(events) and match.state["pawns"][0] == "nw2"
    assert match.state["turn"]["seat"] == 1
    # seat 1 plays a turn, then seat 0 gets the same category again
    match2 = position(2, pawns=["nw2", "o3"], held=[ALL, {}])
    act(match2, "path", 0)
    assert match2.state["asking"]["category"] == "sport"


def test_on_the_finish_square_the_left_player_chooses_the_category_first_and_right_wins() -> None:
    match = position(3, pawns=["goal", "o3", "o5"], held=[ALL, {}, {}], turn=0)
    assert match.state["phase"] == "final_category" and match.to_act() == [1]
    assert match.view(1)["ask"] is None  # no question is seen before the category is chosen
    with pytest.raises(IllegalAction) as err:
        act(match, "final_category", 0, category="sport")
    assert err.value.code == "em_left_chooses" and err.value.params["seat"] == 1
    act(match, "final_category", 1, category="geography")
    assert match.state["asking"]["category"] == "geography" and match.state["ask"]["reader"] == 1
    answer(match, True)
    assert match.is_over and match.result.winners == (0,) and match.result.reason == "finish"


def test_a_wrong_final_answer_waits_and_the_left_player_chooses_again() -> None:
    match = position(2, pawns=["goal", "o3"], held=[ALL, {}])
    act(match, "final_category", 1, category="culture")
    answer(match, False)
    assert not match.is_over and match.state["pawns"][0] == "goal"
    assert match.state["turn"]["seat"] == 1


# --- exactness --------------------------------------------------------------------------------------------------


def asked_with(predicate, category="culture", **options):
    """A match (seed searched) where seat 0 is asked, on an Estonia space, a question that fits."""
    for seed in range(1, 200):
        match = position(2, pawns=["o5", "nw"], die=3, seed=seed, **options)
        act(match, "roll", 0)
        act(match, "move", 0, to="ne")
        act(match, "category", 0, category=category)
        ask = match.state["ask"]
        if predicate(ask["card"]["questions"][ask["index"]], right_answer(match)):
            return match
    raise AssertionError("no fitting question found")


def test_exactness_agreed_before_the_game_goes_to_the_judge_as_house_rules() -> None:
    match = asked_with(
        lambda q, text: True,
        surname_alone=False,
        typos="lenient",
        number_tolerance=2.0,
        accents="ignore",
        word_forms=False,
        list_extras="ignore",
    )
    rules = match.state["ask"]["rules"]
    assert rules["surname_alone"] is False and rules["typos"] == "lenient" and rules["number_tolerance"] == 2.0
    assert rules["accents"] == "ignore" and rules["word_forms"] is False and rules["list_extras"] == "ignore"
    # unless agreed otherwise, naming three where two are asked, one of them wrong, is a guess
    assert asked_with(lambda q, text: True).state["ask"]["rules"]["list_extras"] == "wrong"


def test_exactness_of_numbers_how_far_a_year_may_be_off() -> None:
    def year(q, text):
        return q.get("value") is not None and float(q["value"]).is_integer() and q["value"] > 1000

    results = {}
    for tolerance in (0.0, 1.0):
        match = asked_with(year, category="history", number_tolerance=tolerance)
        q = match.state["ask"]["card"]["questions"][match.state["ask"]["index"]]
        act(match, "ask_answer", 0, text=str(int(q["value"]) + 1))
        results[tolerance] = match.state["ask"]["suggestion"]["correct"]
    assert results == {0.0: False, 1.0: True}


def test_exactness_typos_strict_refuses_a_typo_that_normal_accepts() -> None:
    results = {}
    for typos in ("normal", "strict"):
        # an answer whose last two letters differ, so that swapping them is a typo ("TORUPILL" would stay itself)
        match = asked_with(
            lambda q, text: len(text) >= 8 and text.isalpha() and text[-1] != text[-2] and not q.get("person"),
            typos=typos,
        )
        text = right_answer(match)
        act(match, "ask_answer", 0, text=text[:-2] + text[-1] + text[-2])
        results[typos] = match.state["ask"]["suggestion"]["correct"]
    assert results == {"normal": True, "strict": False}
