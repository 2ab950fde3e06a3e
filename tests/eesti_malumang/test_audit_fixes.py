"""Eesti mälumäng: the timer of variant 2 taken only when due, and refusals that name what is actually wrong
(docs/rules/eesti-malumang.md)."""

from __future__ import annotations

import json
import re

import pytest

import mindtable
from mindtable.core.errors import IllegalAction
from mindtable.games.eesti_malumang.rules import CODES
from mindtable.kit.words import page_folder
from tests.eesti_malumang.helpers import ALL, act, position

NEW_CODES = (
    "em_clockwise_only",
    "em_moved_already",
    "em_choose_landing",
    "em_no_square",
    "em_no_category",
    "em_time_not_due",
    "em_time_needs_at",
)


def refusal(match: mindtable.Match, action: dict) -> IllegalAction:  # type: ignore[type-arg]
    with pytest.raises(IllegalAction) as refused:
        match.apply(action)
    return refused.value


# -- variant 2: "When a previously agreed game time has run out" -----------------------------------------------


def test_variant_2_a_time_up_without_its_time_does_not_end_a_sixty_second_game() -> None:
    match = position(2, variant="cards_only", game_minutes=1)
    act(match, "category", 0, category="history")
    err = refusal(match, {"type": "em_time_up"})
    assert err.code == "em_time_needs_at" and err.params == {"ends_at": 60_000}
    assert not match.is_over and not match.state["time_over"]


def test_variant_2_a_time_up_before_the_agreed_time_is_refused_and_at_it_ends_the_game() -> None:
    match = position(2, variant="cards_only", game_minutes=1)
    err = refusal(match, {"type": "em_time_up", "at": 5_000})
    assert err.code == "em_time_not_due" and err.params == {"ends_at": 60_000, "at": 5_000}
    assert not match.is_over
    match.apply({"type": "em_time_up", "at": 60_000})
    assert match.is_over and match.result.reason == "time"


# -- refusals that say what is wrong --------------------------------------------------------------------------


def test_variant_3_moving_anticlockwise_after_the_die_moved_the_piece_says_clockwise_only() -> None:
    match = position(2, die=3, clockwise_only=True)
    act(match, "roll", 0)  # the one square clockwise: the piece is on o3 and the question is asked
    err = refusal(match, {"type": "move", "seat": 0, "to": "o26"})
    assert err.code == "em_clockwise_only" and err.params == {"die": 3, "square": "o3"}


def test_moving_when_the_die_reached_one_square_only_says_the_piece_is_there() -> None:
    match = position(2, die=3)
    events = act(match, "roll", 0)
    landings = next(e for e in events if e["type"] == "rolled")["landings"]
    if len({lnd["square"] for lnd in landings}) > 1:
        act(match, "move", 0, to=landings[0]["square"])
    err = refusal(match, {"type": "move", "seat": 0, "to": "o1"})
    assert err.code == "em_moved_already" and err.params["square"] == match.state["pawns"][0]


def test_rolling_again_before_moving_names_the_squares_to_choose() -> None:
    match = position(2, die=3)
    act(match, "roll", 0)
    err = refusal(match, {"type": "roll", "seat": 0})
    assert err.code == "em_choose_landing" and err.params == {"die": 3, "allowed": ["o3", "o26"]}


def test_on_the_finish_path_neither_a_roll_nor_a_move_but_the_circles_question() -> None:
    """ "To move along it you no longer need the die": the declared em_path_no_die is the refusal."""
    match = position(2, pawns=["nw1", "o3"], held=[ALL, {}])
    assert match.state["phase"] == "path"
    for action in ({"type": "roll", "seat": 0}, {"type": "move", "seat": 0, "to": "nw2"}):
        err = refusal(match, action)
        assert err.code == "em_path_no_die" and err.params == {}, action
    match = position(2, pawns=["goal", "o3"], held=[ALL, {}])
    err = refusal(match, {"type": "roll", "seat": 0})
    assert err.code == "em_left_chooses" and err.params == {"seat": 1}


def test_a_place_or_a_move_without_a_square_says_a_square_is_needed() -> None:
    match = mindtable.new_match("eesti-malumang", players=2, seed=1)
    err = refusal(match, {"type": "place", "seat": 0})
    assert err.code == "em_no_square"
    assert sorted(err.params["allowed"]) == ["ne", "nw", "se", "sw"]
    assert "None" not in str(err)
    match = position(2, die=3)
    act(match, "roll", 0)
    err = refusal(match, {"type": "move", "seat": 0})
    assert err.code == "em_no_square" and err.params == {"allowed": ["o3", "o26"]}


@pytest.mark.parametrize("language", ["en", "es", "et"])
def test_the_new_refusals_have_words_with_their_parameters(language: str) -> None:
    words = json.loads((page_folder("eesti-malumang") / "i18n" / f"{language}.json").read_text("utf-8"))
    for code in NEW_CODES:
        text = words[f"error.{code}"]
        params = set(re.findall(r"\{(\w+)(?:!r)?\}", CODES[code]))
        # every parameter the page says is one the server sends (a square's id it may leave out: no raw ids)
        assert set(re.findall(r"\{(\w+)\}", text)) <= params, (language, code)
