"""Question sets: every shipped content file loads as it is, bad files are reported with file, line and field,
cards and questions survive JSON, plain banks are made into booklets and cards deterministically, and
``mindtable questions fit`` says how many games a bank feeds."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mindtable.cli.app import app
from mindtable.trivia.bank import BankError, shipped_bank_dir
from mindtable.trivia.categories import CATEGORIES, category_key, category_name
from mindtable.trivia.model import Card, Question
from mindtable.trivia.sets import (
    ALL_NUMBERS,
    CARD_CATEGORIES,
    CARD_TYPES,
    fit,
    load_set,
    load_sets,
    make_booklets,
    make_category_cards,
    make_typed_cards,
    parse_set,
    pick_booklet_question,
    quiz_profiles,
    valid_number,
    validate_set_text,
)

GAMES = Path(__file__).resolve().parents[2] / "mindtable" / "games"
#: The quiz games' declared profiles (each game's ``quiz_profile``): their topic maps and what a game uses.
PROFILES = quiz_profiles()
BOOKLETS = PROFILES["carrera-de-mente"].topics
CONTENT = sorted(GAMES.glob("*/content/*/*.yaml"))


def test_there_is_shipped_content_in_all_three_shapes() -> None:
    shapes = {load_set(f).shape for f in CONTENT}
    assert shapes == {"booklet", "cards", "category_cards"}


@pytest.mark.parametrize("path", CONTENT, ids=lambda p: str(p.relative_to(GAMES)))
def test_every_shipped_content_file_loads_without_error(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    qset = load_set(path)
    assert qset.cards and all(card.questions for card in qset.cards)
    assert qset.language == path.parent.name
    with capsys.disabled():
        print(f"\n  {path.relative_to(GAMES)}: {qset.shape}, {len(qset.cards)} cards, {len(qset.questions)} questions")
    if qset.shape == "booklet":
        # a booklet may go on in several files (sports.yaml, sports-2xx.yaml …); each number's slots in order
        assert path.stem.partition("-")[0] == qset.topic and qset.topic in PROFILES["carrera-de-mente"].topics.topics
        for card in qset.cards:
            assert valid_number(card.extra["number"])
            slots = [q.extra["slot"] for q in card.questions]
            assert slots == sorted(set(slots)) and set(slots) <= {1, 2, 3}
    elif qset.shape == "category_cards":
        for card in qset.cards:
            assert tuple(q.category for q in card.questions) == CARD_CATEGORIES
    else:
        assert path.stem == qset.type or path.stem.startswith(f"{qset.type}-")  # shootout-2.yaml
        for card in qset.cards:
            assert len(card.questions) == CARD_TYPES[qset.type].size
            assert card.pack in {"1", "2", "3", "4", "5"}


def test_every_booklet_number_has_each_of_its_slots_once_across_its_files() -> None:
    """The book's three questions a number (slot 3 the hardest), however the booklet is cut into files."""
    for language in ("en", "es"):
        slots: dict[tuple[str, int], list[int]] = {}
        for qset in load_sets([GAMES / "carrera_de_mente" / "content" / language]):
            for card in qset.cards:
                slots.setdefault((qset.topic, card.extra["number"]), []).extend(q.extra["slot"] for q in card.questions)
        twice = {key: found for key, found in slots.items() if len(found) != len(set(found))}
        assert twice == {}, f"{language}: a slot given twice {sorted(twice.items())[:5]}"


def test_each_language_of_a_game_holds_the_same_cards() -> None:
    for game in ("carrera_de_mente", "eesti_malumang", "caida_libre"):
        by_language = {}
        for folder in sorted((GAMES / game / "content").iterdir()):
            by_language[folder.name] = sorted(q.id for s in load_sets([folder]) for q in s.questions)
        first, *others = by_language.values()
        assert all(ids == first for ids in others), f"{game}: the languages hold different questions"


def test_cards_and_questions_survive_json() -> None:
    for path in CONTENT[::4]:
        for card in load_set(path).cards:
            again = Card.from_dict(json.loads(json.dumps(card.to_dict())))
            assert again == card
            for q in card.questions:
                assert Question.from_dict(json.loads(json.dumps(q.to_dict()))) == q


