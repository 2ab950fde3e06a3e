"""Caída Libre: Quote 5 as the book words it — "Name 5 elements on the proposed topic in less than 15 seconds. …
you lose 10 IQ points for each element you are missing" — its boundary, the house rule on wrong names, and a
Quote 5 with four of five under a weapon (docs/rules/caida-libre.md)."""

from __future__ import annotations

import json

import pytest

from mindtable.core.errors import IllegalAction
from mindtable.kit.words import page_folder
from tests.caida_libre.conftest import act, position

THIRTY_WRONG = ", ".join(f"X{n}" for n in range(30))


def test_quote5_an_answer_at_exactly_fifteen_seconds_is_too_late() -> None:
    """ "in less than 15 seconds": 14.999 s is in time, 15.000 s is not."""
    match = position(card="quote5-001")
    act(match, "draw", 0)
    drawn = match.clock
    with pytest.raises(IllegalAction) as refused:
        match.apply(
            {"type": "ask_answer", "seat": 1, "text": "Mercury, Venus, Earth, Mars, Jupiter", "at": drawn + 15_000}
        )
    assert refused.value.code == "ask_time_up" and refused.value.params == {"deadline": drawn + 15_000}
    with pytest.raises(IllegalAction):
        match.apply({"type": "ask_type", "seat": 1, "text": "Mercury", "at": drawn + 15_000})
    assert match.state["ask"]["given"] is None and not match.state["ask"]["draft"]  # the refusals changed nothing
    match.apply({"type": "ask_answer", "seat": 1, "text": "Mercury, Venus, Earth, Mars, Jupiter", "at": drawn + 14_999})
    act(match, "ask_confirm", 0)
    assert match.state["iq"][1] == 150


def test_quote5_by_the_book_wrong_names_cost_nothing_only_the_missing_ones() -> None:
    match = position(iq=[150, 150, 150], card="quote5-001")
    act(match, "draw", 0)
    act(match, "ask_answer", 1, text="Mercury, Venus, Mars, " + THIRTY_WRONG)
    act(match, "ask_confirm", 0)
    assert match.state["iq"][1] == 130  # two missing


def test_quote5_house_rule_each_wrong_name_counts_as_a_missing_one_at_most_five() -> None:
    match = position(iq=[150, 150, 150], card="quote5-001", quote5_wrong_names=True)
    act(match, "draw", 0)
    act(match, "ask_answer", 1, text="Mercury, Venus, Mars, Pluto")
    act(match, "ask_confirm", 0)
    assert match.state["iq"][1] == 120  # two missing and one wrong
    assert match.state["last"]["missing"] == 3 and match.state["last"]["wrong_names"] == 1

    match = position(iq=[150, 150, 150], card="quote5-001", quote5_wrong_names=True)
    act(match, "draw", 0)
    act(match, "ask_answer", 1, text="Mercury, Venus, Mars, " + THIRTY_WRONG)
    act(match, "ask_confirm", 0)
    assert match.state["iq"][1] == 100  # at most five: -50


def test_quote5_house_rule_follows_the_askers_ticks() -> None:
    """The asker ticks four of the five names right (a misspelt one the judge missed): the fifth is the wrong one."""
    match = position(iq=[150, 150, 150], card="quote5-001", quote5_wrong_names=True)
    act(match, "draw", 0)
    act(match, "ask_answer", 1, text="Mercury, Venus, Mars, Jupyter, Pluto")
    act(match, "ask_overrule", 0, named=4)  # Jupyter is Jupiter to this asker; Pluto stays wrong
    assert match.state["iq"][1] == 130  # one missing and one wrong


def test_quote5_four_of_five_under_a_weapon_is_a_wrong_answer_and_the_page_is_told() -> None:
    match = position(iq=[150, 80, 150], card="quote5-001")  # seat 1 answers from the Dynamite (80)
    act(match, "draw", 0)
    act(match, "ask_answer", 1, text="Mercury, Venus, Mars, Jupiter")
    events = act(match, "ask_confirm", 0)
    assert match.state["iq"][1] == 50  # one missing (-10) and the Dynamite (-20)
    note = next(e for e in events if e["type"] == "cl_partly_wrong")
    params = {k: v for k, v in note.items() if k != "type"}
    assert params == {"seat": 1, "weapon": "dynamite", "named": 4, "needed": 5, "penalty": 10, "extra": 20}
    assert match.view(2)["last"]["notes"] == [{"code": "cl_partly_wrong", "params": params}]
    for language in ("en", "es", "et"):
        words = json.loads((page_folder("caida-libre") / "i18n" / f"{language}.json").read_text("utf-8"))
        text = words["cl.note.cl_partly_wrong"]
        assert all("{" + p + "}" in text for p in ("name", "named", "needed", "weapon")), language


def test_no_note_when_the_card_is_all_right_or_all_wrong_or_no_weapon() -> None:
    match = position(iq=[150, 150, 150], card="quote5-001")
    act(match, "draw", 0)
    act(match, "ask_answer", 1, text="Mercury, Venus, Mars, Jupiter")
    events = act(match, "ask_confirm", 0)
    assert not [e for e in events if e["type"] == "cl_partly_wrong"] and "notes" not in match.state["last"]
