"""The ask step keeps its parsed question between steps, and never gives a question its dict no longer says."""

from __future__ import annotations

import copy
import json

import pytest

from mindtable.trivia import quiz
from mindtable.trivia.model import Card, Question, question_from_dict
from mindtable.trivia.quiz import current_question, open_ask, step_card, step_question


def _card() -> Card:
    return Card(
        "c1",
        (
            Question("c1/1", "list", "Name the Benelux countries.", items=("Belgium", "Netherlands", "Luxembourg")),
            Question("c1/2", "text", "Capital of Australia?", "CANBERRA", options=("Sydney", "Canberra"), correct=1),
        ),
    )


def test_the_question_of_the_same_dict_is_kept_between_steps() -> None:
    ask, _ = open_ask(_card(), reader=1, answerers=[0], players=2, question=1)
    first = current_question(ask)
    assert current_question(ask) is first
    assert first == question_from_dict(ask["card"]["questions"][1])


@pytest.mark.parametrize("reads", [1, 2, 5])  # checked by its bytes, then against a copy
def test_a_dict_changed_in_place_is_parsed_again(reads: int) -> None:
    ask, _ = open_ask(_card(), reader=1, answerers=[0], players=2, question=0)
    data = ask["card"]["questions"][0]
    for _ in range(reads):
        assert current_question(ask).kind == "list"
    data["kind"] = "choice"  # a value set anew (Carrera, once a list's options are read out)
    assert current_question(ask).kind == "choice"
    for _ in range(reads):
        assert current_question(ask).kind == "choice"
    data["items"].append("Andorra")  # a change inside a value
    assert current_question(ask).items == ("Belgium", "Netherlands", "Luxembourg", "Andorra")
    data["count"] = 2  # a field added
    assert current_question(ask).count == 2
    del data["count"]
    assert current_question(ask).count is None
    assert current_question(ask) == question_from_dict(data)


def test_a_snapshot_of_the_step_is_plain_json_and_parses_the_same() -> None:
    ask, _ = open_ask(_card(), reader=1, answerers=[0], players=2, question=1)
    before = copy.deepcopy(ask)
    kept = current_question(ask)
    assert ask == before  # nothing written into the state
    again = json.loads(json.dumps(ask))
    assert current_question(again) == kept


def test_the_kept_questions_are_bounded(monkeypatch) -> None:
    monkeypatch.setattr(quiz, "_STEP_QUESTIONS", {})
    dicts = [
        {"id": f"q{i}", "kind": "text", "prompt": f"Question {i}?", "answer": "A"}
        for i in range(3 * quiz.STEP_QUESTIONS)
    ]
    for data in dicts:
        assert step_question(data).prompt == data["prompt"]
    assert len(quiz._STEP_QUESTIONS) <= quiz.STEP_QUESTIONS


def test_a_card_opened_again_is_read_as_it_is_now() -> None:
    data = _card().to_dict()
    for _ in range(4):
        step_card(data)
    first, _ = open_ask(data, reader=1, answerers=[0], players=2, question=1)
    assert current_question(first).prompt == "Capital of Australia?"
    data["questions"][1]["prompt"] = "Capital of Canada?"  # the same card dict, changed inside
    data["questions"][1]["answer"] = "OTTAWA"
    again, _ = open_ask(data, reader=1, answerers=[0], players=2, question=1)
    assert current_question(again).prompt == "Capital of Canada?"
    assert step_card(data) == Card.from_dict(json.loads(json.dumps(data)))
    data["questions"] = data["questions"][:1]  # a value set anew
    with pytest.raises(IndexError):
        open_ask(data, reader=1, answerers=[0], players=2, question=1)
