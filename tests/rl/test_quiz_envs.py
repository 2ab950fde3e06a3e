"""The quiz games' AEC environments: PettingZoo's own checks, and what an agent author relies on."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from mindtable.rl import caida_libre, carrera_de_mente, eesti_malumang

#: api_test's advice for flat observations; a masked environment's observation is a Dict, as in PettingZoo's own.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]
SMALL = {"board": "small"}
#: Each quiz environment in a small configuration: (module, options).
ENVS = {
    "carrera": (carrera_de_mente, SMALL),
    "caida": (caida_libre, {"language": "en"}),
    "eesti": (eesti_malumang, {"language": "en"}),
}


def play(env, seed, chooser):
    """Play ``env`` to its end from ``seed``; ``chooser(agent, obs)`` picks each action. Returns the trace."""
    env.reset(seed=seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        action = None if term or trunc else chooser(agent, obs)
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, action))
        env.step(action)
    return trace


def first_legal(agent, obs):
    return int(np.flatnonzero(obs["action_mask"])[0])


@pytest.mark.parametrize("name", sorted(ENVS))
@pytest.mark.parametrize("players", [2, 4])
def test_quiz_env_passes_pettingzoo_api_test(name, players):
    module, options = ENVS[name]
    api_test(module.env(players=players, options=options), num_cycles=200)


@pytest.mark.parametrize("name", sorted(ENVS))
def test_quiz_env_passes_seed_test(name):
    module, options = ENVS[name]
    seed_test(lambda: module.env(players=3, options=options), num_cycles=200)


@pytest.mark.parametrize("name", sorted(ENVS))
def test_quiz_env_same_seed_same_actions_same_episode(name):
    module, options = ENVS[name]
    a = play(module.env(players=3, options=options), 11, first_legal)
    b = play(module.env(players=3, options=options), 11, first_legal)
    assert a == b
    assert a[-1][4] is None  # played to the end


#: More configurations for the observation check: (env name, players, options, seed).
OBSERVED = [
    ("carrera", 3, SMALL, 5),
    ("caida", 3, {"language": "en"}, 5),
    ("eesti", 3, {"language": "en"}, 5),
    ("carrera", 2, {}, 8),
    ("carrera", 5, SMALL, 9),
    ("caida", 2, {"language": "es"}, 8),
    ("caida", 6, {"language": "en"}, 9),
    ("eesti", 2, {"language": "en", "variant": "outer_track"}, 8),
    ("eesti", 4, {"language": "en", "variant": "cards_only"}, 9),
    ("eesti", 5, {"language": "en"}, 10),
]


@pytest.mark.parametrize(("name", "players", "options", "seed"), OBSERVED)
def test_observation_kept_for_a_step_is_the_one_the_view_and_legal_actions_give_now(name, players, options, seed):
    """observe() keeps each step's observation, built from the match's state, and the step lists the legal actions
    once for the mask, the check and "know": at every step of an episode that is what the seat's whole view
    (``features`` of ``match.view(seat)``) and match.legal_actions give afresh."""
    module, _ = ENVS[name]
    env = module.raw_env(players=players, options=options)
    env.reset(seed=seed)
    chooser = np.random.default_rng(3)
    steps = 0
    while env.agents and steps < 300:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        for other in env.agents:
            obs = env.observe(other)
            seat = env.seat_of[other]
            view = env.match.view(seat)
            assert np.array_equal(obs["observation"], env.vector_of(env.match, seat, view))
            assert np.array_equal(obs["observation"], env.vector_of(env.match, seat))
            fresh = env.mask_of(env.match, seat, view) if other == agent else np.zeros(len(env.choices), np.int8)
            assert np.array_equal(obs["action_mask"], fresh)
            obs["observation"][:] = 2.0  # a copy: the kept observation does not change
            obs["action_mask"][:] = 0
        mask = env.observe(agent)["action_mask"]
        assert mask.any()
        know = mask[0] and chooser.random() < 0.7
        env.step(0 if know else int(chooser.choice(np.flatnonzero(mask))))
        steps += 1
    assert steps > 20


def test_one_hot_is_equality_with_each_value():
    from mindtable.rl._quiz import one_hot

    values = ("a", 1, None, 2.5, "a")
    for value in ("a", "b", 1, 1.0, True, 0, None, 2.5, float("nan"), [1], (1,), np.int64(1)):
        hot = one_hot(value, values)
        assert hot == [float(value == v) for v in values], value
        hot[:] = [9.0] * len(hot)  # a new list each time
    assert one_hot("b", ["a", "b"]) == [0.0, 1.0]


@pytest.mark.parametrize(("name", "variant"), [("eesti", "outer_track"), ("eesti", "cards_only"), ("caida", None)])
def test_quiz_env_variants_pass_api_test(name, variant):
    module, options = ENVS[name]
    options = {**options, "variant": variant} if variant else {**options, "weapons": False, "pack": "all"}
    api_test(module.env(players=3, options=options), num_cycles=150)


def test_caida_double_question_choice_and_targets_are_discrete_actions():
    env = caida_libre.raw_env(players=3, options={"language": "en"})
    assert env.choices[7:] == ["target:0", "target:1", "target:2", "draw", "ask_choose:0", "ask_choose:1"]
    seen = set()
    for seed in range(6):
        env.reset(seed=seed)
        while not all(env.terminations.values()):
            mask = env.observe(env.agent_selection)["action_mask"]
            seen |= {env.choices[i] for i in np.flatnonzero(mask)}
            env.step(int(np.flatnonzero(mask)[-1]))
    assert {"draw", "ask_choose:0", "ask_choose:1", "know", "pass"} <= seen
    assert "options" not in seen  # Caída Libre never reads options on request


def test_eesti_move_mask_offers_exactly_the_die_landings():
    env = eesti_malumang.raw_env(players=2, options={"language": "en"})
    env.reset(seed=3)
    while env.match.view(None)["phase"] != "move":
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    agent = env.agent_selection
    landings = {entry["square"] for entry in env.match.view(env.seat_of[agent])["landings"]}
    offered = {env.choices[i] for i in np.flatnonzero(env.observe(agent)["action_mask"])}
    assert offered == {f"move:{square}" for square in landings}


def test_carrera_against_bots_passes_api_test():
    api_test(carrera_de_mente.env(players=3, options=SMALL, bots={1: "knowing", 2: "random"}), num_cycles=200)


def test_carrera_same_seed_same_actions_same_episode_and_another_seed_differs():
    a = play(carrera_de_mente.env(players=3, options=SMALL), 5, first_legal)
    b = play(carrera_de_mente.env(players=3, options=SMALL), 5, first_legal)
    c = play(carrera_de_mente.env(players=3, options=SMALL), 6, first_legal)
    assert a == b
    assert a != c


def test_carrera_episode_ends_with_win_rewards():
    env = carrera_de_mente.env(players=3, options=SMALL)
    trace = play(env, 2, first_legal)
    final = {agent: reward for agent, _, _, reward, action in trace if action is None}
    result = env.unwrapped.match.result
    assert set(final) == {"player_0", "player_1", "player_2"}
    for agent, reward in final.items():
        assert reward == (1.0 if int(agent[-1]) in result.winners else -1.0)


def test_carrera_action_outside_the_mask_is_refused_clearly_and_changes_nothing():
    env = carrera_de_mente.env(players=2, options=SMALL)
    env.reset(seed=3)
    agent = env.agent_selection
    obs = env.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.unwrapped.match.snapshot()
    with pytest.raises(ValueError, match=r"is not legal now; legal: \d+="):
        env.step(illegal)
    with pytest.raises(ValueError, match="integer"):
        env.step("roll")
    with pytest.raises(ValueError, match="outside the space"):
        env.step(999)
    assert env.unwrapped.match.snapshot() == before
    assert env.agent_selection == agent


def test_carrera_knowledge_model_decides_whether_know_is_right():
    """An agent that always answers from knowledge is right far more often with knows=1 than with knows=0."""

    def knower(agent, obs):
        mask = obs["action_mask"]
        return 0 if mask[0] else int(np.flatnonzero(mask)[0])

    rates = {}
    for knows in (0.0, 1.0):
        env = carrera_de_mente.env(players=2, options={**SMALL, "turn_limit": 40}, knows=knows)
        play(env, 9, knower)
        details = env.unwrapped.match.result.details
        rates[knows] = details["right"] / max(details["answers"], 1)
    assert rates[0.0] < 0.2 < 0.6 < rates[1.0]


def test_carrera_observation_holds_no_answer():
    """The answerer's observation is the same whatever the question's answer: it is built from the seat's view."""
    env = carrera_de_mente.raw_env(players=2, options=SMALL)
    env.reset(seed=4)
    while not env.observe(env.agent_selection)["action_mask"][0]:
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[-1]))
    agent = env.agent_selection
    seat = env.seat_of[agent]
    before = env.vector_of(env.match, seat)
    ask = env.match.state["ask"]
    ask["card"]["questions"][ask["index"]]["answer"] = "SOMETHING ELSE ENTIRELY"
    after = env.vector_of(env.match, seat)
    assert np.array_equal(before, after)
    assert np.array_equal(env.observe(agent)["observation"], after)
    assert "SOMETHING" not in repr(env.match.view(env.seat_of[agent]))