def test_a_bad_question_from_json_names_the_field() -> None:
    with pytest.raises(ValueError, match=r"question\.kind"):
        Question.from_dict({"id": "x", "kind": "riddle", "prompt": "?"})
    with pytest.raises(ValueError, match=r"card\.questions"):
        Card.from_dict({"id": "x", "questions": []})


BAD_FILES = [
    (
        "booklet",
        """title: Deportes
language: es
booklet: sports
questions:
  - id: sports-171-1
    number: 171
    slot: 1
    question: ¿Cuántos jugadores?
    answer: ONCE
""",
        6,
        "questions[0].number",
        "111 to 666 with digits 1-6",
    ),
    (
        "booklet slot",
        """booklet: sports
questions:
  - {id: a, number: 111, slot: 1, question: Q?, answer: A}
  - {id: b, number: 111, slot: 1, question: Q2?, answer: B}
""",
        4,
        "questions[1].slot",
        "already has a slot 1",
    ),
    (
        "booklet options",
        """booklet: arts
questions:
  - id: a
    number: 111
    slot: 1
    question: Q?
    answer: A
    options: [A, B, C, D]
""",
        8,
        "questions[0].options",
        "2 or 3 options",
    ),
    (
        "typed",
        """type: roulette
cards:
  - id: roulette-001
    pack: 1
    topic: Capitales
    question: ¿Capital de Nigeria?
    options: [Lagos, Abuya, Kano]
    correct: b
""",
        7,
        "cards[0].options",
        "exactly 4 options",
    ),
    (
        "typed type",
        """type: riddles
cards: []
""",
        1,
        "type",
        "must be one of double",
    ),
    (
        "double",
        """type: double
cards:
  - id: double-001
    pack: 1
    questions:
      - {topic: Tenis, penalty: 20, question: A?, answer: A}
      - {topic: Vitaminas, penalty: 25, question: B?, answer: B}
""",
        7,
        "cards[0].questions[1].penalty",
        "multiple of 10",
    ),
    (
        "shootout",
        """type: shootout
cards:
  - id: s1
    pack: 1
    statements:
      - {topic: history, statement: A, answer: true}
""",
        5,
        "cards[0].statements",
        "exactly 5 statements",
    ),
    (
        "category cards",
        """cards:
  - id: em-001
    questions:
      history: {question: Mis aastal?, answer: "1918", difficulty: easy}
      culture: {question: Kes?, answer: TAMMSAARE, difficulty: easy}
""",
        3,
        "cards[0].questions",
        "missing science, geography, sport, varia",
    ),
    (
        "category answer",
        """categories: [history, sport]
cards:
  - id: em-001
    questions:
      history: {question: Mis aastal?, difficulty: easy}
      sport: {question: Kes?, answer: PALUSALU, difficulty: easy}
""",
        5,
        "cards[0].questions.history.answer",
        "missing",
    ),
    ("not a set", "title: nothing here\n", 1, "", "not a question set"),
    ("yaml", "booklet: sports\nquestions: [\n", 3, "", "not valid YAML"),
]


@pytest.mark.parametrize(
    ("text", "line", "field", "message"), [b[1:] for b in BAD_FILES], ids=[b[0] for b in BAD_FILES]
)
def test_a_bad_set_file_is_reported_with_file_line_and_field(text: str, line: int, field: str, message: str) -> None:
    qset, problems = validate_set_text(text, "content/bad.yaml")
    assert qset is None
    assert any(p.line == line and p.field == field and message in p.message for p in problems), [
        str(p) for p in problems
    ]
    with pytest.raises(BankError) as err:
        parse_set(text, "content/bad.yaml")
    assert str(err.value).startswith("content/bad.yaml:")


def test_a_booklet_whose_difficulty_falls_with_the_slot_is_warned_about() -> None:
    text = """booklet: sports
questions:
  - {id: a, number: 111, slot: 1, difficulty: hard, question: Q?, answer: A}
  - {id: b, number: 111, slot: 2, difficulty: easy, question: Q2?, answer: B}
"""
    qset, problems = validate_set_text(text, "b.yaml")
    assert qset is not None and [(p.severity, p.line) for p in problems] == [("warning", 4)]


