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

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, overload

import numpy as np

from mindtable.core.events import Result
from mindtable.games.the_mind.rules import MAX_LIVES, MAX_STARS, REWARDS, SETUP

NO_CARD = 1_000  # larger than any card
NEVER = np.inf

_BOT_DEFAULTS: dict[str, dict[str, float]] = {
    "proportional": {"tempo_ms": 250.0, "noise": 0.25, "reaction_ms": 300, "ready_ms": 500},
    "random-timing": {"max_wait_ms": 10_000, "reaction_ms": 300, "ready_ms": 500},
}


class BatchResults(Sequence[Result]):
    """The results of :func:`simulate_batch` as arrays, one entry per game; a :class:`Result` is built only when an
    entry is read (``results[i]``, iteration), so a large batch costs a few bytes per game.

    ``progress`` (levels completed), ``lives``, ``stars``, ``won`` and ``plays`` (cards played) are NumPy arrays.
    """

    def __init__(
        self,
        players: int,
        last_level: int,
        progress: np.ndarray,
        lives: np.ndarray,
        stars: np.ndarray,
        plays: np.ndarray,
    ) -> None:
        self.players = players
        self.last_level = last_level
        self.progress = progress
        self.lives = lives
        self.stars = stars
        self.plays = plays
        self.won = progress == last_level

    def __len__(self) -> int:
        return len(self.progress)

    @overload
    def __getitem__(self, index: int) -> Result: ...

    @overload
    def __getitem__(self, index: slice) -> list[Result]: ...

    def __getitem__(self, index: int | slice) -> Result | list[Result]:
        if isinstance(index, slice):
            return [self._result(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("game index out of range")
        return self._result(index)

    def __iter__(self) -> Iterator[Result]:
        for i in range(len(self)):
            yield self._result(i)

    def _result(self, g: int) -> Result:
        completed = int(self.progress[g])
        won = bool(self.won[g])
        details = {
            "progress": completed,
            "level_reached": completed if won else completed + 1,
            "lives": int(self.lives[g]),
            "stars": int(self.stars[g]),
            "blind_levels": 0,
            "mode": "normal",
        }
        players = self.players
        return Result(
            tuple(range(players)) if won else (), (float(completed),) * players, "won" if won else "lost", details
        )


def simulate_batch(
    players: int,
    options: Mapping[str, Any],
    bot: str,
    bot_params: Mapping[str, Any],
    games: int,
    seed: int,
    chunk: int = 20_000,
) -> BatchResults:
    """Play ``games`` games of The Mind with every seat run by ``bot``; one result per game (:class:`BatchResults`).

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
    parts = []
    for start in range(0, games, chunk):
        count = min(chunk, games - start)
        parts.append(_simulate_chunk(rng, count, players, lives, stars, last_level, bot, params))
    joined = [np.concatenate([part[k] for part in parts]) if parts else np.zeros(0, np.int64) for k in range(4)]
    return BatchResults(players, last_level, *joined)


def _simulate_chunk(
    rng: np.random.Generator,
    games: int,
    players: int,
    lives0: int,
    stars0: int,
    last_level: int,
    bot: str,
    params: Mapping[str, float],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Levels completed, lives, stars and cards played of ``games`` games."""
    lives = np.full(games, lives0, dtype=np.int64)
    stars = np.full(games, stars0, dtype=np.int64)
    completed = np.zeros(games, dtype=np.int64)
    plays = np.zeros(games, dtype=np.int64)
    alive = np.ones(games, dtype=bool)
    reaction = float(params["reaction_ms"])
    # Each game's deck, in some order: every level deals the first cards of a fresh shuffle of it.
    decks = np.tile(np.arange(1, 101, dtype=np.int32), (games, 1))
    for level in range(1, last_level + 1):
        active = np.flatnonzero(alive)
        if active.size == 0:
            break
        level_lives = lives[active]
        hands = _deal(rng, decks, active, players, level)
        plays[active] += _play_level(rng, hands, players, level, level_lives, bot, params, reaction)
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
    return completed, lives, stars, plays


def _deal(rng: np.random.Generator, decks: np.ndarray, active: np.ndarray, players: int, level: int) -> np.ndarray:
    """``level`` cards for each seat of the ``active`` games, sorted, with a ``NO_CARD`` after the last.

    The first ``players * level`` steps of a Fisher-Yates shuffle of each game's deck, one column at a time for all
    games at once (any order of the deck shuffles to a uniformly random one, so the decks are never reset).
    """
    dealt = players * level
    deck = decks[active]
    rows = np.arange(active.size)
    for i in range(dealt):
        j = rng.integers(i, 100, size=active.size)
        drawn = deck[rows, j]
        deck[rows, j] = deck[:, i]
        deck[:, i] = drawn
    decks[active] = deck
    hands = np.sort(deck[:, :dealt].reshape(active.size, players, level), axis=2).astype(np.float64)
    # No card left is an infinite card: its wait is infinite and it is never the lowest.
    return np.concatenate([hands, np.full((active.size, players, 1), NEVER)], axis=2)


def _play_level(
    rng: np.random.Generator,
    hands: np.ndarray,
    players: int,
    level: int,
    lives: np.ndarray,
    bot: str,
    params: Mapping[str, float],
    reaction: float,
) -> np.ndarray:
    """Play one level, updating ``lives`` in place; a game with lives left at the end completed it.

    Returns the cards played in each game. Each seat's next card is kept in ``lowest`` and advanced where a card
    was played (no gather of every hand per step), and a counter of the cards left says when a level is over.
    """
    games = hands.shape[0]
    dealt = players * level
    index = np.zeros((games, players), dtype=np.int64)
    lowest = hands[:, :, 0].copy()  # each seat's next card (infinite: none left)
    left = np.full(games, dealt, dtype=np.int64)  # cards not played yet
    highest = np.zeros(games)  # highest card played (0: none yet)
    aside_below = np.zeros(games)  # remaining cards below this are set aside
    running = np.ones(games, dtype=bool)
    plays = np.zeros(games, dtype=np.int64)
    for _ in range(dealt):
        live = np.flatnonzero(running)
        if live.size == 0:
            break
        low = lowest[live]
        wait = _waits(rng, bot, params, reaction, low, highest[live], aside_below[live])
        seat = np.argmin(wait, axis=1)
        rows = np.arange(live.size)
        card = low[rows, seat]
        low[rows, seat] = NEVER
        error = low.min(axis=1) < card
        step = index[live, seat] + 1
        index[live, seat] = step
        lowest[live, seat] = hands[live, seat, step]
        highest[live] = card
        left[live] -= 1
        plays[live] += 1
        if error.any():
            failed = live[error]
            lives[failed] -= 1
            aside_below[failed] = np.maximum(aside_below[failed], card[error])
            running[failed[lives[failed] <= 0]] = False
        running[live[left[live] == 0]] = False
    return plays


def _waits(
    rng: np.random.Generator,
    bot: str,
    params: Mapping[str, float],
    reaction: float,
    lowest: np.ndarray,
    highest: np.ndarray,
    aside_below: np.ndarray,
) -> np.ndarray:
    """Each seat's planned wait (ms) in the current situation, as the bots in bots.py compute it.

    ``lowest`` holds each seat's next card as a float, infinite for a seat without cards (which never plays).
    """
    if bot == "random-timing":
        draw = rng.random(lowest.shape)
        wait = np.rint(reaction + float(params["max_wait_ms"]) * draw)
        return np.where(lowest == NEVER, NEVER, wait)
    noise = float(params["noise"])
    draw = rng.lognormal(0.0, noise, lowest.shape) if noise else np.ones(lowest.shape)  # exp(noise * Z)
    gap = lowest - highest[:, None]
    np.maximum(gap, 0.0, out=gap)
    gap *= draw
    gap *= float(params["tempo_ms"])
    gap += reaction
    wait = np.rint(gap, out=gap)  # infinite where a seat has no card
    if aside_below.any():
        is_aside: np.ndarray = np.asarray(lowest < aside_below[:, None])
        any_aside: np.ndarray = np.asarray(is_aside.any(axis=1))
        lowest_overall: np.ndarray = np.asarray(lowest.min(axis=1))
        # A set-aside card is played at once when it is the lowest out; everyone else waits for the set-aside ones.
        aside_wait = np.where(lowest == lowest_overall[:, None], reaction, NEVER)
        wait = np.where(is_aside, aside_wait, np.where(any_aside[:, None], NEVER, wait))
    return wait
