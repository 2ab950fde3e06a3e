"""The game-agnostic commands through the real Typer app: games, play, replay and simulate."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mindtable
from mindtable.cli import replay as replay_command
from mindtable.cli.app import app
from mindtable.core.driver import play_out
from mindtable.games.the_mind import terminal
from mindtable.games.the_mind.terminal import ScriptedKeys, VirtualClock

runner = CliRunner()
GAME = mindtable.get_game("the-mind")


# -- games ---------------------------------------------------------------------------------------------
def test_games_lists_every_game_with_players_bots_and_option_defaults() -> None:
    result = runner.invoke(app, ["games"], terminal_width=140)
    assert result.exit_code == 0, result.output
    out = result.output
    for game_id in mindtable.game_ids():
        assert game_id in out
    assert "The Mind" in out and "2-4" in out
    for bot in GAME.bots:
        assert bot in out
    for option in GAME.option_schema:
        assert option.name in out
    assert "detection" in out and "table | players" in out


def test_games_on_an_80_column_terminal_cuts_no_header_and_no_word() -> None:
    """Every header whole and no cell cut short ("Play…", a meaning squeezed to "tea…") at 80 columns."""
    result = runner.invoke(app, ["games"], terminal_width=80)
    assert result.exit_code == 0, result.output
    out = result.output
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "…" not in out
    header = next(line for line in out.splitlines() if "Game id" in line)
    assert "Players" in header and "Real time" in header and "Bots" in header
    generic = [g for g in mindtable.game_ids() if not mindtable.get_game(g).terminal]
    for game_id in generic:  # a game without a board of its own still plays in the terminal, and is said to
        assert game_id in out.split("in the generic terminal:")[1]


def test_games_json_says_which_games_are_available() -> None:
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0, result.output
    games = {entry["id"]: entry for entry in json.loads(result.output)}
    assert set(games) == set(mindtable.game_ids())
    mind = games["the-mind"]
    assert mind["available"] and mind["realtime"] and mind["terminal"]
    assert {o["name"]: o["default"] for o in mind["options"]}["detection"] == "table"
    for game_id in set(mindtable.game_ids()) - set(mindtable.available_game_ids()):
        assert games[game_id]["available"] is False


# -- play ----------------------------------------------------------------------------------------------
def script(monkeypatch: pytest.MonkeyPatch, presses: list[tuple[int, str]]) -> None:
    """Make the terminal hook read ``presses`` on a virtual clock instead of the keyboard."""
    clock = VirtualClock()
    monkeypatch.setattr(
        terminal,
        "run_terminal",
        functools.partial(terminal.run_terminal, keys=ScriptedKeys(clock, presses), clock=clock, frame_ms=5_000),
    )


def test_play_runs_the_terminal_hook_with_bots_and_saves_a_replayable_record(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    script(monkeypatch, [(250, "r"), (40_000, " "), (41_000, "q")])
    record_path = tmp_path / "game.json"
    result = runner.invoke(
        app,
        [
            "play",
            "the-mind",
            "--players",
            "3",
            "--humans",
            "1",
            "--bot",
            "proportional",
            "--seed",
            "12",
            "--option",
            "lives=4",
            "--save",
            str(record_path),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Record saved to" in result.output
    record = json.loads(record_path.read_text())
    assert record["game"] == "the-mind" and record["players"] == 3 and record["seed"] == 12
    assert record["options"]["lives"] == 4
    actions = record["actions"]
    assert {"type": "ready", "seat": 0, "at": 250} in actions
    assert {a["seat"] for a in actions} == {0, 1, 2}
    assert [a["at"] for a in actions] == sorted(a["at"] for a in actions)
    human_plays = [a for a in actions if a["seat"] == 0 and a["type"] == "play"]
    assert [a["at"] for a in human_plays] in ([40_000], [])  # played unless the level was already lost
    again = mindtable.replay(record)
    assert again.actions == actions


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "unknown game 'chess'; known games: the-mind"),
        (["play", "the-mind", "--option", "lifes=3"], "unknown option 'lifes'; allowed options: detection"),
        (["play", "the-mind", "--option", "lives=9"], "option 'lives' must be an integer from 1 to 5, got 9"),
        (["play", "the-mind", "--option", "lives"], "must look like key=value"),
        (["play", "the-mind", "--players", "7"], "The Mind is for 2 to 4 players, got 7"),
        (
            ["play", "the-mind", "--players", "2", "--humans", "3"],
            "--humans must be from 0 to the number of players (2)",
        ),
        (["play", "the-mind", "--bot", "genius"], "unknown bot 'genius' for the-mind; available bots: proportional"),
        (["play", "the-mind", "--players", "3", "--humans", "2"], "one keyboard can only play one seat"),
    ],
)
def test_play_explains_bad_requests(args: list[str], message: str) -> None:
    result = runner.invoke(app, args, terminal_width=400)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


# -- replay --------------------------------------------------------------------------------------------
@pytest.fixture
def finished_record(tmp_path: Path) -> tuple[Path, mindtable.Match]:
    match = mindtable.new_match("the-mind", players=2, seed=31, options={"last_level": 3})
    play_out(match, {seat: GAME.make_bot("proportional", seat=seat, seed=31) for seat in range(2)})
    path = tmp_path / "record.json"
    path.write_text(json.dumps(match.record()))
    return path, match


def test_replay_prints_every_action_and_the_result(finished_record: tuple[Path, mindtable.Match]) -> None:
    path, match = finished_record
    result = runner.invoke(app, ["replay", str(path), "--seat", "1", "--table"], terminal_width=120)
    assert result.exit_code == 0, result.output
    assert "None" not in result.output and "True" not in result.output  # JSON values, never Python's repr
    total = len(match.actions)
    assert "Start of the game" in result.output
    assert f"Action {total}/{total}" in result.output
    assert "View of seat 1" in result.output
    assert match.result is not None
    assert f"reason {match.result.reason}" in result.output


def test_replay_as_spectator_never_shows_a_hand(finished_record: tuple[Path, mindtable.Match]) -> None:
    path, _ = finished_record
    result = runner.invoke(
        app, ["replay", str(path), "--spectator", "--auto", "--delay", "0", "--full", "--table"], terminal_width=120
    )
    assert result.exit_code == 0, result.output
    assert "a spectator" in result.output
    hands = [line for line in result.output.splitlines() if line.strip(" │*").startswith("hand ")]
    assert hands and all("null" in line for line in hands)
    assert '"dealt"' not in result.output and "• dealt" not in result.output


def test_replay_steps_on_enter_and_stops_on_q(
    finished_record: tuple[Path, mindtable.Match], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = finished_record
    monkeypatch.setattr(replay_command, "stdin_is_interactive", lambda: True)
    keys = iter(["\n", "\x1b[C", "\x1b[D", "x", "\n", "q"])
    monkeypatch.setattr(replay_command, "read_key", lambda: next(keys))
    result = runner.invoke(app, ["replay", str(path)], terminal_width=120)
    assert result.exit_code == 0, result.output
    steps = [line.split()[1].split("/")[0] for line in result.output.splitlines() if line.startswith("Action ")]
    assert steps == ["1", "2", "1", "2"]  # Enter, →, ← back, an unknown key ignored, Enter; q stops
    assert "Stopped." in result.output


def test_replay_reuses_the_play_screen_and_shows_every_hand_at_the_end(tmp_path: Path) -> None:
    match = mindtable.new_match("the-mind", players=2, seed=4, options={"last_level": 2, "lives": 1})
    play_out(match, {seat: GAME.make_bot("random-timing", seat=seat, seed=4) for seat in range(2)})
    assert match.result is not None and match.result.reason == "lost"  # cards are left in hands
    path = tmp_path / "lost.json"
    path.write_text(json.dumps(match.record()))
    result = runner.invoke(app, ["replay", str(path), "--auto", "--delay", "0"], terminal_width=100)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Lives" in out and "Your hand" in out and "Keys: enter/→ next · ← back · q quit" in out
    assert "View of seat 0" not in out  # the play screen, not the table of fields
    assert "Every hand, now that the game is over:" in out
    left = [card for hand in match.state["hands"] for card in hand]
    assert left and all(str(card) in out.split("Every hand")[1] for card in left)
    assert "seat 1 hand" in out


def test_a_neurorace_replay_shows_its_table(tmp_path: Path) -> None:
    match = mindtable.new_match("neurorace", players=1, seed=2, options={"last_level": 1})
    play_out(match, {0: mindtable.get_game("neurorace").make_bot("solver", seat=0, seed=2, actions_per_second=4)})
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(match.record()))
    result = runner.invoke(app, ["replay", str(path), "--auto", "--delay", "0"], terminal_width=80)
    assert result.exit_code == 0, result.output
    assert "NeuroRace SOLO · round 1" in result.output and "GO! Round 1" in result.output
    assert "reason master" in result.output


def test_replay_rejects_files_that_are_not_records(tmp_path: Path) -> None:
    not_json = tmp_path / "notes.txt"
    not_json.write_text("hello")
    not_record = tmp_path / "other.json"
    not_record.write_text('{"players": 2}')
    for path, message in (
        (not_json, "not valid JSON"),
        (not_record, "not a mindtable record"),
        (tmp_path / "missing.json", "no such file"),
    ):
        result = runner.invoke(app, ["replay", str(path)], terminal_width=400)
        assert result.exit_code == 2, result.output
        assert message in result.output


def test_replay_reports_an_action_that_is_illegal_on_replay(finished_record: tuple[Path, mindtable.Match]) -> None:
    path, _ = finished_record
    record = json.loads(path.read_text())
    record["actions"].insert(0, {"type": "play", "seat": 0, "at": 0})
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path)], terminal_width=400)
    assert result.exit_code == 2
    assert "record action 0" in result.output and "is illegal on replay" in result.output


# -- simulate ------------------------------------------------------------------------------------------
def test_simulate_writes_json_and_a_plot(tmp_path: Path) -> None:
    json_path, plot_path = tmp_path / "out.json", tmp_path / "levels.png"
    result = runner.invoke(
        app,
        [
            "simulate",
            "the-mind",
            "--players",
            "2",
            "--bot",
            "proportional",
            "--games",
            "60",
            "--seed",
            "7",
            "--workers",
            "1",
            "--engine",
            "match",
            "--json",
            str(json_path),
            "--plot",
            str(plot_path),
        ],
        terminal_width=120,
    )
    assert result.exit_code == 0, result.output
    assert "Team win rate" in result.output and "95% Wilson interval" in result.output
    assert "Distribution of levels completed" in result.output
    summary = json.loads(json_path.read_text())
    assert summary["games"] == 60 and summary["engine"] == "match" and summary["seed"] == 7
    rate = summary["win_rate"]
    assert rate["rate"] == rate["wins"] / 60
    assert rate["ci95"][0] <= rate["rate"] <= rate["ci95"][1]
    assert sum(entry["count"] for entry in summary["progress"]["distribution"]) == 60
    assert summary["progress"]["label"] == "levels completed"
    assert plot_path.read_bytes().startswith(b"\x89PNG")


def test_simulate_auto_uses_the_vector_engine_and_same_seed_gives_same_numbers(tmp_path: Path) -> None:
    outputs = []
    for workers in ("1", "2"):
        path = tmp_path / f"{workers}.json"
        result = runner.invoke(
            app,
            ["simulate", "the-mind", "--games", "3000", "--seed", "3", "--workers", workers, "--json", str(path)],
        )
        assert result.exit_code == 0, result.output
        summary = json.loads(path.read_text())
        assert summary["engine"] == "vector"
        summary.pop("elapsed_seconds")
        outputs.append(summary)
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "chess"], "unknown game 'chess'"),
        (["simulate", "the-mind", "--engine", "gpu"], "--engine must be one of auto, match, vector"),
        (["simulate", "the-mind", "--bot", "random", "--engine", "vector", "--games", "5"], "vector engine cannot run"),
        (["simulate", "the-mind", "--bot-param", "tempo_ms=0", "--games", "5"], "tempo_ms must be > 0"),
    ],
)
def test_simulate_explains_bad_requests(args: list[str], message: str) -> None:
    result = runner.invoke(app, args, terminal_width=400)
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_game_options_can_be_given_as_their_own_flags(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    result = runner.invoke(
        app,
        [
            "simulate",
            "the-mind",
            "--games",
            "20",
            "--engine",
            "match",
            "--detection",
            "players",
            "--last-level=3",
            "--workers",
            "1",
            "--json",
            str(path),
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(path.read_text())
    assert summary["options"]["detection"] == "players"
    assert max(entry["value"] for entry in summary["progress"]["distribution"]) <= 3
    bad = runner.invoke(app, ["simulate", "the-mind", "--games", "5", "--detection"], terminal_width=400)
    assert bad.exit_code == 2 and "--detection needs a value" in bad.output


def test_replay_reports_a_record_made_under_other_rules_or_content(
    finished_record: tuple[Path, mindtable.Match],
) -> None:
    path, match = finished_record
    record = json.loads(path.read_text())
    record["rules"] = match.game.rules_revision - 1
    record["content"] = "sha256:feedfeedfeedfeed"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path), "--auto", "--delay", "0"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert f"recorded under rules revision {match.game.rules_revision - 1}" in result.output
    assert "content files changed" in result.output
    assert "Result" in result.output  # replayed anyway: the record pins its start


@pytest.mark.parametrize("command", [["replay"], ["play"], ["serve"], ["simulate"]])
def test_help_screens_show_no_type_after_on_off_flags(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], terminal_width=120)
    assert result.exit_code == 0
    assert "<bool>" not in result.output and "--help" in result.output
