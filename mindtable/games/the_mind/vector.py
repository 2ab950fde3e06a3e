"""A vectorised batch simulator of The Mind for the timing bots (NumPy).

It plays thousands of games at once with the same strategies as :mod:`mindtable.games.the_mind.bots`,
under the same rules (table detection, normal mode). Only the random streams differ from the per-action
engine, so win rates agree within their confidence intervals (``tests/the_mind/test_vector.py`` checks it)
while running many times faster (``benchmarks/the_mind_bench.py`` measures it).

Why it is exact in distribution: every bot draws new noise whenever the situation changes and all plans
count from that moment, so each step is "everyone draws a wait, the shortest wait plays" — a vector
operation. Set-aside cards stay in their owner's hand array: they are exactly the remaining cards below the
highest card played out of order this level.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mindtable.core.events import Result
from mindtable.games.the_mind.rules import MAX_LIVES, MAX_STARS, REWARDS, SETUP

NO_CARD = 1_000  # larger than any card
NEVER = np.inf

_BOT_DEFAULTS: dict[str, dict[str, float]] = {
    "proportional": {"tempo_ms": 250.0, "noise": 0.25, "reaction_ms": 300, "ready_ms": 500},
    "random-timing": {"max_wait_ms": 10_000, "reaction_ms": 300, "ready_ms": 500},
}


def simulate_batch(
    players: int,
    options: Mapping[str, Any],
    bot: str,
    bot_params: Mapping[str, Any],
    games: int,
    seed: int,
    chunk: int = 20_000,
) -> list[Result]:
    """Play ``games`` games of The Mind with every seat run by ``bot``; one :class:`Result` per game.

    Raises :class:`NotImplementedError` for what only the per-action engine plays (the 'players' stop
    call, blind mode, other bots).
    """
    if bot not in _BOT_DEFAULTS:
        raise NotImplementedError(f"the vectorised simulator plays {', '.join(_BOT_DEFAULTS)}, not {bot!r}")
    unknown = set(bot_params) - set(_BOT_DEFAULTS[bot])
    if unknown:
        raise ValueError(f"unknown parameter(s) for bot {bot!r}: {', '.join(sorted(unknown))}")
    if options.get("detection", "table") != "table":
        raise NotImplementedError("the vectorised simulator plays table detection only")
    if options.get("start_blind") or options.get("blind_after_win"):
        raise NotImplementedError("the vectorised simulator does not play blind mode")
    if players not in SETUP:
        raise ValueError(f"The Mind is for 2 to 4 players, got {players}")
    default_lives, default_stars, default_last = SETUP[players]
    lives = options.get("lives") or default_lives
    stars = default_stars if options.get("stars") is None else options["stars"]
    last_level = options.get("last_level") or default_last
    params = {**_BOT_DEFAULTS[bot], **bot_params}
    rng = np.random.default_rng(seed)
    results: list[Result] = []
    for start in range(0, games, chunk):
        count = min(chunk, games - start)
        results.extend(_simulate_chunk(rng, count, players, lives, stars, last_level, bot, params))
    return results


def _simulate_chunk(
    rng: np.random.Generator,
    games: int,
    players: int,
    lives0: int,
    stars0: int,
    last_level: int,
    bot: str,
    params: Mapping[str, float],
) -> list[Result]:
    lives = np.full(games, lives0, dtype=np.int64)
    stars = np.full(games, stars0, dtype=np.int64)
    completed = np.zeros(games, dtype=np.int64)
    alive = np.ones(games, dtype=bool)
    reaction = float(params["reaction_ms"])
    for level in range(1, last_level + 1):
        active = np.flatnonzero(alive)
        if active.size == 0:
            break
        level_lives = lives[active]
        _play_level(rng, active.size, players, level, level_lives, bot, params, reaction)
        lives[active] = level_lives
        survived = level_lives > 0
        done = active[survived]
        alive[active[~survived]] = False
        completed[done] += 1
        reward = REWARDS.get(level)
        if reward == "life":
            lives[done] = np.minimum(lives[done] + 1, MAX_LIVES)
        elif reward == "star":
            stars[done] = np.minimum(stars[done] + 1, MAX_STARS)
    out = []
    for g in range(games):
        won = completed[g] == last_level
        level_reached = int(completed[g]) if won else int(completed[g]) + 1
        details = {
            "progress": int(completed[g]),
            "level_reached": level_reached,
            "lives": int(lives[g]),
            "stars": int(stars[g]),
            "blind_levels": 0,
            "mode": "normal",
        }
        out.append(
            Result(
                tuple(range(players)) if won else (),
                (float(completed[g]),) * players,
                "won" if won else "lost",
                details,
            )
        )
    return out


def _play_level(
    rng: np.random.Generator,
    games: int,
    players: int,
    level: int,
    lives: np.ndarray,
    bot: str,
    params: Mapping[str, float],
    reaction: float,
) -> None:
    """Play one level, updating ``lives`` in place; a game with lives left at the end completed it."""
    decks = rng.permuted(np.tile(np.arange(1, 101, dtype=np.int64), (games, 1)), axis=1)
    hands = np.sort(decks[:, : players * level].reshape(games, players, level), axis=2)
    hands = np.concatenate([hands, np.full((games, players, 1), NO_CARD, dtype=np.int64)], axis=2)
    index = np.zeros((games, players), dtype=np.int64)
    highest = np.zeros(games, dtype=np.int64)  # highest card played (0: none yet)
    aside_below = np.zeros(games, dtype=np.int64)  # remaining cards below this are set aside
    running = np.ones(games, dtype=bool)
    for _ in range(players * level):
        live = np.flatnonzero(running)
        if live.size == 0:
            break
        lowest = hands[live[:, None], np.arange(players)[None, :], index[live]]  # (n, players)
        wait = _waits(rng, bot, params, reaction, lowest, highest[live], aside_below[live])
        seat = np.argmin(wait, axis=1)
        card = lowest[np.arange(live.size), seat]
        others = lowest.copy()
        others[np.arange(live.size), seat] = NO_CARD
        error = others.min(axis=1) < card
        index[live, seat] += 1
        highest[live] = card
        if error.any():
            failed = live[error]
            lives[failed] -= 1
            aside_below[failed] = np.maximum(aside_below[failed], card[error])
            running[failed[lives[failed] <= 0]] = False
        empty = (hands[live[:, None], np.arange(players)[None, :], index[live]] == NO_CARD).all(axis=1)
        running[live[empty]] = False


def _waits(
    rng: np.random.Generator,
    bot: str,
    params: Mapping[str, float],
    reaction: float,
    lowest: np.ndarray,
    highest: np.ndarray,
    aside_below: np.ndarray,
) -> np.ndarray:
    """Each seat's planned wait (ms) in the current situation, as the bots in bots.py compute it."""
    has_card = lowest != NO_CARD
    if bot == "random-timing":
        draw = rng.random(lowest.shape)
        wait = np.rint(reaction + float(params["max_wait_ms"]) * draw)
        return np.where(has_card, wait, NEVER)
    noise = float(params["noise"])
    draw = np.exp(noise * rng.standard_normal(lowest.shape)) if noise else np.ones(lowest.shape)
    gap = np.maximum(lowest - highest[:, None], 0)
    wait = np.rint(reaction + float(params["tempo_ms"]) * gap * draw)
    is_aside: np.ndarray = np.asarray(lowest < aside_below[:, None])
    any_aside: np.ndarray = np.asarray(is_aside.any(axis=1))
    lowest_overall: np.ndarray = np.asarray(lowest.min(axis=1))
    # A set-aside card is played at once when it is the lowest out; everyone else waits for the set-aside ones.
    aside_wait = np.where(lowest == lowest_overall[:, None], reaction, NEVER)
    wait = np.where(is_aside, aside_wait, np.where(any_aside[:, None], NEVER, wait))
    return np.where(has_card, wait, NEVER)
