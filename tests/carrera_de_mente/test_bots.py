"""The knowing bot plays like one of a group of ordinary players: what it knows per booklet, what the options
give it when it does not know, and how long a game of four default bots lasts (docs/rules, "Bots")."""

from __future__ import annotations

import copy
import re

import pytest
from typer.testing import CliRunner

import mindtable
from mindtable.cli.app import app
from mindtable.core.bot_params import validate_bot_params
from mindtable.core.bots import Observation
from mindtable.core.errors import InvalidOptions
from mindtable.games.carrera_de_mente import bots, rules
from mindtable.sim import run_simulation
from mindtable.trivia.model import OPTION_LETTERS
from tests.carrera_de_mente.helpers import GAME_ID, only, position, question, roll_number

PINK_SQUARE, ORANGE_STAR = 4, 6
WITH_OPTIONS = question("b", "SALZBURG", options=["Vienna", "Salzburg", "Linz"], correct=1)


def english_questions(with_options: bool) -> list[dict]:
    state = mindtable.new_match(GAME_ID, players=2, seed=1).state
    return [
        q
        for topic in rules.TOPICS
        for _, qs in rules.booklet(state, topic)
        for q in qs
        if bool(q.get("options")) == with_options and q["kind"] == "text"
    ]


def decide_on(view: dict, legal: list[dict], q: dict, bot: object) -> dict:
    """The bot's answer to ``q`` put to it in the situation of ``view`` (the same table, another question)."""
    seen = copy.deepcopy(view)
    shown = seen["ask"]["question"]
    shown.update(prompt=q["prompt"], category=q["category"])
    if "options" in shown:
        shown["options"] = list(q["options"])
    return bot.decide(Observation(0, seen, legal, 0)).action  # type: ignore[attr-defined]


def test_with_the_options_read_out_a_bot_that_does_not_know_does_a_little_better_than_a_guess() -> None:
    match = position(pegs=[PINK_SQUARE, 20, 30], arrive=True, edit=only(WITH_OPTIONS))
    roll_number(match)
    match.apply({"type": "ask_options", "seat": 0})
    view, legal = match.view(0), match.legal_actions(0)
    guessed = right = expected = 0.0
    remembered = 0
    for seed in range(3):
        bot = bots.make_bot(0, seed=seed)
        profile = bot.profile
        for q in english_questions(with_options=True):
            said = decide_on(view, legal, q, bot)["text"]
            if said not in OPTION_LETTERS[:3]:  # it remembered the answer and said it
                remembered += 1
                continue
            guessed += 1
            right += said == OPTION_LETTERS[q["correct"]]
            expected += profile.options_chance(q["category"], q.get("difficulty"), 3)
    assert guessed > 400 and remembered > 300  # about half remembered at the default knows 0.45
    rate = right / guessed
    assert abs(rate - expected / guessed) < 0.05  # the model: chance × 0.25 recognised, else a guess among three
    assert 1 / 3 < rate < 0.5  # a little better than a guess, nothing like the sure 70 % of the shared default


def test_a_bot_knows_its_strong_booklets_better_and_passes_when_the_options_may_not_be_asked() -> None:
    match = position(pegs=[ORANGE_STAR, 20, 30], arrive=True, edit=only(WITH_OPTIONS))
    roll_number(match)  # a star: direct answers only
    view, legal = match.view(0), match.legal_actions(0)
    assert "ask_options" not in [a["type"] for a in legal]
    questions = english_questions(with_options=False) + english_questions(with_options=True)
    rates = {}
    for seat in range(4):
        bot = bots.make_bot(seat, seed=5)
        per_booklet = bots.booklet_knowledge(seat, 5, bots.KNOWS, bots.SPREAD)
        strong = max(per_booklet, key=per_booklet.__getitem__)
        weak = min(per_booklet, key=per_booklet.__getitem__)
        said = {t: [decide_on(view, legal, q, bot) for q in questions if q["category"] == t] for t in (strong, weak)}
        for topic, actions in said.items():
            assert {a["type"] for a in actions} <= {"ask_answer", "ask_pass"}
            rates[seat, topic] = sum(a["type"] == "ask_answer" for a in actions) / len(actions)
        assert rates[seat, strong] > rates[seat, weak] + 0.1  # 0.60 against 0.30 before difficulty
        assert 0.15 < rates[seat, weak] < 0.45 and 0.4 < rates[seat, strong] < 0.75


def test_four_default_bots_play_a_game_of_plausible_length() -> None:
    run = run_simulation(GAME_ID, players=4, bot="knowing", games=8, seed=0, workers=1)
    summary = run.summary
    turns = summary["progress"]["mean"]
    per_turn = summary["details"]["answers_in_turn"]
    # about 15 rounds of four turns, two or three answers a turn (the bot that knew too much: ~33 and ~3.9)
    assert 40 <= turns <= 90, turns
    assert 1.8 <= per_turn["mean"] <= 3.0, per_turn
    assert per_turn["max"] < 25


def test_the_experts_bot_never_asks_for_the_options_and_knowing_more_still_wins_more() -> None:
    run = run_simulation(
        GAME_ID,
        players=2,
        bot="knowing",
        games=12,
        seed=3,
        workers=1,
        options={"board": "small", "variant_experts": True},
        vary=("knows", [0.2, 0.8]),
    )
    rows = {r["value"]: r for r in run.summary["wins_by_value"]["values"]}
    assert rows["0.8"]["wins"] > rows["0.2"]["wins"]


def test_bot_parameters_are_checked_by_type_and_range_before_a_game() -> None:
    game = mindtable.get_game(GAME_ID)
    assert validate_bot_params(game, "knowing", {"knows": 0.3, "spread": 0, "think_ms": 800}) == {
        "knows": 0.3,
        "spread": 0.0,
        "think_ms": 800,
    }
    with pytest.raises(ValueError, match=r"parameter 'knows' must be a finite number from 0 to 1, got 1\.5"):
        validate_bot_params(game, "knowing", {"knows": 1.5})
    with pytest.raises(InvalidOptions, match=r"vary 'knows': parameter 'knows' must be a finite number from 0 to 1"):
        run_simulation(GAME_ID, players=2, bot="knowing", games=2, workers=1, vary=("knows", [0.5, "abc"]))
    with pytest.raises(InvalidOptions, match=r"unknown parameter 'by_topic' for bot 'knowing'; its parameters: knows"):
        run_simulation(GAME_ID, players=2, bot="knowing", games=2, workers=1, bot_params={"by_topic": 2})
    result = CliRunner().invoke(app, ["simulate", GAME_ID, "--games", "2", "--vary", "knows=abc"], terminal_width=300)
    assert result.exit_code == 2, result.output
    text = re.sub(r"\s+", " ", result.output)
    assert "vary 'knows': parameter 'knows' must be a finite number from 0 to 1, got 'abc'" in text
    assert "Traceback" not in result.output
