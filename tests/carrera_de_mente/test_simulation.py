"""`mindtable simulate carrera-de-mente`: game length, answers in a turn, wins by seat and by the bots'
knowledge — the numbers checked against the games themselves."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import mindtable
from mindtable.cli.app import app
from mindtable.core.driver import play_out
from mindtable.core.match import Match, replay
from mindtable.sim import run_simulation

GAME_ID = "carrera-de-mente"


def bot_game(seed: int, knows: tuple[float, ...]) -> Match:
    match = mindtable.new_match(GAME_ID, players=len(knows), seed=seed, options={"board": "small"})
    bots = {s: match.game.make_bot("knowing", s, seed=seed, knows=k) for s, k in enumerate(knows)}
    play_out(match, bots)
    return match


def test_a_game_counts_its_turns_by_the_answers_given_in_each() -> None:
    for seed in range(4):
        match = bot_game(seed, (0.5, 0.7, 0.3))
        assert match.result is not None
        details = match.result.details
        counts = details["answers_in_turn"]
        answers_by_turn = sum(k * n for k, n in enumerate(counts))
        assert sum(counts) == details["turns"]  # every turn counted once, the last (winning) one too
        assert answers_by_turn == details["answers"] == sum(match.state["stats"]["answers"])
        # every turn but the winning one ends on a wrong answer, so it had at least one
        assert counts[0] <= 1


def test_a_record_made_before_turns_were_counted_replays_to_its_result() -> None:
    start = mindtable.new_match(GAME_ID, players=2, seed=3, options={"board": "small"})
    snap = start.snapshot()
    del snap["state"]["stats"]["this_turn"], snap["state"]["stats"]["answers_in_turn"]
    match = Match.from_snapshot(snap)
    play_out(match, {s: match.game.make_bot("knowing", s, seed=3) for s in range(2)})
    record = match.record()
    assert "answers_in_turn" not in record["result"]["details"]
    assert replay(record).result == match.result


def test_simulate_reports_answers_in_a_turn_and_wins_by_knowledge() -> None:
    run = run_simulation(
        GAME_ID,
        players=2,
        bot="knowing",
        games=16,
        seed=1,
        options={"board": "small"},
        workers=1,
        vary=("knows", [0.1, 0.9]),
    )
    summary = run.summary
    turns = summary["progress"]
    per_turn = summary["details"]["answers_in_turn"]
    assert per_turn["label"] == "answers in a turn"
    # as many turns counted by their answers as the games lasted, turn by turn
    assert per_turn["count"] == sum(e["value"] * e["count"] for e in turns["distribution"])
    # game g seats knows 0.1 and 0.9 in turn, shifted one seat a game: 0.9 sits at seat 1, then 0, then 1...
    games = [bot_game(1 + g, (0.1, 0.9) if g % 2 == 0 else (0.9, 0.1)) for g in range(16)]
    assert per_turn["count"] == sum(g.state["stats"]["turns"] for g in games)
    wins_09 = sum(1 for g, game in enumerate(games) if game.result and game.result.winners == ((1,), (0,))[g % 2])
    rows = {r["value"]: r for r in summary["wins_by_value"]["values"]}
    assert rows["0.9"]["seats"] == rows["0.1"]["seats"] == 16 and rows["0.9"]["wins"] == wins_09
    assert rows["0.9"]["relative"] > 1.5 > 0.5 > rows["0.1"]["relative"]  # knowing more wins more
    assert summary["seats"][0]["wins"] + summary["seats"][1]["wins"] == 16


def test_the_command_line_writes_the_numbers_and_the_plots(tmp_path: Path) -> None:
    json_path, plot_path = tmp_path / "carrera.json", tmp_path / "carrera.png"
    result = CliRunner().invoke(
        app,
        [
            "simulate",
            GAME_ID,
            "--players",
            "3",
            "--games",
            "6",
            "--workers",
            "1",
            "--board",
            "small",
            "--vary",
            "knows=0.3,0.9",
            "--json",
            str(json_path),
            "--plot",
            str(plot_path),
        ],
        terminal_width=120,
    )
    assert result.exit_code == 0, result.output
    for heading in ("Wins by seat", "Distribution of turns", "Distribution of answers in a turn", "Wins by bot knows"):
        assert heading in result.output
    summary = json.loads(json_path.read_text())
    assert summary["games"] == 6 and summary["vary"] == {"param": "knows", "values": [0.3, 0.9]}
    assert [r["seats"] for r in summary["wins_by_value"]["values"]] == [9, 9]  # 3 seats x 6 games, in turn
    assert plot_path.read_bytes().startswith(b"\x89PNG")
    bad = CliRunner().invoke(app, ["simulate", GAME_ID, "--games", "2", "--vary", "knows"])
    assert bad.exit_code == 2 and "--vary 'knows' must look like name=value,value" in bad.output
