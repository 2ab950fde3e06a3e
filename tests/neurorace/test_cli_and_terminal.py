"""The `mindtable neurorace` commands and a scripted terminal game."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import mindtable
from mindtable.games.neurorace.bots import SolverBot
from mindtable.games.neurorace.cli import app
from mindtable.games.neurorace.components import TILES
from mindtable.games.neurorace.deck import CARDS
from mindtable.games.neurorace.solver import solve
from mindtable.games.neurorace.tasks import format_task
from mindtable.games.neurorace.terminal import parse_command, resolve_tile, run_terminal, task_line
from tests.neurorace.keyboard import Keyboard

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
    assert parse_command("t 12", 0) == (0, {"type": "take", "number": 12})
    assert parse_command("t 7 red", 0) == (0, {"type": "take", "number": 7, "colour": "red"})
    assert parse_command("1: f", 0) == (1, {"type": "turn"})
    assert parse_command("f 3", 0) == (0, {"type": "turn", "number": 3})
    assert parse_command("s", 0) == (0, {"type": "ready"})
    assert parse_command("stop", 2) == (2, {"type": "stop"})
    assert parse_command("q", 0) == "quit"
    with pytest.raises(ValueError, match="type the number on the tile after 't'"):
        parse_command("t", 0)


def test_a_tile_is_picked_by_the_number_on_it() -> None:
    view = {
        "centre": [
            {"spot": 4, "up": {"symbol": "sun", "colour": "red", "number": 42}},
            {"spot": 9, "up": {"symbol": "moon", "colour": "blue", "number": 42}},
            {"spot": 11, "up": {"symbol": "moon", "colour": "green", "number": 7}},
        ]
    }
    assert resolve_tile(view, 7) == 11
    assert resolve_tile(view, 42, "blue") == 9
    with pytest.raises(ValueError, match="2 tiles show 42: say which, t 42 blue or t 42 red"):
        resolve_tile(view, 42)
    with pytest.raises(ValueError, match="no tile in the centre shows 13 face up"):
        resolve_tile(view, 13)


def solo_commands(match: mindtable.Match) -> list[str]:
    """The lines that lay a correct card: take each tile of a solution by its number (turning it first if the
    side needed lies down), place it; then stop."""
    state = match.state
    player = state["players"][0]
    layout = solve(CARDS[player["card"]].tasks[player["side"]], [TILES[t] for t, _ in state["centre"]])
    assert layout is not None
    lines = []
    for item, side in layout:
        tile, up = state["centre"][item]
        shown = TILES[tile][side]
        colour = "all" if shown[1] == "any" else shown[1]
        if up != side:
            lines.append(f"f {TILES[tile][up][2]} {'all' if TILES[tile][up][1] == 'any' else TILES[tile][up][1]}")
        lines += [f"t {shown[2]} {colour}", "p"]
    return [*lines, "stop"]


def test_solo_start_to_finish_at_the_keyboard_on_a_virtual_clock() -> None:
    match = mindtable.new_match("neurorace", players=1, seed=6, options={"last_level": 1})
    queue: list[str] = ["zz", "t 5", "s"]

    def plan(me: Keyboard) -> str | None:
        view = match.view(0)
        if queue:
            return queue.pop(0)
        if view["phase"] == "playing" and "stop" not in me.typed:
            queue.extend(solo_commands(match))
            return queue.pop(0)
        return None

    me = Keyboard(plan)
    out = io.StringIO()
    run_terminal(match, [0], {}, console=Console(file=out, width=80), read_line=me.read, clock=me.clock)
    text = out.getvalue()
    assert match.result is not None and match.result.reason == "master"
    assert [a["type"] for a in match.actions][:2] == ["ready", "go"]
    go = match.actions[1]["at"]
    assert go == match.actions[0]["at"] + 3000  # the 3-2-1 ran before the timer started
    assert "3..." in text and "2..." in text and "1..." in text and "GO! Round 1" in text
    assert "unknown command 'zz': type h for the commands" in text
    assert "the round has not started: type s when you are ready" in text  # an error in words, not a code
    assert "Legend:" in text and "6_ = first digit 6" in text and "✱ any symbol" in text
    assert "Game over (master): winner you" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    stop = match.actions[-1]
    assert stop["type"] == "stop" and stop["at"] - go < 20_000  # done within the book's 20 s


def test_the_task_line_fits_80_columns_with_its_signs_and_colours() -> None:
    texts = [format_task(task) for card in CARDS.values() for task in card.tasks]
    assert max(task_line(text).cell_len for text in texts) <= 80
    longest = max(texts, key=len)
    line = task_line(longest)
    assert ("<" in longest) == ("<" in line.plain) and (">" in longest) == (">" in line.plain)
    assert any(span.style for span in line.spans)  # coloured


def test_the_terminal_delivers_the_solo_timer_and_q_asks_first() -> None:
    match = mindtable.new_match("neurorace", players=1, seed=2, options={"solo_seconds": 5})
    script = iter(["s", None, None, None, None, None, None, None, None, None, "v", "q", "n", "q", "y"])

    def plan(me: Keyboard) -> str | None:
        if me.time < 9.5 and me.typed == ["s"]:
            return None
        return next(script, "y")

    me = Keyboard(plan)
    out = io.StringIO()
    run_terminal(match, [0], {}, console=Console(file=out, width=80), read_line=me.read, clock=me.clock)
    text = out.getvalue()
    assert match.state["players"][0]["losses"] == 1
    assert [a["type"] for a in match.actions] == ["ready", "go", "time_up"]
    assert "time is up" in text and "1 s left" in text
    assert "Quit this game? Type y to quit" in text and "Going on." in text and text.rstrip().endswith("Bye.")


def test_against_a_bot_the_round_waits_for_the_human_to_be_ready() -> None:
    match = mindtable.new_match("neurorace", players=2, seed=1, options={"last_level": 1})
    script = iter([None] * 12 + ["s", *[None] * 20, "q", "y"])

    def plan(me: Keyboard) -> str | None:
        return next(script, "y")

    me = Keyboard(plan)
    out = io.StringIO()
    run_terminal(
        match,
        [0],
        {1: SolverBot(seat=1, seed=1)},
        console=Console(file=out, width=80),
        read_line=me.read,
        clock=me.clock,
    )
    types = [a["type"] for a in match.actions]
    assert types[:3] == ["ready", "ready", "go"] and match.actions[0]["seat"] == 1  # the bot only marks itself
    assert match.actions[2]["at"] == match.actions[1]["at"] + 3000
    assert "Alan (bot) is ready" in out.getvalue()
