"""The generic terminal plays any game from its view, legal actions and typed inputs (here the reference game)."""

from __future__ import annotations

import io
import json

from rich.console import Console
from typer.testing import CliRunner

import mindtable
from mindtable.cli import app
from mindtable.cli.table import run_table
from tests.reference_game import GAME

mindtable.register_game(GAME)


def scripted(answers: dict[str, list[str]], log: list[str]):
    """A reader that answers each prompt by what it asks for, in turn (the last answer repeats)."""

    def read(prompt: str) -> str:
        log.append(prompt)
        for start, replies in answers.items():
            if prompt.startswith(start):
                return replies.pop(0) if len(replies) > 1 else replies[0]
        return ""

    return read


def test_a_person_chooses_from_the_menu_and_types_an_answer_and_a_wager() -> None:
    match = mindtable.new_match("riddle-relay", players=2, seed=3, options={"target": 2})
    bot = mindtable.RandomBot(seat=1, seed=3)
    prompts: list[str] = []
    out = io.StringIO()
    run_table(
        match,
        [0],
        {1: bot},
        read=scripted({"> ": ["1"], "text": ["mars"], "wager": ["9", "2"]}, prompts),
        console=Console(file=out, width=100),
        clock=lambda: 0,
    )
    typed = [a for a in match.actions if a["type"] == "answer" and a["seat"] == 0]
    assert typed and all(a["text"] == "mars" for a in typed)
    assert "wager (1-3): " in prompts  # the number field says its range...
    assert "wager must be from 1 to 3" in out.getvalue()  # ...and 9 was refused in words, then asked again
    assert match.is_over and "Game over" in out.getvalue()


def test_hot_seat_asks_to_pass_the_keyboard_and_never_shows_the_askers_answer_to_the_answerer() -> None:
    match = mindtable.new_match("riddle-relay", players=2, seed=5, options={"target": 1})
    prompts: list[str] = []
    out = io.StringIO()
    run_table(
        match,
        [0, 1],
        {},
        read=scripted({"> ": ["1"], "text": ["no idea"], "wager": ["1"]}, prompts),
        console=Console(file=out, width=100),
        clock=lambda: 0,
    )
    assert any("Pass the keyboard" in line for line in out.getvalue().splitlines())
    assert match.actions  # both people played through the menu


def test_mindtable_play_runs_a_game_without_its_own_terminal(tmp_path) -> None:
    record = tmp_path / "game.json"
    result = CliRunner().invoke(
        app, ["play", "riddle-relay", "--players", "3", "--humans", "0", "--seed", "4", "--save", str(record)]
    )
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    assert mindtable.replay(json.loads(record.read_text())).is_over


def test_the_table_driver_hands_the_keyboard_over_between_people_and_can_stop_there() -> None:
    from mindtable.kit.table import TableDriver

    match = mindtable.new_match("riddle-relay", players=2, seed=5, options={"target": 3})
    table = TableDriver(match, [0, 1], {}, clock=lambda: 0)
    handed: list[int] = []

    def hand_over(seat: int) -> bool:
        handed.append(seat)
        return True

    seat = table.next_person(hand_over)
    assert seat is not None and handed == []  # the first person needs no hand-over
    for _ in range(20):  # play the first listed action without typed inputs until the other person is to act
        action = next(a for a in match.legal_actions(seat) if "inputs" not in a)
        table.apply({**action, "at": 0})
        following = table.next_person(hand_over)
        assert following is not None
        if following != seat:
            break
        assert handed == []  # the same person keeps the keyboard
    assert following != seat and handed == [following]
    # the next person does not take the keyboard: the driver stops there, nothing played, not stuck
    table.last_person = seat
    steps = len(match.actions)
    assert table.next_person(lambda _seat: False) is None
    assert len(match.actions) == steps and not table.stuck and not match.is_over


def test_the_generic_terminal_speaks_spanish_and_estonian() -> None:
    """A new game is playable in every language of the site on its first day: prompts, menu, refusals, the end."""
    for language, said, unsaid in (
        (
            "es",
            [
                "2 asientos; juegas como Jugador 1.",
                "Jugador 1: te toca.",
                "(escribe: text",
                "wager debe estar entre 1 y 3",
                "Fin de la partida",
            ],
            ["your turn", "Game over", "(type:", "must be from"],
        ),
        (
            "et",
            [
                "2 kohta; sina mängid: Mängija 1.",
                "Mängija 1, sinu käik.",
                "(kirjuta: text",
                "wager peab jääma vahemikku 1–3",
                "Mäng on läbi",
            ],
            ["your turn", "Game over", "(type:", "must be from"],
        ),
    ):
        match = mindtable.new_match("riddle-relay", players=2, seed=3, options={"target": 2})
        prompts: list[str] = []
        out = io.StringIO()
        run_table(
            match,
            [0],
            {1: mindtable.RandomBot(seat=1, seed=3)},
            read=scripted({"> ": ["1"], "text": ["mars"], "wager": ["9", "2"]}, prompts),
            console=Console(file=out, width=200),
            clock=lambda: 0,
            language=language,
        )
        text = out.getvalue()
        assert match.is_over
        for words in said:
            assert words in text, (language, words)
        for words in unsaid:
            assert words not in text, (language, words)
        assert "wager (1-3): " in prompts if language == "es" else "wager (1–3): " in prompts
