"""No fact asked twice: over all the shipped content of the three quiz games (read through each game's own
loader, so a new content file counts as soon as it is shipped), the project's duplicate detector
(:func:`mindtable.trivia.stats.find_duplicates`) finds no duplicate or near-duplicate question within a language,
within a game or across games — nor a true/false statement of Caída Libre that says the fact a question and its
answer ask (:func:`mindtable.trivia.stats.find_statement_repeats`)."""

from __future__ import annotations

import pytest

from mindtable.games.caida_libre.rules import library_questions
from mindtable.games.carrera_de_mente.content import read_booklets
from mindtable.games.eesti_malumang.rules import content_cards
from mindtable.trivia.model import Question, question_from_dict
from mindtable.trivia.stats import find_duplicates


def shipped(language: str) -> list[tuple[str, Question]]:
    """Every shipped question of ``language`` with the game it belongs to."""
    out: list[tuple[str, Question]] = []
    if language in ("en", "es"):
        for numbers in read_booklets(language, "")["booklets"].values():
            out += [("carrera", question_from_dict(q)) for _, questions in numbers for q in questions]
        out += [("caida", q) for q in library_questions(language)]
    if language in ("en", "et"):
        for card in content_cards(language).values():
            out += [("eesti", question_from_dict(q)) for q in card["questions"]]
    return out


@pytest.mark.parametrize("language", ["en", "es", "et"])
def test_no_question_is_asked_twice_within_or_across_the_quiz_games(language: str) -> None:
    questions = shipped(language)
    game = {id(q): g for g, q in questions}
    found = find_duplicates([q for _, q in questions])
    pairs = [
        f"{game[id(d.first)]} {d.first.id} ~ {game[id(d.second)]} {d.second.id} ({d.score:.0f}): {d.first.prompt!r}"
        for d in found
    ]
    assert len(questions) > 500
    assert pairs == [], "\n".join(pairs)