def test_a_used_number_gives_its_next_slot_then_the_following_number() -> None:
    cards = load_set(GAMES / "carrera_de_mente" / "content" / "en" / "sports.yaml").cards
    first = cards[0]
    number = first.extra["number"]
    assert pick_booklet_question(cards, number).id == first.questions[0].id
    used = [q.id for q in first.questions[:1]]
    assert pick_booklet_question(cards, number, used).id == first.questions[1].id
    used = [q.id for q in first.questions]
    assert pick_booklet_question(cards, number, used).id == cards[1].questions[0].id
    # A number the booklet does not hold: the next number it holds, wrapping after 666.
    missing = next(n for n in ALL_NUMBERS if n > number and all(c.extra["number"] != n for c in cards))
    following = next(c for c in cards if c.extra["number"] > missing)
    assert pick_booklet_question(cards, missing).id == following.questions[0].id
    assert pick_booklet_question(cards, 666 + 0, [q.id for c in cards for q in c.questions]) is None


def test_categories_are_one_list_with_translations() -> None:
    assert all(set(names) == {"en", "es", "et"} for names in CATEGORIES.values())
    assert category_key("Science & Nature") == category_key("natural science") == category_key("loodusteadus")
    assert category_key("Sports") == category_key("deportes") == "sport"
    assert category_name("history", "es") == "Historia" and category_name("varia", "et") == "Varia"


def test_plain_questions_make_booklets_numbered_and_slotted_from_the_seed() -> None:
    questions = load_set(shipped_bank_dir() / "en" / "general.yaml").questions
    one = make_booklets(questions, BOOKLETS, seed=7)
    assert make_booklets(questions, BOOKLETS, seed=7) == one
    assert make_booklets(questions, BOOKLETS, seed=8) != one
    rank = {"easy": 0, "medium": 1, "hard": 2}
    seen = set()
    for topic, cards in one.items():
        for card in cards:
            assert valid_number(card.extra["number"]) and card.topic == topic
            ranks = [rank.get(q.difficulty or "medium", 1) for q in card.questions]
            assert ranks == sorted(ranks), "slots rise in difficulty"
            seen.update(q.extra["source"] for q in card.questions)
    assert len(seen) == sum(len(c.questions) for cards in one.values() for c in cards), "no question twice"


def test_plain_questions_make_category_and_typed_cards() -> None:
    eesti = load_sets([GAMES / "eesti_malumang" / "content" / "en"])
    plain = [q for s in eesti for q in s.questions]
    cards = make_category_cards(plain, PROFILES["eesti-malumang"].topics, seed=3)
    # one question of each category per card: as many cards as the scarcest category has questions
    per_category = Counter(q.category for q in plain)
    assert len(cards) == min(per_category.values()) and all(len(c.questions) == 6 for c in cards)
    doubles = make_typed_cards(plain, "double", PROFILES["caida-libre"].topics, seed=3)
    assert doubles and all(len({q.extra["penalty"] for q in c.questions}) == 2 for c in doubles), (
        "the two questions of a double card have different penalties"
    )
    for card in doubles:
        a, b = card.questions
        order = {"easy": 0, "medium": 1, "hard": 2}
        if order[a.difficulty or "medium"] < order[b.difficulty or "medium"]:
            assert a.extra["penalty"] > b.extra["penalty"], "the easier question carries the bigger penalty"


