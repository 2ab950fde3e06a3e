"""Batch simulation: determinism, engines, fallbacks, errors, JSON-ready summaries and plots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mindtable
from mindtable.core.driver import play_out
from mindtable.core.errors import InvalidOptions, MindtableError
from mindtable.sim import SimulationError, Tally, plot_progress, run_simulation, summarize
from mindtable.sim import runner as sim_runner

GAME = mindtable.get_game("the-mind")


def test_match_engine_plays_game_i_with_seed_plus_i() -> None:
    run = run_simulation("the-mind", 2, bot="proportional", games=6, seed=40, workers=1, engine="match")
    expected = Tally(2)
    for seed in range(40, 46):
        match = mindtable.new_match("the-mind", 2, seed=seed)
        bots = {seat: GAME.make_bot("proportional", seat=seat, seed=seed) for seat in range(2)}
        expected.add(play_out(match, bots))
    assert run.engine == "match"
    assert run.tally == expected
    assert (
        run.summary["progress"] == summarize(expected, cooperative=True, progress_label=GAME.progress_label)["progress"]
    )


def test_same_seed_same_summary_and_worker_count_does_not_matter() -> None:
    kwargs = {"players": 3, "bot": "proportional", "games": 48, "seed": 11, "engine": "match"}
    one = run_simulation("the-mind", workers=1, **kwargs)  # type: ignore[arg-type]
    again = run_simulation("the-mind", workers=1, **kwargs)  # type: ignore[arg-type]
    two = run_simulation("the-mind", workers=2, **kwargs)  # type: ignore[arg-type]
    assert one.summary == again.summary == two.summary
    other_seed = run_simulation("the-mind", workers=1, **{**kwargs, "seed": 12_345})  # type: ignore[arg-type]
    assert other_seed.summary["progress"] != one.summary["progress"]


def test_progress_callback_reaches_the_total() -> None:
    calls: list[tuple[int, int]] = []
    run_simulation(
        "the-mind",
        2,
        "proportional",
        games=30,
        seed=1,
        workers=2,
        engine="match",
        progress=lambda d, t: calls.append((d, t)),
    )
    assert calls[0] == (0, 30)
    assert calls[-1] == (30, 30)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_auto_uses_the_vector_engine_and_its_blocks_do_not_depend_on_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim_runner, "VECTOR_BLOCK", 100)
    one = run_simulation("the-mind", 2, "proportional", games=350, seed=5, workers=1)
    two = run_simulation("the-mind", 2, "proportional", games=350, seed=5, workers=2)
    assert one.engine == two.engine == "vector"
    assert one.fallback_reason is None
    assert one.summary == two.summary
    assert one.summary["games"] == 350
    assert sum(entry["count"] for entry in one.summary["progress"]["distribution"]) == 350


@pytest.mark.parametrize("workers", [1, 2])
def test_auto_falls_back_to_the_match_engine_when_the_vector_engine_cannot_play_the_bot(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sim_runner, "VECTOR_BLOCK", 4)  # several blocks: with 2 workers they run in processes
    run = run_simulation("the-mind", 2, "random", games=8, seed=2, workers=workers)
    assert run.engine == "match"
    assert run.summary["engine"] == "match"
    assert "random" in (run.fallback_reason or "")
    assert run.summary == run_simulation("the-mind", 2, "random", games=8, seed=2, workers=1, engine="match").summary
    with pytest.raises(SimulationError, match="vector engine cannot run"):
        run_simulation("the-mind", 2, "random", games=8, seed=2, workers=workers, engine="vector")


@pytest.mark.parametrize(
    ("hook", "reason"),
    [
        (None, "has no batch simulator"),
        ("mindtable.games.the_mind.no_such_module:simulate_batch", "cannot be imported"),
    ],
)
def test_auto_falls_back_when_the_game_has_no_usable_batch_simulator(
    monkeypatch: pytest.MonkeyPatch, hook: str | None, reason: str
) -> None:
    monkeypatch.setattr(type(GAME), "batch_simulator", hook)
    run = run_simulation("the-mind", 2, "proportional", games=4, seed=3, workers=1)
    assert run.engine == "match"
    assert reason in (run.fallback_reason or "")
    with pytest.raises(SimulationError, match=reason):
        run_simulation("the-mind", 2, "proportional", games=4, seed=3, workers=1, engine="vector")


def test_bad_requests_get_clear_errors() -> None:
    with pytest.raises(SimulationError, match="unknown engine 'fast'; engines: auto, match, vector"):
        run_simulation("the-mind", 2, "proportional", games=4, engine="fast")
    with pytest.raises(SimulationError, match="games must be"):
        run_simulation("the-mind", 2, "proportional", games=0)
    with pytest.raises(InvalidOptions, match="available bots: proportional, random, random-timing"):
        run_simulation("the-mind", 2, "smart", games=4)
    with pytest.raises(InvalidOptions, match="tempo_ms must be > 0"):
        run_simulation("the-mind", 2, "proportional", games=4, bot_params={"tempo_ms": 0})
    with pytest.raises(InvalidOptions, match="unknown option 'lifes'"):
        run_simulation("the-mind", 2, "proportional", games=4, options={"lifes": 3})
    with pytest.raises(MindtableError, match="unknown game 'chess'"):
        run_simulation("chess", 2, "proportional", games=4)


def test_options_and_bot_parameters_reach_the_games() -> None:
    easy = run_simulation(
        "the-mind", 2, "proportional", games=20, seed=9, workers=1, engine="match", options={"last_level": 1}
    )
    assert easy.summary["options"]["last_level"] == 1
    assert easy.summary["progress"]["max"] == 1
    slow = run_simulation(
        "the-mind", 2, "proportional", games=20, seed=9, workers=1, engine="match", bot_params={"noise": 1.0}
    )
    fast = run_simulation("the-mind", 2, "proportional", games=20, seed=9, workers=1, engine="match")
    assert slow.summary["bot_params"] == {"noise": 1.0}
    assert slow.summary["progress"] != fast.summary["progress"]


def test_summary_is_json_and_the_plot_is_a_png_of_the_distribution(tmp_path: Path) -> None:
    run = run_simulation("the-mind", 2, "proportional", games=40, seed=7, workers=1, engine="match")
    again = json.loads(json.dumps(run.summary))
    assert again["win_rate"]["games"] == 40
    target = plot_progress(run.summary, tmp_path / "levels.png")
    data = target.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    import matplotlib.image

    image = matplotlib.image.imread(str(target))
    assert image.shape[0] > 200 and image.shape[1] > 300


def test_a_varied_bot_parameter_seats_each_value_in_turn_and_needs_the_match_engine() -> None:
    assert [sim_runner.seat_values([1, 2, 3], 2, game) for game in range(3)] == [[1, 2], [2, 3], [3, 1]]
    run = run_simulation(
        "the-mind", 3, "proportional", games=12, seed=5, workers=1, vary=("noise", [0.0, 1.0]), engine="auto"
    )
    assert run.engine == "match" and run.fallback_reason == "the seats' bot parameters vary"
    rows = run.summary["wins_by_value"]["values"]
    assert [r["value"] for r in rows] == ["0.0", "1.0"] and sum(r["seats"] for r in rows) == 36
    assert run.summary["vary"] == {"param": "noise", "values": [0.0, 1.0]}
    with pytest.raises(SimulationError, match="vector engine cannot run this simulation"):
        run_simulation("the-mind", 2, "proportional", games=2, vary=("noise", [0.0]), engine="vector")
    with pytest.raises(SimulationError, match="'noise' is both a bot parameter and the one varied"):
        run_simulation("the-mind", 2, "proportional", games=2, bot_params={"noise": 1.0}, vary=("noise", [0.0]))
    with pytest.raises(InvalidOptions, match="bad parameters for bot 'proportional'"):
        run_simulation("the-mind", 2, "proportional", games=2, vary=("noise", [0.0, "loud"]))
