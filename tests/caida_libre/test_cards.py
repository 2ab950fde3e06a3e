"""The six card types, each from a position: what the answerer sees, what a wrong answer costs."""

from __future__ import annotations

import json

import pytest

from tests.caida_libre.conftest import act, answer, current, play_card, position, right


def test_correct_answer_leaves_the_pawn_where_it_is() -> None:
    match = position(iq=[150, 140, 150], card="roulette-001")
    play_card(match, [True])
    assert match.state["iq"] == [150, 140, 150]
    assert match.state["last"]["correct"] is True and match.state["last"]["penalty"] == 0


def test_roulette_four_options_and_minus_forty() -> None:
    match = position(iq=[150, 140, 150], card="roulette-001")
    act(match, "draw", 0)
    question = match.view(1)["ask"]["question"]
    assert len(question["options"]) == 4
    answer(match, False)
    assert match.state["iq"][1] == 100


def test_double_question_the_answerer_hears_both_topics_and_penalties_and_chooses() -> None:
    match = position(iq=[150, 140, 150], card="double-001")
    act(match, "draw", 0)
    ask = match.view(1)["ask"]
    headings = ask["headings"]["headings"]
    assert [(h["topic"], h["penalty"]) for h in headings] == [("Tennis", 20), ("Vitamins", 40)]
    assert ask["question"] is None and ask["choices"] == [0, 1]
    assert [a["type"] for a in match.legal_actions(1)] == ["ask_choose", "ask_choose"]
    hidden = match.state["ask"]["card"]["questions"]
    assert hidden[0]["prompt"] not in json.dumps(match.view(1)) and hidden[1]["prompt"] not in json.dumps(match.view(1))
    act(match, "ask_choose", 1, question=1)
    assert match.view(1)["ask"]["question"]["prompt"] == hidden[1]["prompt"]
    answer(match, False)
    assert match.state["iq"][1] == 100  # the chosen question's penalty, 40
    assert hidden[0]["prompt"] not in json.dumps(match.view(2)), "the question not chosen is never read out"


def test_double_question_wrong_on_the_harder_topic_costs_its_smaller_penalty() -> None:
    match = position(iq=[150, 140, 150], card="double-001")
    play_card(match, [False], choose=0)
    assert match.state["iq"][1] == 120


def test_more_or_less_one_wrong_twenty_two_wrong_fifty() -> None:
    for answers, expected in (([True, True], 150), ([True, False], 130), ([False, True], 130), ([False, False], 100)):
        match = position(iq=[150, 150, 150], card="more_or_less-001")
        play_card(match, answers)
        assert match.state["iq"][1] == expected, answers


def test_fake_news_both_facts_are_asked_and_cost_twenty_or_fifty() -> None:
    match = position(iq=[150, 150, 150], card="fake_news-001")
    events = play_card(match, [False, False])
    assert sum(1 for e in events if e["type"] == "ask_question") == 2
    assert match.state["iq"][1] == 100
    match = position(iq=[150, 150, 150], card="fake_news-001")
    play_card(match, [True, False])
    assert match.state["iq"][1] == 130


def test_shootout_stops_at_the_first_wrong_statement_minus_thirty() -> None:
    match = position(iq=[150, 150, 150], card="shootout-001")
    events = play_card(match, [True, True, False, True, True])
    asked = [e for e in events if e["type"] == "ask_question"]
    assert len(asked) == 3, "the fourth and fifth statements are never read"
    assert match.state["iq"][1] == 120
    statements = [q["prompt"] for q in match.state["cards"]["shootout-001"]["questions"]]
    seen = json.dumps(match.view(1))
    assert statements[2] in seen and statements[3] not in seen and statements[4] not in seen


def test_shootout_five_right_costs_nothing() -> None:
    match = position(iq=[150, 150, 150], card="shootout-001")
    events = play_card(match, [True] * 5)
    assert sum(1 for e in events if e["type"] == "ask_question") == 5
    assert match.state["iq"][1] == 150


def test_shootout_statements_are_one_per_topic() -> None:
    match = position(card="shootout-001")
    act(match, "draw", 0)
    topics = [h["topic"] for h in match.view(1)["ask"]["headings"]["headings"]]
    assert topics == ["history", "geography", "science", "arts", "sport"]


