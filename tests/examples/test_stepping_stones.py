"""The example plugin (examples/stepping-stones): installed as a separate package, it plays by its rules through
the shared quiz step, in the generic terminal, and within the size its README states. The project's own
conformance and page-word tests run over it as over every registered game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mindtable
from mindtable.cli.app import app
from mindtable.core.errors import InvalidOptions

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "stepping-stones"

if "stepping-stones" not in mindtable.available_game_ids():
    pytest.skip(
        "the example plugin is not installed: pip install -e examples/stepping-stones (scripts/test.sh does)",
        allow_module_level=True,
    )

BANK = """title: Three questions
language: en
questions:
  - {id: q1, question: Which planet is known as the Red Planet?, answer: MARS, options: [Venus, Mars, Jupiter]}
  - {id: q2, question: How many legs has a spider?, answer: "8", options: ["6", "8", "10"]}
  - {id: q3, question: Which metal is liquid at room temperature?, answer: MERCURY, options: [Tin, Mercury, Lead]}
"""
ANSWERS = {
    "Which planet is known as the Red Planet?": "Mars",
    "How many legs has a spider?": "8",
    "Which metal is liquid at room temperature?": "mercury",
}


def game(tmp_path: Path, players: int = 2, stones: int = 3) -> mindtable.Match:
    bank = tmp_path / "bank.yaml"
    bank.write_text(BANK, encoding="utf-8")
    return mindtable.new_match("stepping-stones", players, seed=2, options={"bank_file": str(bank), "stones": stones})


def asked(match: mindtable.Match) -> tuple[int, int, str]:
    """Who answers, who reads, and the question now asked."""
    ask = match.view(None)["ask"]
    return ask["answerers"][0], ask["reader"], ask["question"]["prompt"]


def answer(match: mindtable.Match, right: bool, options: bool = False) -> None:
    seat, reader, prompt = asked(match)
    if options:
        match.apply({"type": "ask_options", "seat": seat})
    match.apply({"type": "ask_answer", "seat": seat, "text": ANSWERS[prompt] if right else "no idea"})
    match.apply({"type": "ask_confirm", "seat": reader})


def test_the_player_on_the_left_reads_and_only_they_see_the_answer(tmp_path: Path) -> None:
    match = game(tmp_path, players=3)
    seat, reader, prompt = asked(match)
    assert (seat, reader) == (0, 1)
    answer_text = json.dumps(match.view(reader)["ask"]["card"])
    assert ANSWERS[prompt].upper() in answer_text.upper()
    for other in (0, 2, None):
        assert ANSWERS[prompt].upper() not in json.dumps(match.view(other)).upper()


def test_a_straight_answer_moves_two_stones_with_the_options_one_and_a_wrong_one_none(tmp_path: Path) -> None:
    match = game(tmp_path, stones=5)
    answer(match, right=True)
    assert match.view(None)["stones"] == [2, 0] and asked(match)[:2] == (1, 0)  # the turn passes to the left
    answer(match, right=True, options=True)
    assert match.view(None)["stones"] == [2, 1]
    answer(match, right=False)
    assert match.view(None)["stones"] == [2, 1] and match.view(None)["last"]["correct"] is False


def test_the_first_across_wins_and_when_the_questions_run_out_the_furthest_wins(tmp_path: Path) -> None:
    match = game(tmp_path, stones=2)
    answer(match, right=True)
    result = match.result
    assert result is not None and result.winners == (0,) and result.reason == "far_bank"
    match = game(tmp_path, stones=9)
    for right in (True, True, False):
        answer(match, right)
    result = match.result
    assert result is not None and result.reason == "questions_out" and result.winners == (0, 1)  # 2 and 2: shared


def test_a_bank_that_cannot_be_read_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(InvalidOptions, match="bank_file"):
        mindtable.new_match("stepping-stones", 2, seed=1, options={"bank_file": str(tmp_path / "missing.yaml")})


def test_it_plays_in_the_generic_terminal_with_no_terminal_of_its_own(tmp_path: Path) -> None:
    assert mindtable.get_game("stepping-stones").terminal is None
    record = tmp_path / "game.json"
    result = CliRunner().invoke(
        app, ["play", "stepping-stones", "--players", "3", "--humans", "0", "--seed", "4", "--save", str(record)]
    )
    assert result.exit_code == 0, result.output
    assert "Game over (reached the far bank)" in result.output  # the plugin's own words for its result
    assert mindtable.replay(json.loads(record.read_text())).is_over


def test_the_readme_states_its_true_size_within_the_limits() -> None:
    """Rules, declarations and views in at most 150 lines of Python, the page in at most 40 lines of JavaScript,
    and page strings that are only its own (no ask step or judge words copied from the site)."""
    readme = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    python = len((EXAMPLE / "stepping_stones" / "__init__.py").read_text(encoding="utf-8").splitlines())
    script = len((EXAMPLE / "stepping_stones" / "web" / "index.js").read_text(encoding="utf-8").splitlines())
    assert f"{python} lines of Python" in readme and python <= 150
    assert f"{script} lines of JavaScript" in readme and script <= 40
    site = json.loads((Path(mindtable.__file__).parent / "web" / "static" / "i18n" / "en.json").read_text())
    for lang in ("en", "es", "et"):
        own = json.loads((EXAMPLE / "stepping_stones" / "web" / "i18n" / f"{lang}.json").read_text())
        assert not set(own) & set(site), f"{lang}.json copies the site's words"
        assert all(re.match(r"(game|ss|result|option|bot)\.", key) for key in own)
