"""The terminal: a whole game with a person at the keyboard and bots, the board drawn as text; and simulate."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

import mindtable
from mindtable.cli.app import app
from mindtable.games.eesti_malumang.terminal import render_board, run_terminal


def test_a_whole_game_in_the_terminal_with_a_person_and_a_bot() -> None:
    match = mindtable.new_match("eesti-malumang", players=2, seed=5, options={"variant": "outer_track"})
    game = match.game
    keys = itertools.cycle(["3", "2", "1"])
    reads = 0

    def read(prompt: str) -> str:
        nonlocal reads
        reads += 1
        if reads > 20_000:
            raise EOFError
        return next(keys)

    out = io.StringIO()
    run_terminal(
        match,
        [0],
        {1: game.make_bot("knowing", seat=1, seed=1)},
        read=read,
        console=Console(file=out, width=120),
        clock=lambda: match.clock,
    )
    assert match.is_over
    text = out.getvalue()
    assert "[E" in text and "A Ajalugu" in text  # the board as text, not its JSON
    assert '"squares"' not in text


def test_the_board_as_text_shows_the_pieces() -> None:
    match = mindtable.new_match("eesti-malumang", players=2, seed=5)
    lines = render_board(match.view(0)["board"], ["nw", "nw"]).splitlines()
    assert lines[0].startswith("[E01 ]") and len(lines) == 10


def test_simulate_writes_json_and_a_plot(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "simulate",
            "eesti-malumang",
            "-n",
            "6",
            "-p",
            "3",
            "-w",
            "1",
            "--json",
            str(tmp_path / "s.json"),
            "--plot",
            str(tmp_path / "s.png"),
            "-o",
            "variant=outer_track",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["game"] == "eesti-malumang" and summary["games"] == 6
    assert (tmp_path / "s.png").stat().st_size > 0
