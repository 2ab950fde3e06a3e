"""Carrera de Mente on the terminal (the generic table) and in simulations."""

from __future__ import annotations

import io

from rich.console import Console

import mindtable
from mindtable.cli.table import run_table
from mindtable.sim.runner import run_simulation

GAME_ID = "carrera-de-mente"


def test_the_generic_terminal_plays_a_whole_game_with_a_person_and_bots() -> None:
    match = mindtable.new_match(GAME_ID, players=3, seed=4, options={"board": "small", "variant_short": True})
    game = match.game
    bots = {s: game.make_bot("knowing", s, seed=4, knows=0.8) for s in (1, 2)}
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("text"):
            return "no idea"
        if prompt != "> ":
            return ""
        legal = [a["type"] for a in match.legal_actions(0)]
        return str(legal.index("ask_answer") + 1) if "ask_answer" in legal else "1"

    out = io.StringIO()
    run_table(match, [0], bots, read=read, console=Console(file=out, width=120), clock=lambda: 0)
    assert match.is_over and "Game over" in out.getvalue()
    mine = [a["type"] for a in match.actions if a.get("seat") == 0]
    assert "roll" in mine and "roll_number" in mine and "ask_answer" in mine


def test_simulate_reports_game_length_for_bot_games() -> None:
    run = run_simulation(GAME_ID, players=3, bot="knowing", games=6, seed=1, options={"board": "small"}, workers=1)
    assert run.tally.games == 6
    assert sum(run.tally.progress.values()) == 6  # the game length (turns) of every game
