"""The task language: reading and writing one line, matching sides, and clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mindtable.games.neurorace.components import ANY, COLOURS, SYMBOLS
from mindtable.games.neurorace.deck import CARDS
from mindtable.games.neurorace.tasks import Place, Task, TaskSyntaxError, format_task, layout_problems, parse_task


def test_every_deck_task_reads_back_as_it_is_written() -> None:
    for card in CARDS.values():
        for task in card.tasks:
            assert parse_task(format_task(task)) == task


def test_signs_may_touch_their_places() -> None:
    assert parse_task("sun<moon>3_ _4 [red] red-sun lightning") == parse_task(
        "sun < moon > 3_ _4 [red] red-sun lightning"
    )


@pytest.mark.parametrize(
    ("text", "column", "fragment"),
    [
        ("sun moon sunn moon sun moon sun", 10, "'sunn' is not a place; allowed: a white symbol"),
        ("sun moon [pink] moon sun moon sun", 10, "colours: red, yellow"),
        ("sun moon red-star moon sun moon sun", 10, "symbol 'star'"),
        ("< sun moon sun moon sun moon sun", 1, "cannot start with '<'"),
        ("sun moon sun moon sun moon sun >", 32, "cannot end with '>'"),
        ("sun < > moon sun moon sun moon sun", 7, "two signs in a row"),
        ("sun moon sun moon sun moon sun moon", 32, "8th place"),
        ("sun moon 12 moon sun moon sun", 10, "'12' is not a place"),
    ],
)
def test_malformed_tasks_name_the_column_and_what_is_allowed(text: str, column: int, fragment: str) -> None:
    with pytest.raises(TaskSyntaxError) as info:
        parse_task(text)
    assert info.value.column == column
    assert fragment in str(info.value)
    assert str(info.value).startswith(f"column {column}:")


def test_a_task_has_exactly_seven_places() -> None:
    with pytest.raises(TaskSyntaxError, match="exactly 7 places, this one has 6"):
        parse_task("sun moon sun moon sun moon")


def test_white_symbol_square_and_coloured_symbol_with_bonus_sides() -> None:
    white, square, exact = (
        Place("symbol", symbol="sun"),
        Place("colour", colour="red"),
        parse_task("red-sun sun sun sun sun sun sun").places[0],
    )
    assert white.matches(("sun", "blue", 3)) and not white.matches(("moon", "blue", 3))
    assert white.matches((ANY, "blue", 3))  # all symbols of one colour: any shape
    assert square.matches(("moon", "red", 3)) and not square.matches(("moon", "blue", 3))
    assert square.matches(("moon", ANY, 3))  # one symbol in all colours: any colour
    assert exact.matches(("sun", "red", 1)) and not exact.matches(("sun", "blue", 1))
    assert exact.matches((ANY, "red", 1)) and exact.matches(("sun", ANY, 1)) and exact.matches((ANY, ANY, 1))
    assert not exact.matches((ANY, "blue", 1)) and not exact.matches(("moon", ANY, 1))


def test_numbers_match_by_their_first_or_last_digit_written_with_two_digits() -> None:
    first, last = Place("first", digit=0), Place("last", digit=0)
    assert first.matches(("sun", "red", 7)) and not first.matches(("sun", "red", 70))
    assert last.matches(("sun", "red", 70)) and last.matches(("sun", "red", 0)) and not last.matches(("sun", "red", 7))


def test_layout_problems_name_the_wrong_place_and_the_broken_sign() -> None:
    task = parse_task("sun > moon [red] _5 3_ sun moon")
    good = [
        ("sun", "red", 60),
        ("moon", "red", 10),
        ("sun", "red", 1),
        ("sun", "blue", 5),
        ("sun", "blue", 31),
        ("sun", "blue", 2),
        ("moon", "blue", 3),
    ]
    assert layout_problems(task, good) == []
    bad = list(good)
    bad[1] = ("moon", "red", 60)
    bad[2] = ("sun", "blue", 1)
    reasons = {p["place"]: p["reason"] for p in layout_problems(task, bad)}
    assert reasons == {1: "60 > 60 does not hold", 2: "needs any symbol in red"}


places = st.one_of(
    st.sampled_from(SYMBOLS).map(lambda s: Place("symbol", symbol=s)),
    st.sampled_from(COLOURS).map(lambda c: Place("colour", colour=c)),
    st.tuples(st.sampled_from(SYMBOLS), st.sampled_from(COLOURS)).map(
        lambda p: Place("both", symbol=p[0], colour=p[1])
    ),
    st.tuples(st.sampled_from(("first", "last")), st.integers(0, 9)).map(lambda p: Place(p[0], digit=p[1])),
)
tasks = st.builds(
    lambda ps, ss: Task(tuple(ps), tuple(ss)),
    st.lists(places, min_size=7, max_size=7),
    st.lists(st.sampled_from((None, "<", ">")), min_size=6, max_size=6),
)


@given(tasks)
def test_any_task_written_out_reads_back_the_same(task: Task) -> None:
    assert parse_task(format_task(task)) == task
