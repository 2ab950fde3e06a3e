"""Solve a task with a set of tiles, and measure how hard a task is.

:func:`solve` looks for 7 different tiles, each with one side up, that complete a task; it returns the
layout (a proof that the task can be done) or ``None``. It is a depth-first search left to right, pruned by
the numbers that can still be completed to the right, so it only backtracks when two places want the same
tile.

:func:`difficulty` is the information a task demands, in bits: ``log2(120**7 / L)`` where ``L`` counts the
sequences of 7 tile sides (out of the 120) that satisfy every place and sign. It ignores that a tile can be
used only once (so it can be computed exactly in microseconds). An easy level-1 task is about 10 bits, a
level-10 task about 30.

>>> from mindtable.games.neurorace.tasks import parse_task
>>> task = parse_task("sun sun sun sun sun sun sun")
>>> layout = solve(task)
>>> len(layout), len({tile for tile, _ in layout})
(7, 7)
>>> round(difficulty(task), 1)
9.7
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from mindtable.games.neurorace.components import TILES, Side
from mindtable.games.neurorace.tasks import PLACES, Place, Task, layout_problems

#: A layout: for each place from ``start`` on, (item index, side index).
Layout = list[tuple[int, int]]
Candidate = tuple[int, int, int]  # item, side index, number

_ALL_SIDES: tuple[Side, ...] = tuple(side for tile in TILES for side in tile)


@lru_cache(maxsize=512)
def _tile_candidates(place: Place) -> tuple[Candidate, ...]:
    return tuple(candidates(place, TILES))


#: place -> {side: whether it satisfies the place}, filled in with the shipped sides and any other side met.
_MATCHES: dict[Place, dict[Side, bool]] = {}


def _matches(place: Place) -> dict[Side, bool]:
    table = _MATCHES.get(place)
    if table is None:
        if len(_MATCHES) >= 4096:
            _MATCHES.clear()
        table = _MATCHES[place] = {side: place.matches(side) for side in _ALL_SIDES}
    return table


def candidates(place: Place, items: Sequence[Sequence[Side]] | None = None) -> list[Candidate]:
    """The (item, side, number) choices that satisfy ``place`` (``items`` default: the shipped tiles)."""
    if items is None:
        return list(_tile_candidates(place))
    table = _matches(place)
    try:
        return [
            (item, index, side[2])
            for item, sides in enumerate(items)
            for index, side in enumerate(sides)
            if table[side]
        ]
    except KeyError:  # a side that is not on the shipped tiles: learn it, then the same again
        for sides in items:
            for side in sides:
                if side not in table:
                    table[side] = place.matches(side)
        return [
            (item, index, side[2])
            for item, sides in enumerate(items)
            for index, side in enumerate(sides)
            if table[side]
        ]
    except TypeError:  # sides given as lists: no table
        return [
            (item, index, side[2])
            for item, sides in enumerate(items)
            for index, side in enumerate(sides)
            if place.matches(side)
        ]


#: task -> {side: the places (0-6) it satisfies}, for the shipped sides and any other side met.
_HITS: dict[Task, dict[Side, tuple[int, ...]]] = {}


#: id(task) -> (task, its hits): a task's hash is worked out field by field; a bot asks with the same task object.
_HITS_BY_ID: dict[int, tuple[Task, dict[Side, tuple[int, ...]]]] = {}


def _hits(task: Task) -> dict[Side, tuple[int, ...]]:
    known = _HITS_BY_ID.get(id(task))
    if known is not None and known[0] is task:
        return known[1]
    hits = _HITS.get(task)
    if hits is None:
        if len(_HITS) >= 1024:
            _HITS.clear()
        by_side: dict[Side, list[int]] = {side: [] for side in _ALL_SIDES}
        for j, place in enumerate(task.places):
            for side in _shipped_fits(place):  # sides not on the shipped tiles are asked when met
                by_side[side].append(j)
        hits = _HITS[task] = {side: tuple(places) for side, places in by_side.items()}
    if len(_HITS_BY_ID) >= 1024:
        _HITS_BY_ID.clear()
    _HITS_BY_ID[id(task)] = (task, hits)  # the task is kept: its id is not reused while it is here
    return hits


@lru_cache(maxsize=512)
def _shipped_fits(place: Place) -> tuple[Side, ...]:
    """The shipped sides that satisfy ``place``."""
    table = _matches(place)
    return tuple(side for side in _ALL_SIDES if table[side])


def _fits(place: Place, side: Side) -> bool:
    table = _matches(place)
    fits = table.get(side)
    if fits is None:  # a side that is not on the shipped tiles: learn it
        fits = table[side] = place.matches(side)
    return fits


def candidates_by_place(
    task: Task, items: Sequence[Sequence[Side]] | None, start: int = 0, keys: Sequence[int] | None = None
) -> list[list[Candidate]]:
    """``[candidates(place, items) for place in task.places[start:]]``, from one pass over the items.

    ``keys`` (as many as ``items``) name the items in the candidates instead of their indices, for
    :func:`solve_candidates`. Speed: the places each side satisfies are listed once per task, so a
    side costs one lookup instead of one per place; the lists come out in the same order (item by item, each
    item's sides in order).
    """
    places = task.places[start:]
    if items is None:
        return [candidates(place, items) for place in places]
    by_side = _hits(task)
    cands: list[list[Candidate]] = [[] for _ in task.places]
    try:
        for item, sides in zip(range(len(items)) if keys is None else keys, items, strict=True):
            for index, side in enumerate(sides):
                fit = by_side.get(side)
                if fit is None:  # a side that is not on the shipped tiles: ask each place
                    fit = by_side[side] = tuple(j for j, place in enumerate(task.places) if _fits(place, side))
                for j in fit:
                    cands[j].append((item, index, side[2]))
    except TypeError:  # a side given as a list (not hashable): place by place
        cands = [candidates(place, items) for place in places]
        if keys is not None:
            cands = [[(keys[item], side, number) for item, side, number in found] for found in cands]
        return cands
    return cands[start:]


def solve(
    task: Task,
    items: Sequence[Sequence[Side]] | None = None,
    *,
    start: int = 0,
    previous: int | None = None,
) -> Layout | None:
    """Complete places ``start``..6 of ``task`` with different items, or return ``None``.

    ``items`` are the tiles to choose from, each a list of the sides it may show (default: the 60 shipped
    tiles, both sides). ``previous`` is the number on place ``start - 1``, if it is already filled.
    """
    if PLACES - start <= 0:
        return []
    return solve_candidates(task, candidates_by_place(task, items, start), start=start, previous=previous)


def solve_candidates(
    task: Task, cands: Sequence[Sequence[Candidate]], *, start: int = 0, previous: int | None = None
) -> Layout | None:
    """:func:`solve` from the candidates of places ``start``..6 as :func:`candidates_by_place` lists them.

    The layout names items as the candidates do (their index, or the key given for them). A caller that keeps
    candidates between solves (the solver bot, while tiles only leave the centre) filters them instead of
    listing them again; the lists are only read here.
    """
    count = PLACES - start
    if count <= 0:
        return []
    # Keep at each place the candidates from which the places to the right can still be completed (by numbers
    # alone): a sign needs only the smallest or largest number kept to its right. Places without a sign keep
    # their list as it is. Only a dead end is cut, so the search meets the layouts in the same order.
    signs = task.signs
    pruned: list[Sequence[Candidate]] = [()] * count
    low = high = 0
    for j in reversed(range(count)):
        kept = cands[j]
        sign = signs[start + j] if j < count - 1 else None
        if sign == "<":
            kept = [c for c in kept if c[2] < high]
        elif sign == ">":
            kept = [c for c in kept if c[2] > low]
        if not kept:
            return None
        pruned[j] = kept
        if j and signs[start + j - 1] is not None:
            numbers = [c[2] for c in kept]
            low, high = min(numbers), max(numbers)
    first_sign = signs[start - 1] if start > 0 and previous is not None else None
    used: set[int] = set()
    chosen: Layout = []

    def search(j: int, last: int | None) -> bool:
        if j == count:
            return True
        # The sign between this place and the one to its left, when a number lies there (sign_holds, inline).
        sign = None if last is None else first_sign if j == 0 else signs[start + j - 1]
        left = 0 if last is None else last
        for item, side, number in pruned[j]:
            if item in used or (sign == "<" and left >= number) or (sign == ">" and left <= number):
                continue
            used.add(item)
            chosen.append((item, side))
            if search(j + 1, number):
                return True
            used.discard(item)
            chosen.pop()
        return False

    return chosen if search(0, previous) else None


def verify_layout(task: Task, layout: Layout, items: Sequence[Sequence[Side]] | None = None) -> bool:
    """Independent check of a full layout: 7 different items whose chosen sides complete ``task``."""
    pool = TILES if items is None else items
    if len(layout) != PLACES or len({item for item, _ in layout}) != PLACES:
        return False
    return not layout_problems(task, [pool[item][side] for item, side in layout])


def count_layouts(task: Task, sides: Sequence[Side] = _ALL_SIDES) -> int:
    """How many sequences of 7 sides (repeats allowed) satisfy ``task``: a dynamic programme over numbers."""
    ways = [0] * 100
    for side in sides:
        if task.places[0].matches(side):
            ways[side[2]] += 1
    for index in range(1, PLACES):
        here = [0] * 100
        for side in sides:
            if task.places[index].matches(side):
                here[side[2]] += 1
        sign = task.signs[index - 1]
        total = sum(ways)
        below = 0  # sum of ways[m] for m < n
        new = [0] * 100
        for n in range(100):
            if here[n]:
                if sign == "<":
                    reach = below
                elif sign == ">":
                    reach = total - below - ways[n]
                else:
                    reach = total
                new[n] = here[n] * reach
            below += ways[n]
        ways = new
    return sum(ways)


def difficulty(task: Task) -> float:
    """Bits of selection the task demands (see the module doc); ``inf`` if no side sequence fits."""
    layouts = count_layouts(task)
    if layouts == 0:
        return math.inf
    return PLACES * math.log2(len(_ALL_SIDES)) - math.log2(layouts)


def choices(task: Task) -> list[int]:
    """For each place, how many of the 120 tile sides satisfy it on their own."""
    return list(_choices(task))


@lru_cache(maxsize=1024)
def _choices(task: Task) -> tuple[int, ...]:
    return tuple(len(_tile_candidates(place)) for place in task.places)
