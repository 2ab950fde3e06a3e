"""The Mind and NeuroRace as Parallel environments in discrete time, and NeuroRace SOLO in Gymnasium."""

from __future__ import annotations

import functools
import types
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import gymnasium
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test

from mindtable.rl import neurorace, the_mind

pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


def run(env, seed, chooser, limit=400):
    observations, _ = env.reset(seed=seed)
    trace = []
    for _ in range(limit):
        if not env.agents:
            break
        actions = {a: chooser(a, observations[a]) for a in env.agents}
        observations, rewards, terms, _, _ = env.step(actions)
        trace.append(
            (
                actions,
                {a: b"".join(o[k].tobytes() for k in sorted(o)) for a, o in observations.items()},
                rewards,
                terms,
            )
        )
    return trace


def highest(agent, obs):
    return int(np.flatnonzero(obs["action_mask"])[-1])


def loose(module):
    """The module's constructors with illegal="wait": PettingZoo's seed and max-cycles checks sample unmasked."""
    return types.SimpleNamespace(
        parallel_env=functools.partial(module.parallel_env, illegal="wait"),
        env=functools.partial(module.env, illegal="wait"),
    )


@pytest.mark.parametrize("players", [2, 4])
def test_the_mind_passes_parallel_api_test(players):
    parallel_api_test(the_mind.parallel_env(players=players), num_cycles=300)


def test_the_mind_blind_and_players_detection_pass_parallel_api_test():
    parallel_api_test(the_mind.parallel_env(players=3, options={"start_blind": True}), num_cycles=200)
    parallel_api_test(the_mind.parallel_env(players=2, options={"detection": "players"}), num_cycles=200)


def test_the_mind_passes_aec_api_seed_and_max_cycles_tests():
    api_test(the_mind.env(players=2), num_cycles=200)
    parallel_seed_test(lambda: the_mind.parallel_env(players=3, illegal="wait"), num_cycles=200)
    max_cycles_test(loose(the_mind))


@pytest.mark.parametrize("mode", ["basic", "universal"])
def test_neurorace_passes_parallel_api_test(mode):
    parallel_api_test(neurorace.parallel_env(players=2, options={"mode": mode}), num_cycles=150)


def test_neurorace_passes_aec_api_seed_and_max_cycles_tests():
    api_test(neurorace.env(players=2), num_cycles=100)
    parallel_seed_test(lambda: neurorace.parallel_env(players=2, illegal="wait"), num_cycles=100)
    max_cycles_test(loose(neurorace))


@pytest.mark.parametrize("module", [the_mind, neurorace], ids=["the_mind", "neurorace"])
def test_same_seed_same_actions_same_episode(module):
    a = run(module.parallel_env(players=2), 4, highest)
    b = run(module.parallel_env(players=2), 4, highest)
    c = run(module.parallel_env(players=2), 5, highest)
    assert a == b
    assert a != c


def test_the_mind_playing_in_card_order_completes_levels_and_is_rewarded():
    """An agent that waits in proportion to its lowest card plays in order: the team completes a level (+1)."""
    env = the_mind.parallel_env(players=2, tick_ms=100)
    observations, _ = env.reset(seed=2)
    total = 0.0
    for _ in range(3000):
        if not env.agents:
            break
        actions = {}
        for agent, obs in observations.items():
            lowest = obs["observation"][0] * 100
            due = obs["observation"][4] * 10_000 >= lowest * 100  # 100 ms per number since the pile changed
            actions[agent] = 1 if due and obs["action_mask"][1] else 0
        observations, rewards, *_ = env.step(actions)
        total += rewards.get("player_0", 0.0)
        if env.match.view(None)["levels_completed"] >= 2:
            break
    assert env.match.view(None)["levels_completed"] >= 2
    assert total >= 2