# --- Quote 5: the 15-second clock and partial answers ---------------------------------------------------------


def test_quote5_runs_on_a_fifteen_second_clock_from_the_draw() -> None:
    match = position(card="quote5-001")
    act(match, "draw", 0)
    drawn_at = match.clock
    deadline = match.next_deadline()
    assert deadline is not None and deadline.at == drawn_at + 15_000
    assert match.view(2)["ask"]["deadline"] == drawn_at + 15_000, "everyone sees the countdown"
    with pytest.raises(Exception, match="ran out"):
        match.apply({"type": "ask_answer", "seat": 1, "text": "Mars", "at": drawn_at + 15_001})


def test_quote5_items_typed_in_time_are_judged_at_the_deadline_minus_ten_per_missing() -> None:
    match = position(iq=[150, 150, 150], card="quote5-001")
    act(match, "draw", 0)
    act(match, "ask_type", 1, text="Mercury, Venus")
    act(match, "ask_type", 1, text="Mercury, Venus, Mars, Pluto")
    assert match.view(0)["ask"]["draft"] == "Mercury, Venus, Mars, Pluto", "the asker sees the items as they are typed"
    deadline = match.next_deadline()
    assert deadline is not None
    match.apply(deadline.due_action())
    suggestion = match.view(0)["ask"]["suggestion"]
    assert (
        suggestion["named"] == 3 and suggestion["missing"] == 2 and suggestion["items"] == ["Mercury", "Venus", "Mars"]
    )
    assert "suggestion" not in match.view(1)["ask"], "the judge's suggestion goes to the asker only"
    act(match, "ask_confirm", 0)
    assert match.state["iq"][1] == 130
    assert match.state["last"]["missing"] == 2


def test_quote5_a_wrong_name_among_the_five_costs_nothing_only_missing_ones_do() -> None:
    """The book: "you lose 10 IQ points for each element you are missing" — a wrong guess in the rush is no
    more than a missing element (the judge's house rule list_extras is "ignore" here)."""
    match = position(iq=[150, 150, 150], card="quote5-001")
    act(match, "draw", 0)
    act(match, "ask_answer", 1, text=right(current(match)) + ", Pluto")
    suggestion = match.view(0)["ask"]["suggestion"]
    assert suggestion["correct"] and suggestion["missing"] == 0
    act(match, "ask_confirm", 0)
    assert match.state["iq"][1] == 150


def test_quote5_the_asker_confirms_item_by_item_by_overruling_the_count() -> None:
    match = position(iq=[150, 150, 150], card="quote5-001")
    act(match, "draw", 0)
    act(match, "ask_answer", 1, text="Mercury, Venus, Mars, Plutón")
    act(match, "ask_overrule", 0, named=4)
    assert match.state["iq"][1] == 140


def test_quote5_five_in_time_costs_nothing_and_silence_costs_fifty() -> None:
    match = position(iq=[150, 150, 150], card="quote5-001")
    act(match, "draw", 0)
    act(match, "ask_answer", 1, text=right(current(match)))
    act(match, "ask_confirm", 0)
    assert match.state["iq"][1] == 150
    match = position(iq=[150, 150, 150], card="quote5-001")
    act(match, "draw", 0)
    deadline = match.next_deadline()
    assert deadline is not None
    match.apply(deadline.due_action())
    assert match.state["iq"][1] == 100


def test_quote5_seconds_is_a_house_rule() -> None:
    match = position(card="quote5-001", quote5_seconds=30)
    act(match, "draw", 0)
    deadline = match.next_deadline()
    assert deadline is not None and deadline.at == match.clock + 30_000


def test_other_cards_have_no_clock_unless_the_room_sets_one() -> None:
    match = position(card="roulette-001")
    act(match, "draw", 0)
    assert match.next_deadline() is None
    match = position(card="roulette-001", answer_seconds=30)
    act(match, "draw", 0)
    deadline = match.next_deadline()
    assert deadline is not None and deadline.at == match.clock + 30_000
