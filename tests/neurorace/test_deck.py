"""The 90 task cards: counts, solvability, rising difficulty, the generator and the file format."""

from __future__ import annotations

from importlib import resources

import pytest

from mindtable.games.neurorace.deck import (
    CARDS,
    DECK_SEED,
    DeckFileError,
    band,
    deck_problems,
    difficulty_curve,
    format_deck,
    generate_deck,
    parse_deck,
)
from mindtable.games.neurorace.solver import difficulty, solve, verify_layout
from mindtable.games.neurorace.tasks import format_task


def test_ninety_cards_nine_per_level_180_different_tasks() -> None:
    assert sorted(CARDS) == list(range(1, 91))
    for level in range(1, 11):
        assert sum(1 for card in CARDS.values() if card.level == level) == 9
    texts = {format_task(task) for card in CARDS.values() for task in card.tasks}
    assert len(texts) == 180


def test_every_task_is_proved_solvable_with_the_tiles() -> None:
    for card in CARDS.values():
        for task in card.tasks:
            layout = solve(task)
            assert layout is not None and verify_layout(task, layout), (card.id, format_task(task))


def test_difficulty_rises_with_the_level_without_overlap() -> None:
    curve = difficulty_curve(CARDS.values())
    for level in range(1, 10):
        assert curve[level]["max"] < curve[level + 1]["min"]
    for card in CARDS.values():
        low, high = band(card.level)
        assert all(low <= difficulty(task) < high for task in card.tasks)
    assert deck_problems(CARDS.values()) == []


def test_level_one_has_no_signs_and_no_numbers() -> None:
    for card in CARDS.values():
        if card.level == 1:
            for task in card.tasks:
                assert task.signs == (None,) * 6
                assert all(place.kind in ("symbol", "colour") for place in task.places)


def test_the_shipped_deck_is_what_the_generator_makes_from_its_seed() -> None:
    text = resources.files("mindtable.games.neurorace").joinpath("deck.txt").read_text(encoding="utf-8")
    assert text == format_deck(generate_deck(DECK_SEED), DECK_SEED)


def test_another_seed_makes_another_valid_deck() -> None:
    other = generate_deck(7)
    assert [c.tasks for c in other] != [c.tasks for c in CARDS.values()]
    assert deck_problems(other) == []


def test_a_deck_file_with_a_bad_task_names_line_column_and_field() -> None:
    lines = format_deck(CARDS.values()).splitlines()
    lines[2] = "1 1 A: sun moon sun mooon sun moon sun"
    with pytest.raises(DeckFileError, match=r"d\.txt: line 3, column 21: field 'task': 'mooon' is not a place"):
        parse_deck("\n".join(lines), "d.txt")


@pytest.mark.parametrize(
    ("replacement", "message"),
    [
        ("1 11 A: sun moon sun moon sun moon sun", "field 'level' must be 1-10"),
        ("1 1 C: sun moon sun moon sun moon sun", "field 'side' must be A or B"),
        ("1 2 A: sun moon sun moon sun moon sun", "line 4: field .level.: card 1 is level 1 on line 3"),
        ("x 1 A: sun moon sun moon sun moon sun", "field 'card' must be a whole number"),
    ],
)
def test_deck_file_field_errors(replacement: str, message: str) -> None:
    lines = format_deck(CARDS.values()).splitlines()
    lines[3] = replacement
    with pytest.raises(DeckFileError, match=message):
        parse_deck("\n".join(lines), "d.txt")


def test_a_deck_with_a_missing_level_is_reported() -> None:
    cards = [card for card in CARDS.values() if card.level != 4]
    problems = deck_problems(cards)
    assert "the deck has 81 cards, the book says 90" in problems
    assert "level 4 has 0 cards, the book says 9" in problems
