"""The language a terminal speaks: ``--language``, else the match's language option, else the locale, else English."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
from typer.testing import CliRunner

from mindtable.cli.app import app
from mindtable.core.bots import Bot
from mindtable.core.driver import play_out
from mindtable.core.match import Match, new_match
from mindtable.games.eesti_malumang import terminal as eesti_terminal
from mindtable.games.the_mind import terminal as mind_terminal

runner = CliRunner()


@pytest.fixture
def no_locale(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No locale set (tests/conftest.py clears it for every test); set one with ``setenv``."""
    return monkeypatch


def record_language(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[str | None]:
    """Replace the module's terminal hook by one that notes the language it was given and plays nothing."""
    seen: list[str | None] = []

    def run_terminal(
        match: Match, human_seats: list[int], bots: Mapping[int, Bot], *, language: str | None = None
    ) -> None:
        seen.append(language)

    monkeypatch.setattr(module, "run_terminal", run_terminal)
    return seen


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        (["eesti-malumang"], {}, "et"),  # the game's language option: its questions are in Estonian
        (["eesti-malumang", "-o", "language=en"], {"LANG": "et_EE.UTF-8"}, "en"),  # the option beats the locale
        (["eesti-malumang", "--language", "es"], {}, "es"),  # the flag beats the option
        (["the-mind"], {"LANG": "es_AR.UTF-8"}, "es"),  # no language option: the person's locale
        (["the-mind"], {"LC_ALL": "C", "LANG": "et_EE.UTF-8"}, "en"),  # LC_ALL first; C means English
        (["the-mind"], {}, "en"),
        (["the-mind", "-l", "et"], {"LANG": "es_ES.UTF-8"}, "et"),
    ],
)
def test_play_hands_the_screen_the_language_it_should_speak(
    no_locale: pytest.MonkeyPatch, args: list[str], env: dict[str, str], expected: str
) -> None:
    for name, value in env.items():
        no_locale.setenv(name, value)
    module = eesti_terminal if args[0] == "eesti-malumang" else mind_terminal
    seen = record_language(no_locale, module)
    result = runner.invoke(app, ["play", *args, "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert seen == [expected]


def test_an_unknown_language_is_refused_naming_the_ones_there_are(no_locale: pytest.MonkeyPatch) -> None:
    seen = record_language(no_locale, mind_terminal)
    result = runner.invoke(app, ["play", "the-mind", "--language", "fr"])
    assert result.exit_code == 2
    assert "--language must be one of en, es, et, got 'fr'" in " ".join(result.output.split())
    assert seen == []  # nothing started


def test_a_screen_that_takes_no_language_is_called_without_one(no_locale: pytest.MonkeyPatch) -> None:
    """A plugin's terminal written before screens spoke languages keeps working, in its own words."""
    seen: list[int] = []

    def run_terminal(match: Match, human_seats: list[int], bots: Mapping[int, Bot]) -> None:
        seen.append(match.players)

    no_locale.setattr(mind_terminal, "run_terminal", run_terminal)
    result = runner.invoke(app, ["play", "the-mind", "--language", "es", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert seen == [2]


def test_the_estonian_game_speaks_english_when_asked(no_locale: pytest.MonkeyPatch) -> None:
    """The whole way through: a bots-only game of Eesti mälumäng in English, though its questions default to
    Estonian, says its welcome and the end of the game in English."""
    result = runner.invoke(app, ["play", "eesti-malumang", "--humans", "0", "--seed", "4", "--language", "en"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Bots play every seat; you watch." in out and "The game is over." in out
    assert "Botid" not in out and "Mäng on läbi" not in out
    assert "Seed 4: play the same deals again with --seed 4." in out


def test_the_closing_lines_of_play_speak_the_screen_language(no_locale: pytest.MonkeyPatch, tmp_path: Any) -> None:
    record_language(no_locale, mind_terminal)
    saved = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "the-mind", "--seed", "9", "-l", "es", "--save", str(saved)], terminal_width=400
    )
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Semilla 9: juega las mismas manos otra vez con --seed 9." in out
    assert "Partidaguardadaen" + str(saved).replace(" ", "") in "".join(out.split())  # a long path may wrap
    assert "para verla de nuevo: `mindtable replay" in out


def test_replay_speaks_the_chosen_language(tmp_path: Any) -> None:
    """The replay's own lines (heading, each step, the hands at the end, the result) in Spanish and Estonian."""
    match = new_match("the-mind", players=2, seed=4, options={"last_level": 2, "lives": 1})
    game = match.game
    play_out(match, {seat: game.make_bot("random-timing", seat=seat, seed=4) for seat in range(2)})
    assert match.result is not None and match.result.reason == "lost"
    path = tmp_path / "lost.json"
    path.write_text(json.dumps(match.record()))
    total = len(match.actions)
    for language, said, unsaid in (
        (
            "es",
            [
                "lo ves como asiento 1",
                "Comienzo de la partida",
                f"Acción {total}/{total}",
                "Vista (asiento 1):",
                "Todas las manos, ahora que la partida terminó:",
                "Resultado: ganadores [], puntos",
            ],
            ["Start of the game", "watching as", "Every hand", "Result:"],
        ),
        (
            "et",
            ["vaade: koht 1", "Mängu algus", f"Käik {total}/{total}", "Kõigi mängijate käed", "Tulemus: võitjad"],
            ["Start of the game", "Action ", "Result:"],
        ),
    ):
        result = runner.invoke(
            app,
            ["replay", str(path), "--seat", "1", "--table", "--auto", "--delay", "0", "-l", language],
            terminal_width=160,
        )
        assert result.exit_code == 0, result.output
        for text in said:
            assert text in result.output, (language, text)
        for text in unsaid:
            assert text not in result.output, (language, text)
