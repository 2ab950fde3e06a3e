"""The booklets at print scale: each of the six booklets holds three questions for every number the three dice
can roll (111–666: 216 numbers, 648 questions), in Spanish and English with the same ids; ``mindtable questions
stats`` says so; and in bot games the question asked is one of the number rolled — the book's "when a number that
has already come up appears again, the next question of that same number is asked" — unless all three of that
number are used up."""

from __future__ import annotations

import re
from itertools import product
from typing import Any

import pytest
from typer.testing import CliRunner

import mindtable
from mindtable.cli.app import app
from mindtable.core.driver import play_out
from mindtable.games.carrera_de_mente.content import CONTENT, read_booklets

LANGUAGES = ("es", "en")
NUMBERS = [100 * a + 10 * b + c for a, b, c in product(range(1, 7), repeat=3)]
BOOKLETS = ("sports", "science", "history_geography", "entertainment", "arts", "cambalache")


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_booklet_holds_three_questions_for_every_number(language: str) -> None:
    booklets = read_booklets(language, "")["booklets"]
    assert sorted(booklets) == sorted(BOOKLETS)
    for topic, numbers in booklets.items():
        held = {number: [q["extra"]["slot"] for q in questions] for number, questions in numbers}
        assert sorted(held) == NUMBERS, (topic, sorted(set(NUMBERS) - set(held))[:10])
        wrong = {number: slots for number, slots in held.items() if slots != [1, 2, 3]}
        assert wrong == {}, (topic, dict(list(wrong.items())[:10]))


def test_both_languages_hold_the_same_ids_with_the_same_difficulty() -> None:
    def shape(language: str) -> dict[str, str]:
        return {
            q["id"]: q.get("difficulty", "")
            for numbers in read_booklets(language, "")["booklets"].values()
            for _, questions in numbers
            for q in questions
        }

    es, en = shape("es"), shape("en")
    assert sorted(es) == sorted(en)
    assert {i: (es[i], en[i]) for i in es if es[i] != en[i]} == {}


def test_the_stats_command_counts_every_number_of_every_booklet_full() -> None:
    for language in LANGUAGES:
        result = CliRunner().invoke(app, ["questions", "stats", str(CONTENT / language)], terminal_width=200)
        assert result.exit_code == 0, result.output
        assert f"{216 * 3 * len(BOOKLETS)} questions in" in result.output
        held = result.output[result.output.index("Booklet numbers by questions held") :]
        for topic in BOOKLETS:
            assert re.search(rf"{language} {topic}: 3 of 3\s*│\s*216\s*│", held), (topic, held)
        assert not re.search(r": [0-2] of 3", held), held


def test_in_bot_games_the_question_asked_is_of_the_number_rolled() -> None:
    """Over many seeded games of knowing bots, ≥ 99% of the questions come from the number the dice gave; every
    other one only because all three questions of that number had been asked already."""
    asked = same = 0
    others: list[str] = []
    for seed in range(24):
        players = 2 + seed % 3
        match = mindtable.new_match(
            "carrera-de-mente", players=players, seed=seed, options={"language": LANGUAGES[seed % 2]}
        )
        bots = {s: match.game.make_bot("knowing", seat=s, seed=seed * 10 + s) for s in range(players)}
        used_before: dict[str, list[str]] = {}

        def watch(
            action: dict[str, Any],
            events: list[Any],
            match: Any = match,
            seed: int = seed,
            used_before: Any = used_before,
        ) -> None:
            nonlocal asked, same
            for event in events:
                if event.type != "question":
                    continue
                asked += 1
                data = event.data
                if data["found"] == data["number"]:
                    same += 1
                    continue
                earlier = used_before.get(data["topic"], [])
                of_number = [i for i in earlier if i.startswith(f"{data['topic']}-{data['number']}-")]
                if len(of_number) < 3:
                    others.append(f"seed {seed}: {data['topic']} {data['number']} gave {data['found']}")
            used_before.clear()
            used_before.update({t: list(ids) for t, ids in match.state["used"].items()})

        used_before.update({t: list(ids) for t, ids in match.state["used"].items()})
        play_out(match, bots, on_events=watch)
    assert asked > 500
    assert others == [], others[:10]
    assert same / asked >= 0.99, f"{same} of {asked} questions of the number rolled"
