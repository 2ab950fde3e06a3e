"""Replays, and bot races on the virtual clock."""

from __future__ import annotations

import json

import pytest

import mindtable
from mindtable.core.bots import RandomBot, observe
from mindtable.core.driver import Stalled, play_out
from mindtable.games.neurorace.bots import SolverBot


def race(players: int, seed: int, options=None, **params) -> mindtable.Match:
    match = mindtable.new_match("neurorace", players=players, seed=seed, options=options)
    bots = {seat: match.game.make_bot("solver", seat=seat, seed=seed, **params) for seat in range(players)}
    play_out(match, bots, max_actions=50_000)
    return match


def test_a_two_player_bot_race_reaches_level_ten_and_replays_exactly() -> None:
    match = race(2, seed=11, actions_per_second=3, mistakes_per_task=0.2)
    assert match.result.reason == "completed"
    winner = match.result.winners[0]
    assert match.state["players"][winner]["completed"] >= 10
    record = json.loads(json.dumps(match.record()))
    assert mindtable.replay(record).snapshot() == match.snapshot()


def test_a_replay_from_a_snapshot_start_reaches_the_same_state(nr) -> None:
    match = nr.position(players=3, options={"mode": "universal", "max_rounds": 3})
    bots = {seat: SolverBot(seat=seat, seed=seat, actions_per_second=2 + seat) for seat in range(3)}
    play_out(match, bots, max_actions=20_000)
    assert match.result.reason in ("round_limit", "completed")
    assert mindtable.replay(match.record()).snapshot() == match.snapshot()


def test_a_faster_bot_wins_more_often_than_a_slow_one() -> None:
    wins = 0
    for seed in range(4):
        match = mindtable.new_match("neurorace", players=2, seed=seed, options={"last_level": 3})
        bots = {
            0: SolverBot(seat=0, seed=seed, actions_per_second=6),
            1: SolverBot(seat=1, seed=seed, actions_per_second=1),
        }
        wins += play_out(match, bots, max_actions=20_000).winners == (0,)
    assert wins >= 3


def test_a_careless_bot_loses_rounds_to_its_mistakes() -> None:
    match = race(1, seed=3, options={"max_rounds": 4}, actions_per_second=5, mistakes_per_task=7)
    assert match.state["players"][0]["losses"] == 4 and match.result.reason == "round_limit"


def test_a_quick_accurate_solo_bot_becomes_master() -> None:
    match = race(1, seed=8, options={"last_level": 4}, actions_per_second=4)
    assert match.result.reason == "master" and match.result.details["master"]


def test_a_slow_solo_bot_runs_out_of_time() -> None:
    match = race(1, seed=8, options={"max_rounds": 2, "solo_seconds": 3}, actions_per_second=1)
    assert match.state["players"][0]["losses"] == 2
    assert match.view(0)["last_stop"]["reason"] == "time_up"


def test_the_core_random_bot_plays_legal_actions_only() -> None:
    match = mindtable.new_match("neurorace", players=2, seed=5, options={"max_rounds": 2})
    bots = {0: RandomBot(seat=0, seed=1), 1: SolverBot(seat=1, seed=1, actions_per_second=3)}
    result = play_out(match, bots, max_actions=20_000)
    assert result.reason == "round_limit"
    assert any(a.get("seat") == 0 and a["type"] not in ("ready", "end") for a in match.actions)


def test_bots_only_ever_mark_themselves_ready_and_never_start_a_round() -> None:
    match = mindtable.new_match("neurorace", players=2, seed=5)
    bot = SolverBot(seat=1, seed=1)
    decision = bot.decide(observe(match, 1, now=0))
    assert decision is not None and decision.action == {"type": "ready"}
    match.apply({**decision.action, "seat": 1, "at": decision.at})
    assert bot.decide(observe(match, 1, now=decision.at)) is None  # it waits for the human at seat 0
    assert match.view(0)["phase"] == "ready" and match.next_deadline() is None
    # With a human seat that never says ready, a bot race stalls rather than starting without them.
    with pytest.raises(Stalled):
        play_out(match, {1: bot})
    assert all(a["type"] == "ready" for a in match.actions)


def test_in_a_bot_race_every_round_starts_with_the_countdown() -> None:
    match = race(2, seed=3, options={"max_rounds": 3}, actions_per_second=3)
    types = [a["type"] for a in match.actions]
    assert "start" not in types and types.count("go") == 3
    for index, action in enumerate(match.actions):
        if action["type"] == "go":
            readies = [a for a in match.actions[:index] if a["type"] == "ready"][-2:]
            assert {a["seat"] for a in readies} == {0, 1}
            assert action["at"] == max(a["at"] for a in readies) + 3000


def test_bad_bot_parameters_are_refused() -> None:
    game = mindtable.get_game("neurorace")
    with pytest.raises(ValueError, match="actions_per_second must be > 0"):
        game.make_bot("solver", seat=0, actions_per_second=0)
    with pytest.raises(mindtable.InvalidOptions, match="bad parameters for bot 'solver'"):
        game.make_bot("solver", seat=0, speed=3)