def test_the_mind_throwing_star_needs_everyone_and_discards_each_lowest_card():
    env = the_mind.parallel_env(players=2, options={"stars": 1})
    observations, _ = env.reset(seed=3)
    choices = env.choices
    assert [len(h) for h in env.match.state["hands"]] == [1, 1]  # level 1: one card each
    observations, *_ = env.step({"player_0": choices.index("propose_star"), "player_1": 0})
    assert observations["player_0"]["observation"][env.feature_names().index("proposal.star")] == 1  # proposed ...
    assert {choices[i] for i in np.flatnonzero(observations["player_1"]["action_mask"])} == {"wait", "agree", "reject"}
    assert not observations["player_0"]["action_mask"][choices.index("play")]  # ... and play pauses
    observations, rewards, *_ = env.step({"player_0": 0, "player_1": choices.index("agree")})
    view = env.match.view(None)
    assert view["stars"] == 0
    assert view["levels_completed"] == 1  # each lowest card was discarded: the level is done
    assert rewards == {"player_0": 1.0, "player_1": 1.0}
    assert [int(observations[a]["hand"].sum()) for a in ("player_0", "player_1")] == [2, 2]  # level 2 dealt


def test_the_mind_observation_shows_only_the_seats_own_hand():
    env = the_mind.parallel_env(players=3)
    observations, _ = env.reset(seed=9)
    hands = env.match.state["hands"]
    for seat in range(3):
        shown = {i + 1 for i in np.flatnonzero(observations[f"player_{seat}"]["hand"])}
        assert shown == set(hands[seat])


def test_tick_env_refuses_an_action_outside_the_mask_and_changes_nothing():
    env = the_mind.parallel_env(players=2)
    env.reset(seed=1)
    before = env.match.snapshot()
    with pytest.raises(ValueError, match=r"player_0: action 5 \(agree\) is not legal now; legal: 0=wait, 1=play"):
        env.step({"player_0": 5, "player_1": 1})
    with pytest.raises(ValueError, match="not playing"):
        env.step({"player_7": 0})
    assert env.match.snapshot() == before
    loose_env = the_mind.parallel_env(players=2, illegal="wait")
    loose_env.reset(seed=1)
    *_, infos = loose_env.step({"player_0": 5, "player_1": 0})
    assert infos["player_0"]["illegal"] == {"action": "agree", "taken_as": "wait"}


def test_neurorace_take_place_and_the_mask_follow_the_rules():
    env = neurorace.parallel_env(players=1, options={"mode": "solo"})
    observations, _ = env.reset(seed=3)
    obs = observations["player_0"]
    choices = env.choices
    while not obs["action_mask"][choices.index("take:0")]:  # the countdown runs on the clock
        obs = env.step({"player_0": 0})[0]["player_0"]
    assert obs["hand"].sum() == 0
    obs = env.step({"player_0": choices.index("take:0")})[0]["player_0"]
    assert obs["hand"][0, 0] == 1 and obs["hand"][1, 0] == 1  # both sides of the tile in hand are seen
    assert obs["centre"][0].sum() == 0  # the spot is empty now
    mask = obs["action_mask"]
    assert {choices[i] for i in np.flatnonzero(mask)} == {"wait", "turn", "place", "return"}
    obs = env.step({"player_0": choices.index("place")})[0]["player_0"]
    assert obs["slots"][0, 0] == 1


def test_neurorace_solo_passes_gymnasium_check_env():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env's warnings are failures here
        check_env(neurorace.SoloEnv(), skip_render_check=True)


def test_neurorace_solo_is_registered_and_waiting_out_the_timer_is_a_loss():
    env = gymnasium.make("mindtable/NeuroRaceSolo-v0", tick_ms=1000, options={"max_rounds": 1})
    env.reset(seed=1)
    rewards, terminated, steps = [], False, 0
    while not terminated and steps < 100:
        _, reward, terminated, truncated, info = env.step(0)
        rewards.append(reward)
        steps += 1
    assert terminated and not truncated
    assert rewards[-1] == -1.0 and sum(rewards) == -1.0  # the 20-second timer ran out: one loss
    assert 20 <= steps <= 25  # 3 s countdown + 20 s, one tick a second
    assert info["result"]["reason"] == "round_limit"
