"""A vectorised batch simulator of The Mind for the timing bots (NumPy).

It plays thousands of games at once with the same strategies as :mod:`mindtable.games.the_mind.bots`,
under the same rules (table detection, normal mode). Only the random streams differ from the per-action
engine, so win rates agree within their confidence intervals (``tests/the_mind/test_bots.py`` checks it)
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
    """Levels completed, lives, stars and cards played of ``games`` games.

    Only the games still alive are carried from level to level (``active`` and the rows of ``decks``): a lost
    game costs nothing afterwards, and no step gathers or scatters the whole chunk.
    """
    lives = np.full(games, lives0, dtype=np.int64)
    stars = np.full(games, stars0, dtype=np.int64)
    completed = np.zeros(games, dtype=np.int64)
    plays = np.zeros(games, dtype=np.int64)
    reaction = float(params["reaction_ms"])
    active = np.arange(games)  # the games still alive, in order
    # Each active game's deck, in some order, one row per game (int8: cards are 1..100): every level deals the
    # first cards of a fresh shuffle of it.
    decks = np.tile(np.arange(1, 101, dtype=np.int8), (games, 1))
    for level in range(1, last_level + 1):
        if active.size == 0:
            break
        level_lives = lives[active]
        hands = _deal(rng, decks, players, level)
        plays[active] += _play_level(rng, hands, players, level, level_lives, bot, params, reaction)
        lives[active] = level_lives
        survived = level_lives > 0
        if not survived.all():
            active = active[survived]
            decks = decks.take(np.flatnonzero(survived), axis=0)  # C-ordered: _deal shuffles it through a flat view
        completed[active] += 1
        reward = REWARDS.get(level)
        if reward == "life":
            lives[active] = np.minimum(lives[active] + 1, MAX_LIVES)
        elif reward == "star":
            stars[active] = np.minimum(stars[active] + 1, MAX_STARS)
    return completed, lives, stars, plays


def _deal(rng: np.random.Generator, decks: np.ndarray, players: int, level: int) -> np.ndarray:
    """``level`` cards for each seat of every game (a row of ``decks``, shuffled in place), as floats sorted per
    seat with an infinite card after the last: shape (games, players, level + 1).

    The first ``players * level`` steps of a Fisher-Yates shuffle of each game's deck, one position at a time for
    all games at once (any order of the deck shuffles to a uniformly random one, so the decks are never reset).
    """
    games = decks.shape[0]
    dealt = players * level
    flat = np.reshape(decks, -1, copy=False)  # a view (never a copy): flat[g * 100 + j] is decks[g, j]
    starts = np.arange(0, games * 100, 100)  # flat position of each deck
    for i in range(dealt):
        where = np.asarray(rng.integers(i, 100, size=games))
        where += starts
        drawn = flat[where]
        flat[where] = decks[:, i]
        decks[:, i] = drawn
    hands = np.empty((games, players, level + 1))
    # No card left is an infinite card: its wait is infinite and it is never the lowest.
    hands[:, :, level] = NEVER
    # Sorted as int16: NumPy sorts many short rows of 16-bit integers several times faster than of int8 or floats.
    dealt_cards = decks[:, :dealt].astype(np.int16).reshape(games, players, level)
    dealt_cards.sort(axis=2)
    hands[:, :, :level] = dealt_cards
    return hands


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

    Returns the cards played in each game. Every game still running plays one card per step, so a game that
    survives plays all ``players * level`` cards and one that runs out of lives plays as many as steps it ran.

    The state of the running games only is kept, compacted (in the original order, so each draws the same
    random numbers as before) whenever games run out of lives: each step works on contiguous arrays with no
    gather over finished games. Each seat's next card is kept in ``low`` and its position in ``hands`` in
    ``ptr``; only the seat that played moves on (a flat gather of one element per game).
    """
    games = hands.shape[0]
    dealt = players * level
    cards = hands.reshape(-1)
    rows = np.arange(games) * players  # flat position of each running game's first seat in ``low``/``ptr``
    ptr = np.arange(games * players).reshape(games, players) * (level + 1)  # each seat's next card in ``cards``
    low = hands[:, :, 0].copy()  # each seat's next card (infinite: none left)
    highest = np.zeros(games)  # highest card played (0: none yet)
    aside_below = np.zeros(games)  # remaining cards below this are set aside
    running_lives = lives.copy()
    ids = np.arange(games)  # position of each running game in the level's arrays
    plays = np.full(games, dealt, dtype=np.int64)
    # Some running game had an error this level, so the set-aside rule may apply (the proportional bot plays by
    # it; the random-timing bot ignores its cards).
    any_aside = False
    follows_aside = bot != "random-timing"
    for step in range(dealt):
        count = ids.size
        if count == 0:
            break
        lowest = _seat_min(low)  # lowest card left in each game
        wait = _waits(rng, bot, params, reaction, low, highest)
        if any_aside and follows_aside:
            # A set-aside card is played at once when it is the lowest out, and everyone else waits for the
            # set-aside ones: in such a game the seat with the lowest card plays. Its row of waits is replaced by
            # the cards themselves, whose smallest is that seat.
            set_aside = lowest < aside_below
            for seat in range(players):  # (a column at a time: a broadcast mask is several times slower)
                np.copyto(wait[:, seat], low[:, seat], where=set_aside)
        position = rows[:count] + _seat_argmin(wait)
        flat_low = low.reshape(-1)
        flat_ptr = ptr.reshape(-1)
        card = flat_low[position]
        next_card = flat_ptr[position] + 1
        flat_ptr[position] = next_card
        flat_low[position] = cards[next_card]
        highest = card
        error = card > lowest  # a lower card was still in some hand
        if error.any():
            any_aside = True
            running_lives -= error
            np.maximum(aside_below, card, out=aside_below, where=error)
            out = running_lives <= 0
            if out.any():
                finished = ids[out]
                lives[finished] = running_lives[out]
                plays[finished] = step + 1
                keep = np.flatnonzero(~out)  # (``take`` copies rows several times faster than indexing)
                ids, highest, aside_below = ids.take(keep), highest.take(keep), aside_below.take(keep)
                running_lives = running_lives.take(keep)
                low, ptr = low.take(keep, axis=0), ptr.take(keep, axis=0)
    lives[ids] = running_lives
    return plays