def test_score_rewards_follow_the_iq_and_pass_api_test():
    """With reward="score" a Caída Libre agent's rewards add up to its IQ change (/10), step by step."""
    api_test(caida_libre.env(players=3, options={"language": "en"}, reward="score"), num_cycles=100)
    env = caida_libre.env(players=3, options={"language": "en"}, bots={1: "knowing", 2: "knowing"}, reward="score")
    trace = play(env, 4, first_legal)
    iq = env.unwrapped.match.view(0)["iq"][0]
    assert sum(reward for *_, reward, _ in trace) == pytest.approx((iq - 150) / 10)
    assert any(reward < 0 for *_, reward, _ in trace[:-1])  # penalties arrive as they happen, not only at the end


def test_bots_that_win_before_an_agent_acts_end_the_episode_at_reset():
    """On the small board a knowing bot may win on its first turn: the agent is told at once (-1, terminated)."""
    env = carrera_de_mente.env(players=3, options=SMALL, bots={1: "knowing", 2: "knowing"})
    for seed in range(400):
        env.reset(seed=seed)
        if env.unwrapped.match.is_over:
            break
    else:
        raise AssertionError("no seed of 400 has the bots win before the agent's first decision")
    _, reward, terminated, truncated, info = env.last()
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert not env.observe("player_0")["action_mask"].any()
    assert info["result"]["winners"] != [0]
    env.step(None)
    assert env.agents == []


