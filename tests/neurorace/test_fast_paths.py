"""The speed-ups in NeuroRace change nothing a caller sees: each fast path against the plain one."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mindtable
from mindtable.core import driver
from mindtable.games.neurorace import bots as neurorace_bots
from mindtable.games.neurorace.bots import SolverBot, _first_random
from mindtable.games.neurorace.components import TILES
from mindtable.games.neurorace.deck import CARDS
from mindtable.games.neurorace.solver import candidates, candidates_by_place, solve, solve_candidates
from mindtable.games.neurorace.tasks import PLACES, Task, sign_holds

TASKS = [task for card in CARDS.values() for task in card.tasks]
SLOW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _plain_solve(task: Task, items: list[Any], start: int, previous: int | None) -> list[tuple[int, int]] | None:
    """The solver as it was before the speed work (candidates place by place, pruned by sets of numbers): the oracle."""
    count = PLACES - start
    if count <= 0:
        return []
    cands = [candidates(task.places[start + j], items) for j in range(count)]
    feasible: list[set[int]] = [set() for _ in range(count)]
    for j in reversed(range(count)):
        numbers = {c[2] for c in cands[j]}
        if j < count - 1:
            right, sign = feasible[j + 1], task.signs[start + j]
            if sign == "<":
                numbers = {n for n in numbers if n < max(right)}
            elif sign == ">":
                numbers = {n for n in numbers if n > min(right)}
        if not numbers:
            return None
        feasible[j] = numbers
    first_sign = task.signs[start - 1] if start > 0 and previous is not None else None
    pruned = [[c for c in cands[j] if c[2] in feasible[j]] for j in range(count)]
    used: set[int] = set()
    chosen: list[tuple[int, int]] = []

    def search(j: int, last: int | None) -> bool:
        if j == count:
            return True
        sign = first_sign if j == 0 else task.signs[start + j - 1]
        for item, side, number in pruned[j]:
            if item in used or (last is not None and not sign_holds(sign, last, number)):
                continue
            used.add(item)
            chosen.append((item, side))
            if search(j + 1, number):
                return True
            used.discard(item)
            chosen.pop()
        return False

    return chosen if search(0, previous) else None


@settings(max_examples=200, deadline=None)
@given(
    task_index=st.integers(0, len(TASKS) - 1),
    seed=st.integers(0, 10**6),
    size=st.integers(0, 60),
    start=st.integers(0, PLACES),
    previous=st.one_of(st.none(), st.integers(0, 99)),
    shape=st.sampled_from(["tuples", "lists", "one side", "turned", "odd side"]),
)
def test_candidates_and_layouts_equal_the_plain_solver(task_index, seed, size, start, previous, shape) -> None:
    task = TASKS[task_index]
    chooser = random.Random(seed)
    tiles = chooser.sample(range(len(TILES)), size)
    items: list[Any] = [TILES[t] for t in tiles]
    if shape == "lists":
        items = [[list(side) for side in tile] for tile in items]
    elif shape == "one side":
        items = [(tile[chooser.randrange(2)],) for tile in items]
    elif shape == "turned":
        items = [(tile[1], tile[0]) if chooser.random() < 0.5 else list(tile) for tile in items]
    elif shape == "odd side":
        items = [*items, (("sun", "pink", 12), ("any", "any", 99))]
    expected = [candidates(place, items) for place in task.places[start:]]
    assert candidates_by_place(task, items, start) == expected
    assert solve(task, items, start=start, previous=previous) == _plain_solve(task, items, start, previous)
    keys = [10 * index - 1 for index in range(len(items))]  # any names: the layout names the items by them
    keyed = solve_candidates(task, candidates_by_place(task, items, start, keys), start=start, previous=previous)
    plain = _plain_solve(task, items, start, previous)
    assert keyed == (None if plain is None else [(keys[item], side) for item, side in plain])


@given(text=st.text(max_size=40))
def test_a_draw_equals_the_first_number_of_a_generator_seeded_with_the_text(text: str) -> None:
    assert _first_random(random.Random(), text) == random.Random(text).random()


def _race(players: int, seed: int, options: dict[str, Any], mistakes: float) -> tuple[Any, list[Any]]:
    """A race's record and every decision each bot gave (with the view it was given)."""
    match = mindtable.new_match("neurorace", players=players, seed=seed, options=options)
    decisions: list[Any] = []

    class Watched(SolverBot):
        def decide(self, observation: Any) -> Any:
            decision = super().decide(observation)
            decisions.append((self.seat, observation.now, json.dumps(observation.view, sort_keys=True), decision))
            return decision

    bots = {s: Watched(seat=s, seed=seed, actions_per_second=2 + s, mistakes_per_task=mistakes) for s in range(players)}
    driver.play_out(match, bots)
    return match.record(), decisions


