"""The quiz games as OpenSpiel Python games: loading, OpenSpiel's random_sim_test, MCTS playing whole games."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

import mindtable.rl.openspiel  # noqa: E402, F401  # registers the games

SMALL = {
    "mindtable_carrera_de_mente": "board:small turn_limit:12",
    "mindtable_caida_libre": "language:en",
    "mindtable_eesti_malumang": "language:en variant:outer_track cards_per_colour:1",
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_quiz_games_load_by_name_with_their_spaces(name):
    game = pyspiel.load_game(name, {"players": 3, "options": SMALL[name]})
    assert game.num_players() == 3
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert not state.is_terminal()
    assert state.legal_actions()
    assert len(state.observation_tensor(state.current_player())) == game.observation_tensor_size()


@pytest.mark.parametrize("name", sorted(SMALL))
def test_quiz_games_pass_openspiel_random_sim_test(name):
    game = pyspiel.load_game(name, {"players": 2, "options": SMALL[name], "seed": 5})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_three_players_and_another_variant_pass_random_sim_test():
    pyspiel.random_sim_test(
        pyspiel.load_game("mindtable_carrera_de_mente", {"players": 3, "options": "board:small turn_limit:6"}),
        num_sims=1,
        serialize=False,
        verbose=False,
    )
    pyspiel.random_sim_test(
        pyspiel.load_game("mindtable_caida_libre", {"players": 3, "options": "language:en weapons:false"}),
        num_sims=2,
        serialize=False,
        verbose=False,
    )


def play_with_mcts(name, options, seed):
    game = pyspiel.load_game(name, {"players": 2, "options": options, "seed": seed, "knows": 0.9})
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=3,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        random_state=np.random.RandomState(seed),
    )
    state = game.new_initial_state()
    chooser = random.Random(seed)
    mcts_moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chooser.choices(outcomes, weights)[0])
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            mcts_moves += 1
        else:
            state.apply_action(chooser.choice(state.legal_actions()))
    return state, mcts_moves


@pytest.mark.parametrize(
    ("name", "reasons"),
    [
        ("mindtable_carrera_de_mente", {"turn_limit", "six_colours"}),
        ("mindtable_eesti_malumang", {"cards_taken", "finish"}),
    ],
)
def test_mcts_bot_plays_a_whole_game(name, reasons):
    state, moves = play_with_mcts(name, SMALL[name].replace("turn_limit:12", "turn_limit:8"), seed=3)
    assert moves > 5
    assert state.match.result is not None  # the game ended by its own rules, not by max_moves
    assert state.match.result.reason in reasons
    assert sorted(state.returns()) in ([-1.0, 1.0], [1.0, 1.0])


def test_the_knowledge_model_is_a_chance_node_with_the_bots_probability():
    def after_know(knows, right):
        game = pyspiel.load_game(
            "mindtable_eesti_malumang", {"players": 2, "options": "language:en", "knows": knows, "seed": 1}
        )
        state = game.new_initial_state()
        while 0 not in state.legal_actions():
            state.apply_action(state.legal_actions()[-1])
        state.apply_action(0)  # know
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        state.apply_action(right)
        return outcomes, state.match.view(None)["last"]

    outcomes, last = after_know(0.0, 0)
    assert outcomes == [(0, 1.0)]  # knows nothing: never remembers
    assert last["correct"] is False and last["given"] == "?"
    sure, last = after_know(1.0, 1)
    # the bot's own model: knowing everything remembers at least as often as knowing half (a hard card may
    # still slip); when it remembers it types the answer as printed and is judged right
    assert sure[-1][0] == 1 and sum(p for _, p in sure) == pytest.approx(1.0)
    assert last["correct"] is True and last["given"] and last["given"] in last["answer"]
    half, _ = after_know(0.5, 1)
    assert [a for a, _ in half] == [0, 1] and dict(half)[1] <= dict(sure)[1]


def test_bad_options_are_refused_clearly():
    with pytest.raises(Exception, match="name:value pairs"):
        pyspiel.load_game("mindtable_caida_libre", {"options": "language"})