@pytest.mark.parametrize("name", sorted(ENVS))
def test_max_cycles_truncates_every_agent_after_that_many_agent_steps(name):
    module, options = ENVS[name]
    env = module.env(players=3, options=options, max_cycles=5)
    trace = play(env, 1, first_legal)
    decisions = [entry for entry in trace if entry[4] is not None]
    assert len(decisions) == 5
    assert all(env.unwrapped.truncations.values()) and not any(env.unwrapped.terminations.values())
    assert not env.unwrapped.match.is_over


def test_carrera_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="not a seat"):
        carrera_de_mente.env(players=2, bots={5: "knowing"})
    with pytest.raises(ValueError, match="every seat is a bot"):
        carrera_de_mente.env(players=2, bots={0: "knowing", 1: "knowing"})
    with pytest.raises(ValueError, match="reward must be 'win'"):
        carrera_de_mente.env(players=2, reward="points")
    with pytest.raises(ValueError, match="undo_seconds must be 0 in an environment"):
        carrera_de_mente.env(players=2, options={"undo_seconds": 4})
    assert carrera_de_mente.env(players=2, options={"undo_seconds": 0}) is not None


def test_quiz_action_space_samples_what_gymnasium_discrete_samples_from_the_same_seed():
    """The quiz spaces' faster sample(mask) draws the same actions as gymnasium's Discrete, seed for seed."""
    from gymnasium.spaces import Discrete

    space = carrera_de_mente.env(players=3).action_space("player_0")
    assert isinstance(space, Discrete) and space == Discrete(space.n) and repr(space) == f"Discrete({space.n})"
    masks = np.random.default_rng(7).integers(0, 2, size=(400, space.n), dtype=np.int8)
    masks[::9] = 0  # nothing legal: the space's start
    masks[1::9] = 0
    masks[1::9, 5] = 1  # one legal action
    for seed in (0, 1, 12345):
        ours, theirs = type(space)(space.n, seed=seed), Discrete(space.n, seed=seed)
        got = [ours.sample(mask) for mask in masks] + [ours.sample() for _ in range(20)]
        want = [theirs.sample(mask) for mask in masks] + [theirs.sample() for _ in range(20)]
        assert got == want
        assert [type(x) for x in got] == [type(x) for x in want]
    bad = masks[2].copy()
    bad[0] = 2
    for wrong in (bad, masks[2].astype(np.int64), masks[2][:-1], list(masks[2])):
        with pytest.raises(AssertionError):
            space.sample(wrong)
