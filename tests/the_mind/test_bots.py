"""Timing bots see only their own view; the vectorised simulator agrees with the engine."""

from __future__ import annotations

import math

import pytest

import mindtable
from mindtable.core.bots import Observation, observe
from mindtable.core.driver import play_out
from mindtable.games.the_mind.bots import ProportionalBot
from mindtable.games.the_mind.vector import simulate_batch
from tests.the_mind.conftest import position


def test_proportional_bot_waits_in_proportion_to_the_gap():
    match = position([[12, 80], [30, 90]], pile=[(1, 2)], level=3)
    match.state["hands"] = [[12, 80], [30, 90]]
    bot = ProportionalBot(seat=0, seed=1, tempo_ms=100, noise=0.0, reaction_ms=300)
    decision = bot.decide(observe(match, 0, now=5000))
    assert decision is not None and decision.action == {"type": "play"}
    assert decision.at == 5000 + 300 + 100 * (12 - 2)
    far = ProportionalBot(seat=1, seed=1, tempo_ms=100, noise=0.0, reaction_ms=300).decide(observe(match, 1, now=5000))
    assert far is not None and far.at == 5000 + 300 + 100 * (30 - 2)


def test_bot_keeps_its_plan_until_the_situation_changes():
    match = position([[40], [70]], level=1)
    bot = ProportionalBot(seat=0, seed=1, noise=0.5)
    first = bot.decide(observe(match, 0, now=1000))
    assert bot.decide(observe(match, 0, now=1500)) == first


def test_bot_plays_its_set_aside_card_at_once_and_others_wait():
    match = position([[80], [90]], set_aside=[[10], [20]], level=2)
    eager = ProportionalBot(seat=0, seed=1, reaction_ms=200).decide(observe(match, 0, now=0))
    assert eager is not None and eager.at == 200
    assert ProportionalBot(seat=1, seed=1).decide(observe(match, 1, now=0)) is None


def test_bot_decides_from_its_observation_only():
    match = mindtable.new_match("the-mind", players=2, seed=3)
    observation = observe(match, 0, now=0)
    assert isinstance(observation, Observation)
    assert set(vars(observation)) == {"seat", "view", "legal_actions", "now"}
    assert observation.view == match.view(0)


def test_bot_calls_stop_when_it_holds_a_card_below_one_played():
    match = position([[36, 37], [35, 90]], detection="players")
    match.apply({"type": "play", "seat": 0, "at": 1100})
    decision = ProportionalBot(seat=1, seed=1, reaction_ms=250).decide(observe(match, 1, now=1100))
    assert decision is not None and decision.action == {"type": "stop"}


@pytest.mark.parametrize("bot", ["proportional", "random-timing", "random"])
def test_every_bot_finishes_games_on_the_virtual_clock(bot):
    for seed in range(3):
        match = mindtable.new_match("the-mind", players=3, seed=seed)
        bots = {s: match.game.make_bot(bot, seat=s, seed=seed) for s in range(3)}
        result = play_out(match, bots)
        assert result.reason in ("won", "lost")
        assert mindtable.replay(match.record()).snapshot() == match.snapshot()


def test_unknown_bot_lists_the_available_ones():
    with pytest.raises(mindtable.InvalidOptions, match="proportional"):
        mindtable.get_game("the-mind").make_bot("psychic", seat=0)


def wilson(successes: float, n: int) -> tuple[float, float]:
    p, z = successes / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


@pytest.mark.parametrize("players", [2, 4])
def test_vectorised_simulator_agrees_with_the_engine(players):
    """Mean levels completed and win rate from both simulators agree within their confidence intervals."""
    params = {"tempo_ms": 250.0, "noise": 0.1}
    engine_games = 250
    progress = []
    wins = 0
    for seed in range(engine_games):
        match = mindtable.new_match("the-mind", players=players, seed=seed)
        bots = {s: match.game.make_bot("proportional", seat=s, seed=seed, **params) for s in range(players)}
        result = play_out(match, bots)
        progress.append(result.details["progress"])
        wins += bool(result.winners)
    batch = simulate_batch(players, {}, "proportional", params, 20_000, seed=11)
    batch_progress = [r.details["progress"] for r in batch]
    batch_wins = sum(bool(r.winners) for r in batch)

    def mean_and_se(values: list[int]) -> tuple[float, float]:
        mean = sum(values) / len(values)
        var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
        return mean, math.sqrt(var / len(values))

    engine_mean, engine_se = mean_and_se(progress)
    batch_mean, batch_se = mean_and_se(batch_progress)
    assert abs(engine_mean - batch_mean) < 3 * math.hypot(engine_se, batch_se)
    low, high = wilson(wins, engine_games)
    assert low - 0.02 <= batch_wins / len(batch) <= high + 0.02


def test_vectorised_simulator_refuses_what_it_cannot_play():
    with pytest.raises(NotImplementedError):
        simulate_batch(2, {"detection": "players"}, "proportional", {}, 10, seed=1)
    with pytest.raises(NotImplementedError):
        simulate_batch(2, {}, "random", {}, 10, seed=1)


def test_bots_finish_games_when_players_must_call_stop():
    for seed in range(5):
        match = mindtable.new_match("the-mind", players=3, seed=seed, options={"detection": "players"})
        bots = {s: match.game.make_bot("proportional", seat=s, seed=seed) for s in range(3)}
        result = play_out(match, bots, max_actions=5_000)
        assert result.reason in ("won", "lost")
        stops = [a for a in match.actions if a["type"] == "stop"]
        assert len(stops) < 40, "a bot must not call stop again and again for the same situation"