@SLOW
@given(
    players=st.integers(1, 4),
    seed=st.integers(0, 10_000),
    mistakes=st.sampled_from([0.0, 0.5, 2.0]),
    mode=st.sampled_from(["basic", "universal"]),
)
def test_solver_bots_decide_the_same_when_they_reuse_nothing(players, seed, mistakes, mode) -> None:
    options: dict[str, Any] = {"last_level": 2}
    if players > 1:
        options["mode"] = mode
    reused = _race(players, seed, options, mistakes)
    original_read, original_candidates = SolverBot._read_centre, SolverBot._candidates

    def read_afresh(self: SolverBot, raw: list[dict[str, Any]]) -> dict[int, Any]:
        self._centre = None
        return original_read(self, raw)

    def list_afresh(self: SolverBot, *args: Any) -> Any:
        self._cands = None
        return original_candidates(self, *args)

    original_decide = SolverBot.decide

    def decide_afresh(self: SolverBot, observation: Any) -> Any:
        self._decided = None
        return original_decide(self, observation)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(neurorace_bots, "_follow", lambda *args: neurorace_bots._UNKNOWN)
        patch.setattr(SolverBot, "_read_centre", read_afresh)
        patch.setattr(SolverBot, "_candidates", list_afresh)
        patch.setattr(SolverBot, "decide", decide_afresh)
        patch.setattr(neurorace_bots, "_first_random", lambda generator, text: random.Random(text).random())
        afresh = _race(players, seed, options, mistakes)
    assert afresh == reused


def _positions(players: int, seed: int, steps: int) -> Any:
    match = mindtable.new_match("neurorace", players=players, seed=seed)
    chooser = random.Random(seed)
    now = 0
    for _ in range(steps):
        if match.is_over:
            return
        yield match
        deadline = match.next_deadline()
        if deadline is not None and chooser.random() < 0.3:
            match.apply(deadline.due_action())
            now = max(now, deadline.at)
            continue
        legal = match.legal_actions(chooser.randrange(players))
        if legal:
            now += chooser.randrange(0, 300)
            match.apply({**chooser.choice(legal), "at": now})


@SLOW
@given(players=st.integers(1, 4), seed=st.integers(0, 10_000))
def test_views_built_together_equal_each_seats_own_and_keep_shared_parts_read_only(players: int, seed: int) -> None:
    for match in _positions(players, seed, 120):
        seats = list(range(players))
        together = match.views(seats)
        own = {seat: match.view(seat) for seat in seats}
        assert together == own
        assert json.dumps(together, sort_keys=True) == json.dumps(own, sort_keys=True)
        # Copies of a view built together are plain data a caller may change.
        for view in (copy.deepcopy(together[0]), pickle.loads(pickle.dumps(together[0]))):
            assert view == own[0]
            for entry in view["centre"]:
                entry["spot"] = -1
        # The shared parts refuse changes; a view of its own is fresh each time.
        for entry in together[0]["centre"][:1]:
            with pytest.raises(TypeError):
                entry["spot"] = -1
            with pytest.raises(TypeError):
                entry["up"]["number"] = -1
        mine = match.view(0)
        for entry in mine["centre"]:
            entry["up"]["number"] = -1
        assert match.view(0) == own[0] == match.views(seats)[0]


@SLOW
@given(seed=st.integers(0, 10_000), changes=st.lists(st.tuples(st.integers(0, 59), st.integers(0, 2)), max_size=8))
def test_views_built_together_follow_a_centre_changed_outside_the_moves(seed: int, changes: list[Any]) -> None:
    """Views built together keep the centre between moves; a state edited by hand (tests, tools) is read again."""
    for match in _positions(2, seed, 60):
        match.views([0, 1])
        centre = match.state["centre"]
        for spot, how in changes:
            entry = centre[spot]
            if entry is None:
                continue
            if how == 0:
                entry[1] ^= 1  # turned in place
            elif how == 1:
                centre[spot] = [entry[0], 1 - entry[1]]  # replaced
            else:
                centre[spot] = None  # taken away (and put back below)
                assert match.views([0, 1]) == {seat: match.view(seat) for seat in (0, 1)}
                centre[spot] = entry
            assert match.views([0, 1]) == {seat: match.view(seat) for seat in (0, 1)}


@pytest.mark.parametrize("odd", [[5, True], [-1, 0], [3, 2], [3, -1], [3.0, 1], [3, 1, 0], "x"])
def test_views_built_together_read_a_hand_made_centre_as_each_seats_own_view_does(odd: Any) -> None:
    match = mindtable.new_match("neurorace", players=2, seed=5, options={"countdown_seconds": 0})
    match.apply({"type": "ready", "seat": 0, "at": 0})
    match.apply({"type": "ready", "seat": 1, "at": 0})
    match.views([0, 1])
    match.state["centre"][4] = odd

    def outcome(build: Any) -> Any:
        try:
            return build()
        except Exception as exc:  # the same error either way is the point
            return type(exc)

    assert outcome(lambda: match.views([0, 1])) == outcome(lambda: {s: match.view(s) for s in (0, 1)})
    taken = [action["spot"] for action in match.legal_actions(0) if action["type"] == "take"]
    assert taken == [spot for spot, entry in enumerate(match.state["centre"]) if entry is not None]