def _seat_min(values: np.ndarray) -> np.ndarray:
    """The smallest of each row (a seat per column): a few elementwise minimums, far faster than ``min(axis=1)``
    over rows this short."""
    smallest = np.minimum(values[:, 0], values[:, 1]) if values.shape[1] > 1 else values[:, 0].copy()
    for seat in range(2, values.shape[1]):
        np.minimum(smallest, values[:, seat], out=smallest)
    return smallest


def _seat_argmin(values: np.ndarray) -> np.ndarray:
    """The column of the smallest of each row, the first one on ties (as ``argmin(axis=1)``)."""
    if values.shape[1] == 1:
        return np.zeros(values.shape[0], dtype=np.intp)
    best = values[:, 0]
    seat = (values[:, 1] < best).astype(np.intp)
    for column in range(2, values.shape[1]):
        best = np.minimum(best, values[:, column - 1])
        np.copyto(seat, column, where=values[:, column] < best)
    return seat


def _waits(
    rng: np.random.Generator,
    bot: str,
    params: Mapping[str, float],
    reaction: float,
    lowest: np.ndarray,
    highest: np.ndarray,
) -> np.ndarray:
    """Each seat's planned wait (ms) when no card is set aside, as the bots in bots.py compute it.

    ``lowest`` holds each seat's next card as a float, infinite for a seat without cards (which never plays).
    The random numbers are drawn for every seat of every running game, set-aside or not, in that order.
    """
    if bot == "random-timing":
        wait = rng.random(lowest.shape)
        wait *= float(params["max_wait_ms"])
        wait += reaction
        np.rint(wait, out=wait)
        np.copyto(wait, NEVER, where=lowest == NEVER)
        return wait
    noise = float(params["noise"])
    # No clamp at 0 needed: without a set-aside card every card left is above the highest played (a card played
    # out of order sets aside all below it), and rows with a set-aside card are replaced by the caller.
    gap = lowest - highest[:, None]
    if noise:
        gap *= rng.lognormal(0.0, noise, lowest.shape)  # exp(noise * Z)
    gap *= float(params["tempo_ms"])
    gap += reaction
    return np.rint(gap, out=gap)  # infinite where a seat has no card
