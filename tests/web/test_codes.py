"""Every reason code has words in every page language: the core's and the shared quiz step's in the shell's
strings, each game's in its page's strings or the shell's (en, es, et; a page looks in its own first), with no
parameter the engine does not send. Pages never parse English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import mindtable
from mindtable.core.codes import CORE_CODES, CORE_SEAT_PARAMS, template_fields
from mindtable.kit.words import page_folder
from mindtable.trivia.quiz import ASK_CODES
from mindtable.web import STATIC_DIR

LANGUAGES = ("en", "es", "et")


def strings(folder: Path, lang: str) -> dict[str, str]:
    path = folder / f"{lang}.json"
    assert path.exists(), f"{path} is missing"
    return json.loads(path.read_text(encoding="utf-8"))


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def check(codes: dict[str, str], *folders: Path) -> list[str]:
    """Problems with the words of ``codes`` in the tables of ``folders`` (the first that has a key wins)."""
    problems = []
    for lang in LANGUAGES:
        table: dict[str, str] = {}
        for folder in reversed(folders):
            table.update(strings(folder, lang))
        for code, template in codes.items():
            text = table.get(f"error.{code}")
            if text is None:
                problems.append(f"{folders[0].name}/{lang}.json: no words for the code {code!r}")
            elif not placeholders(text) <= template_fields(template):
                extra = placeholders(text) - template_fields(template)
                problems.append(f"{lang}: error.{code} uses {sorted(extra)}, which the engine does not send")
    return problems


def test_core_codes_are_translated() -> None:
    assert check(CORE_CODES, STATIC_DIR / "i18n") == []


def test_the_quiz_steps_codes_are_in_the_shells_strings() -> None:
    """A quiz game's page carries none of the ask step's words: the site's tables have them."""
    assert check(ASK_CODES, STATIC_DIR / "i18n") == []


@pytest.mark.parametrize("game_id", [g for g in mindtable.available_game_ids() if mindtable.get_game(g).web_module])
def test_game_codes_are_translated_on_the_game_page(game_id: str) -> None:
    game = mindtable.get_game(game_id)
    assert check(dict(game.codes), page_folder(str(game.web_module)) / "i18n", STATIC_DIR / "i18n") == []


def test_no_page_parses_engine_sentences() -> None:
    offenders = [
        str(path.relative_to(STATIC_DIR))
        for path in STATIC_DIR.rglob("*.js")
        if re.search(r"does not hold|\.startsWith\(\"needs ", path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


@pytest.mark.parametrize("game_id", mindtable.available_game_ids())
def test_declared_seat_parameters_are_parameters_of_their_codes(game_id: str) -> None:
    """What a game (or the core) declares as naming a seat is a parameter its code's template really sends."""
    game = mindtable.get_game(game_id)
    declared = {**CORE_SEAT_PARAMS, **game.seat_params}
    templates = {**CORE_CODES, **game.codes}
    wrong = [
        f"{code}.{name}"
        for code, names in declared.items()
        for name in names
        if code not in templates or name not in template_fields(templates[code])
    ]
    assert wrong == []


@pytest.mark.parametrize("game_id", mindtable.available_game_ids())
def test_every_parameter_a_template_calls_a_seat_is_declared_as_one(game_id: str) -> None:
    """A template that says "seat {x}" sends a seat number in ``x``: the game declares it, so pages and the
    terminal can show that player's name (and rejected frames list it under ``"seats"``)."""
    game = mindtable.get_game(game_id)
    declared = {**CORE_SEAT_PARAMS, **game.seat_params}
    missing = [
        f"{code}.{name}"
        for code, template in {**CORE_CODES, **game.codes}.items()
        for name in re.findall(r"\bseat \{(\w+)\}", template)
        if name not in declared.get(code, ())
    ]
    assert missing == []


@pytest.mark.parametrize("game_id", [g for g in mindtable.available_game_ids() if mindtable.get_game(g).web_module])
def test_declared_label_parameters_are_sent_and_every_page_language_has_their_labels(game_id: str) -> None:
    """A parameter declared as an id with a label (``Game.label_params``) is one its code's template sends, and
    every language of the game's page has labels under its prefix, so the page never shows a bare id."""
    game = mindtable.get_game(game_id)
    templates = {**CORE_CODES, **game.codes}
    folder = page_folder(str(game.web_module)) / "i18n"
    problems = []
    for code, names in game.label_params.items():
        for name, prefix in names.items():
            if code not in templates or name not in template_fields(templates[code]):
                problems.append(f"{code}.{name} is not sent")
            for lang in LANGUAGES:
                if not any(key.startswith(prefix + ".") for key in strings(folder, lang)):
                    problems.append(f"{lang}.json has no labels {prefix}.*")
    assert problems == []


def test_the_quiz_games_label_every_colour_topic_and_category_they_can_send() -> None:
    """The ids the quiz games send in refusals (Carrera's prize colours and booklet topics, Eesti's categories)
    each have a label in every language of their pages."""
    from mindtable.games.carrera_de_mente.content import PRIZE_COLOURS, TOPICS
    from mindtable.games.eesti_malumang.rules import CATEGORIES

    for page, ids in (
        ("carrera-de-mente", [f"cm.colour.{c}" for c in PRIZE_COLOURS] + [f"cm.topic.{t}" for t in TOPICS]),
        ("eesti-malumang", [f"em.category.{c}" for c in CATEGORIES]),
    ):
        for lang in LANGUAGES:
            table = strings(page_folder(page) / "i18n", lang)
            assert [key for key in ids if key not in table] == [], (page, lang)


#: The page's own reading of a refusal's parameters (js/reasons.js), with a game's strings for two colours.
REASON_WORDS = """async ([err]) => {
  const { labelWords, seatWords } = await import("/js/reasons.js");
  const words = { "cm.colour.green": "verde", "cm.colour.pink": "rosa" };
  const t = (key) => words[key] ?? key;
  t.has = (key) => key in words;
  return labelWords(seatWords(err.params, err.seats, (s) => ["Ana", "Beto", "Carla"][s]), err.labels, t);
}"""


@pytest.mark.browser
def test_a_page_says_seats_by_name_and_ids_by_their_labels(browser, server_url: str) -> None:
    """What the server marks in a rejected frame (``seats``, ``labels``) is what the page turns into words: names
    for seats, the game's labels for ids (an id without a label stays as it is), lists joined."""
    page = browser.new_page()
    page.goto(f"{server_url}/index.html")
    err = {
        "params": {"victim": 1, "colour": "pink", "allowed": ["green", "cobalt"], "waiting": [0, 2], "level": 3},
        "seats": ["victim", "waiting"],
        "labels": {"colour": "cm.colour", "allowed": "cm.colour"},
    }
    assert page.evaluate(REASON_WORDS, [err]) == {
        "victim": "Beto",
        "colour": "rosa",
        "allowed": "verde, cobalt",
        "waiting": "Ana, Carla",
        "level": 3,
    }
    page.close()
