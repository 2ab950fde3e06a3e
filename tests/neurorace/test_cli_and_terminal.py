"""The `mindtable neurorace` commands and a scripted terminal game."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

import mindtable
from mindtable.games.neurorace.bots import SolverBot
from mindtable.games.neurorace.cli import app
from mindtable.games.neurorace.terminal import parse_command, run_terminal

runner = CliRunner()


def test_deck_verify_and_tiles_verify_pass_on_the_shipped_data() -> None:
    result = runner.invoke(app, ["deck", "verify"])
    assert result.exit_code == 0 and "OK: 90 cards, 180 tasks" in result.output
    assert runner.invoke(app, ["tiles", "verify"]).exit_code == 0


def test_deck_verify_names_the_line_of_a_broken_file(tmp_path: Path) -> None:
    bad = tmp_path / "deck.txt"
    bad.write_text("1 1 A: sun sun sun\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "verify", "--file", str(bad)])
    assert result.exit_code == 2 and "line 1" in result.output and "exactly 7 places" in result.output


def test_deck_curve_prints_levels_and_writes_a_plot(tmp_path: Path) -> None:
    plot = tmp_path / "curve.png"
    result = runner.invoke(app, ["deck", "curve", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert plot.read_bytes()[:4] == b"\x89PNG"
    assert "median" in result.output


def test_task_parse_explains_and_solves_or_points_at_the_error() -> None:
    result = runner.invoke(app, ["task", "parse", "sun [red] blue-moon < 4_ _7 > lightning purple-sun"])
    assert result.exit_code == 0 and "any symbol in red" in result.output and "a solution" in result.output
    bad = runner.invoke(app, ["task", "parse", "sun [pink] moon"])
    assert bad.exit_code == 2 and "column 5" in bad.output
    impossible = runner.invoke(app, ["task", "parse", "9_ < 0_ sun sun sun sun sun"])
    assert impossible.exit_code == 1 and "cannot be completed" in impossible.output


def test_the_game_exposes_its_commands_and_terminal() -> None:
    game = mindtable.get_game("neurorace")
    assert game.cli_commands == "mindtable.games.neurorace.cli:app"
    assert game.terminal == "mindtable.games.neurorace.terminal:run_terminal"
    assert game.realtime and set(game.bots) == {"solver", "random"}


def test_commands_become_actions() -> None:
    assert parse_command("t 12", 0) == (0, {"type": "take", "spot": 12})
    assert parse_command("1: f", 0) == (1, {"type": "turn"})
    assert parse_command("f 3", 0) == (0, {"type": "turn", "spot": 3})
    assert parse_command("stop", 2) == (2, {"type": "stop"})
    assert parse_command("q", 0) == "quit"


def test_a_scripted_solo_session_against_the_clock() -> None:
    match = mindtable.new_match("neurorace", players=2, seed=1, options={"last_level": 1})
    script = iter(["s", "t 3", "f", "p", "t 99", "zz", None, None, None, "q"])
    clock = [0.0]

    def read(timeout: float | None) -> str | None:
        clock[0] += 0.4 if timeout is None else min(timeout, 0.4)
        return next(script, "q")

    out = io.StringIO()
    run_terminal(
        match,
        [0],
        {1: SolverBot(seat=1, seed=1)},
        console=Console(file=out, width=120),
        read_line=read,
        clock=lambda: clock[0],
    )
    text = out.getvalue()
    assert "bad_spot" in text and "unknown command 'zz'" in text
    assert match.state["players"][0]["slots"][0] is not None
    assert any(a["seat"] == 1 for a in match.actions)  # the bot played in between
    assert all(b["at"] >= a["at"] for a, b in zip(match.actions, match.actions[1:], strict=False))


def test_the_terminal_delivers_the_solo_timer_on_the_wall_clock() -> None:
    match = mindtable.new_match("neurorace", players=1, seed=2, options={"solo_seconds": 5})
    script = iter(["s", None, "v", "q"])
    clock = [0.0]

    def read(timeout: float | None) -> str | None:
        clock[0] += 0.1 if timeout is None else timeout
        return next(script, "q")

    out = io.StringIO()
    run_terminal(match, [0], {}, console=Console(file=out, width=120), read_line=read, clock=lambda: clock[0])
    assert match.state["players"][0]["losses"] == 1
    assert [a["type"] for a in match.actions] == ["start", "time_up"]
    assert "time is up" in out.getvalue()
