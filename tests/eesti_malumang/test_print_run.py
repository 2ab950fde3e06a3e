"""The box at print scale: 400 question cards, each with one question of each of the six categories, in Estonian
and English with the same ids; ``mindtable questions stats`` counts them; and every question of every card can
be drawn, asked and judged in both languages (variant 2, where the answering player names the category: the
card on top of the next pile is drawn, its question of that category asked, the printed answer judged right
and a wrong one wrong)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from mindtable.cli.app import app
from mindtable.games.eesti_malumang import rules
from mindtable.trivia import judge_answer
from mindtable.trivia.model import Question, question_from_dict
from tests.eesti_malumang.helpers import CATS, act, position

LANGUAGES = ("et", "en")
BOX = 400


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_box_holds_400_cards_of_six_questions(language: str) -> None:
    cards = rules.content_cards(language)
    assert sorted(cards) == [f"em-{n:03d}" for n in range(1, BOX + 1)]
    for card_id, card in cards.items():
        assert [q["category"] for q in card["questions"]] == list(CATS), card_id


def test_both_languages_hold_the_same_cards_and_the_same_kinds_of_answer() -> None:
    def shape(language: str) -> dict[str, tuple[tuple[str, str, bool], ...]]:
        return {
            cid: tuple((q["category"], q["kind"], bool(q.get("person"))) for q in card["questions"])
            for cid, card in rules.content_cards(language).items()
        }

    et, en = shape("et"), shape("en")
    assert sorted(et) == sorted(en)
    assert [cid for cid in et if et[cid] != en[cid]] == []


def printed_answer(question: Question) -> str:
    """What the card prints as the answer, as a player would say it: the headline, or the list's items, or the
    number."""
    if question.required_answer or question.answer:
        return question.required_answer or question.answer
    if question.items:  # each item with its other forms: "GREY SEAL / grey seal / gray seal"
        return ", ".join(item.split(" / ")[0] for item in question.items)
    return str(question.value)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_question_of_every_card_is_drawn_asked_and_judged(language: str) -> None:
    match = position(2, variant="cards_only", language=language, game_minutes=240)
    problems = []
    for card_id in rules.content_cards(language):
        for category in CATS:
            state = match.state
            state["phase"], state["turn"]["seat"] = "category", 0
            piles = state["piles"]
            for pile in piles:
                if card_id in pile:
                    pile.remove(card_id)
            if card_id in state["discard"]:
                state["discard"].remove(card_id)
            piles[state["next_pile"]].insert(0, card_id)
            act(match, "category", 0, category=category)
            ask = match.state["ask"]
            if ask is None or ask["card"]["id"] != card_id:
                problems.append(f"{card_id}/{category}: not asked")
                continue
            question = question_from_dict(ask["card"]["questions"][ask["index"]])
            printed = printed_answer(question)
            act(match, "ask_answer", 0, text=printed)
            suggestion = match.state["ask"]["suggestion"]
            if suggestion["correct"] is not True:
                problems.append(f"{card_id}/{category}: the printed answer {printed!r}: {suggestion['reason']}")
            if judge_answer(question, "qwertyuiop", language=language, **ask["rules"]).correct:
                problems.append(f"{card_id}/{category}: a wrong answer is taken")
            act(match, "ask_confirm", ask["reader"])
            if match.state["ask"] is not None:
                problems.append(f"{card_id}/{category}: still asking")
    assert problems == [], f"{len(problems)} problems: {problems[:15]}"


def test_the_stats_command_counts_400_category_cards_per_language() -> None:
    for language in LANGUAGES:
        result = CliRunner().invoke(app, ["questions", "stats", str(rules.CONTENT / language)])
        assert result.exit_code == 0, result.output
        cards = result.output[result.output.index("Question cards per language") :]
        assert re.search(rf"{language}\s*│\s*{BOX}\s*│", cards), cards