def test_fit_counts_full_games_per_unit() -> None:
    """A game needs ``per_game`` of each unit; the bank feeds as many full games as its scarcest unit allows
    (the shipped content grows: the counts are read, the rule is what is checked)."""

    def full_games(report: Any) -> int:
        return min(count // per_game for _, count, per_game, _ in report.rows)

    carrera = load_sets([GAMES / "carrera_de_mente" / "content" / "es"])
    report = fit(carrera, PROFILES["carrera-de-mente"])
    questions = sum(len(card.questions) for qset in carrera for card in qset.cards)
    assert sum(row[1] for row in report.rows) == questions and all(row[2] == 30 for row in report.rows)
    assert report.games == full_games(report) >= 3
    halved = fit(carrera, PROFILES["carrera-de-mente"], per_game=50)
    assert halved.games == full_games(halved) < report.games or report.games == 0
    caida = load_sets([GAMES / "caida_libre" / "content" / "en"])
    cards = fit(caida, PROFILES["caida-libre"])
    assert cards.games == full_games(cards) >= 5 and {row[2] for row in cards.rows} == {6}
    eesti = load_sets([GAMES / "eesti_malumang" / "content" / "et"])
    box = sum(len(s.cards) for s in eesti)
    assert fit(eesti, PROFILES["eesti-malumang"]).games == box // 80  # about 80 cards are drawn in a game of four
    # Any bank feeds any game: Eesti's cards become booklets (no entertainment topic among them), one sport
    # question per card.
    crossed = fit(eesti, PROFILES["carrera-de-mente"], per_game=10)
    assert crossed.generated and dict((r[0], r[1]) for r in crossed.rows)["sports"] == box


def test_the_fit_command_reports_how_many_games_a_bank_feeds() -> None:
    runner = CliRunner()
    folder = str(GAMES / "caida_libre" / "content" / "es")
    result = runner.invoke(app, ["questions", "fit", folder, "--game", "caida-libre"])
    assert result.exit_code == 0, result.output
    expected = fit(load_sets([folder]), PROFILES["caida-libre"]).games
    assert re.search(rf"{expected}\s+full games of caida-libre", result.output)
    one_file = str(GAMES / "caida_libre" / "content" / "es" / "roulette.yaml")  # 30 questions: not one Eesti game
    result = runner.invoke(app, ["questions", "fit", one_file, "--game", "eesti-malumang"])
    assert result.exit_code == 1 and "0 full games" in result.output
    result = runner.invoke(app, ["questions", "fit", folder, "--game", "chess"])
    assert result.exit_code == 2 and "quiz games" in result.output


def test_the_validate_command_reads_set_files_as_they_are() -> None:
    result = CliRunner().invoke(
        app, ["questions", "validate", str(GAMES / "eesti_malumang" / "content"), "--no-duplicates"]
    )
    assert result.exit_code == 0, result.output
    assert "0 errors" in result.output


def test_a_numbers_third_slot_may_come_in_a_file_of_its_own_and_is_asked_after_the_first_two(tmp_path: Path) -> None:
    """A booklet cut into files: slots 1–2 of number 111 in one, slot 3 in another (as a booklet is filled in
    over time); both files are valid, and the game puts the number's slots together in order."""
    import mindtable
    from mindtable.games.carrera_de_mente.content import TOPICS, read_booklets

    def booklet(name: str, topic: str, items: str) -> None:
        (tmp_path / name).write_text(f"booklet: {topic}\nlanguage: en\nquestions:\n{items}", encoding="utf-8")

    for topic in TOPICS:
        # slot 3 first in file order: "a-…" sorts before "b-…"
        booklet(
            f"a-{topic}.yaml",
            topic,
            f"  - {{id: {topic}-111-3, number: 111, slot: 3, question: Hard {topic}?, answer: C}}\n",
        )
        booklet(
            f"b-{topic}.yaml",
            topic,
            f"  - {{id: {topic}-111-1, number: 111, slot: 1, question: Easy {topic}?, answer: A}}\n"
            f"  - {{id: {topic}-111-2, number: 111, slot: 2, question: Middle {topic}?, answer: B}}\n",
        )
    qset, problems = validate_set_text((tmp_path / "a-sports.yaml").read_text(encoding="utf-8"))
    assert qset is not None and not [p for p in problems if p.severity == "error"]
    numbers = dict(read_booklets("en", str(tmp_path))["booklets"]["sports"])
    assert [q["extra"]["slot"] for q in numbers[111]] == [1, 2, 3]
    match = mindtable.new_match("carrera-de-mente", 2, seed=1, options={"bank_file": str(tmp_path)})
    assert not match.is_over  # the group's booklets play
