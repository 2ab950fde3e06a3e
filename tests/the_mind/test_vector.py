"""The vectorised simulator: its fast paths play exactly the games of the plain one, for every option it supports.

``simulate_batch`` keeps only the running games (compacted as they finish), moves each seat's next card with
flat gathers and takes seat-wise minimums. ``_plain_batch`` below is the straightforward formulation it was
optimised from (every game kept, gathers over the whole batch, reductions along the seats): the same random
numbers in the same order, so both must give identical arrays, not just similar statistics.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindtable.games.the_mind.rules import MAX_LIVES, MAX_STARS, REWARDS, SETUP
from mindtable.games.the_mind.vector import BatchResults, simulate_batch

NEVER = np.inf
DEFAULTS: dict[str, dict[str, float]] = {
    "proportional": {"tempo_ms": 250.0, "noise": 0.25, "reaction_ms": 300, "ready_ms": 500},
    "random-timing": {"max_wait_ms": 10_000, "reaction_ms": 300, "ready_ms": 500},
}


def _plain_batch(
    players: int, options: Mapping[str, Any], bot: str, bot_params: Mapping[str, Any], games: int, seed: int, chunk: int
) -> tuple[np.ndarray, ...]:
    """Levels completed, lives, stars and cards played of each game, the plain way."""
    lives0, stars0, last_level = SETUP[players]
    lives0 = options.get("lives") or lives0
    stars0 = stars0 if options.get("stars") is None else options["stars"]
    last_level = options.get("last_level") or last_level
    params = {**DEFAULTS[bot], **bot_params}
    rng = np.random.default_rng(seed)
    parts = []
    for start in range(0, games, chunk):
        count = min(chunk, games - start)
        lives = np.full(count, lives0, dtype=np.int64)
        stars = np.full(count, stars0, dtype=np.int64)
        completed = np.zeros(count, dtype=np.int64)
        plays = np.zeros(count, dtype=np.int64)
        alive = np.ones(count, dtype=bool)
        decks = np.tile(np.arange(1, 101), (count, 1))
        for level in range(1, last_level + 1):
            active = np.flatnonzero(alive)
            if active.size == 0:
                break
            deck = decks[active]
            rows = np.arange(active.size)
            for i in range(players * level):
                j = rng.integers(i, 100, size=active.size)
                drawn = deck[rows, j]
                deck[rows, j] = deck[:, i]
                deck[:, i] = drawn
            decks[active] = deck
            hands = np.sort(deck[:, : players * level].reshape(active.size, players, level), axis=2).astype(float)
            hands = np.concatenate([hands, np.full((active.size, players, 1), NEVER)], axis=2)  # no card left
            level_lives = lives[active]
            plays[active] += _plain_level(rng, hands, level_lives, bot, params)
            lives[active] = level_lives
            done = active[level_lives > 0]
            alive[active[level_lives <= 0]] = False
            completed[done] += 1
            if REWARDS.get(level) == "life":
                lives[done] = np.minimum(lives[done] + 1, MAX_LIVES)
            elif REWARDS.get(level) == "star":
                stars[done] = np.minimum(stars[done] + 1, MAX_STARS)
        parts.append((completed, lives, stars, plays))
    return tuple(np.concatenate([part[k] for part in parts]) for k in range(4))


def _plain_level(
    rng: np.random.Generator, hands: np.ndarray, lives: np.ndarray, bot: str, params: Mapping[str, float]
) -> np.ndarray:
    games, players, level = hands.shape[0], hands.shape[1], hands.shape[2] - 1
    reaction = float(params["reaction_ms"])
    index = np.zeros((games, players), dtype=np.int64)
    highest = np.zeros(games)
    aside_below = np.zeros(games)
    running = np.ones(games, dtype=bool)
    plays = np.zeros(games, dtype=np.int64)
    for _ in range(players * level):
        live = np.flatnonzero(running)
        if live.size == 0:
            break
        low = np.take_along_axis(hands[live], index[live][:, :, None], axis=2)[:, :, 0]  # each seat's next card
        if bot == "random-timing":
            wait = np.rint(reaction + float(params["max_wait_ms"]) * rng.random(low.shape))
            wait = np.where(low == NEVER, NEVER, wait)
        else:
            noise = float(params["noise"])
            draw = rng.lognormal(0.0, noise, low.shape) if noise else np.ones(low.shape)
            gap = np.maximum(low - highest[live, None], 0.0)
            wait = np.rint(gap * draw * float(params["tempo_ms"]) + reaction)
            is_aside = low < aside_below[live, None]
            aside_wait = np.where(low == low.min(axis=1)[:, None], reaction, NEVER)
            wait = np.where(is_aside, aside_wait, np.where(is_aside.any(axis=1)[:, None], NEVER, wait))
        seat = np.argmin(wait, axis=1)
        card = low[np.arange(live.size), seat]
        error = low.min(axis=1) < card
        index[live, seat] += 1
        highest[live] = card
        plays[live] += 1
        failed = live[error]
        lives[failed] -= 1
        aside_below[failed] = np.maximum(aside_below[failed], card[error])
        running[failed[lives[failed] <= 0]] = False
    return plays


def _arrays(results: BatchResults) -> tuple[np.ndarray, ...]:
    return results.progress, results.lives, results.stars, results.plays


bots = st.one_of(
    st.tuples(
        st.just("proportional"),
        st.fixed_dictionaries(
            {},
            optional={
                "noise": st.sampled_from([0.0, 0.1, 0.25, 0.7]),
                "tempo_ms": st.sampled_from([0.5, 50.0, 250.0]),
                "reaction_ms": st.sampled_from([0, 300]),
            },
        ),
    ),
    st.tuples(
        st.just("random-timing"), st.fixed_dictionaries({}, optional={"max_wait_ms": st.sampled_from([3, 10_000])})
    ),
)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    lives=st.one_of(st.none(), st.integers(1, MAX_LIVES)),
    stars=st.one_of(st.none(), st.integers(0, MAX_STARS)),
    last_level=st.one_of(st.none(), st.integers(1, 25)),
    bot=bots,
    games=st.integers(1, 400),
    chunk=st.sampled_from([1, 37, 20_000]),
    seed=st.integers(0, 2**32),
)
def test_fast_simulator_plays_exactly_the_plain_games(players, lives, stars, last_level, bot, games, chunk, seed):
    options = {"lives": lives, "stars": stars, "last_level": last_level}
    name, params = bot
    fast = simulate_batch(players, options, name, params, games, seed, chunk=chunk)
    plain = _plain_batch(players, options, name, params, games, seed, chunk)
    for got, expected in zip(_arrays(fast), plain, strict=True):
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    ("bot", "params"), [("proportional", {}), ("proportional", {"noise": 0.0}), ("random-timing", {})]
)
@pytest.mark.parametrize("options", [{}, {"lives": 1, "stars": 0}, {"lives": 5, "stars": 3, "last_level": 100}])
def test_every_supported_option_gives_consistent_results(players, bot, params, options):
    last = min(options.get("last_level") or SETUP[players][2], 100 // players)
    options = {**options, "last_level": last} if "last_level" in options else options
    results = simulate_batch(players, options, bot, params, 500, seed=4, chunk=150)
    again = simulate_batch(players, options, bot, params, 500, seed=4, chunk=150)
    for first, second in zip(_arrays(results), _arrays(again), strict=True):
        np.testing.assert_array_equal(first, second)
    assert len(results) == 500 and results.last_level == last
    assert ((results.progress >= 0) & (results.progress <= last)).all()
    assert ((results.lives >= 0) & (results.lives <= MAX_LIVES)).all()
    assert ((results.stars >= 0) & (results.stars <= MAX_STARS)).all()
    assert (results.won == (results.lives > 0)).all(), "a game ends by winning or by running out of lives"
    cards = players * results.progress * (results.progress + 1) // 2  # all the cards of the completed levels
    assert (results.plays >= cards).all()
    assert (results.plays[results.won] == cards[results.won]).all()
    assert (results.plays[~results.won] <= cards[~results.won] + players * (results.progress[~results.won] + 1)).all()
    first = results[0]
    assert first.details["progress"] == int(results.progress[0]) and first.details["mode"] == "normal"
