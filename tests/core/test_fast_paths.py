"""The fast paths change nothing a caller can see: the same checks, the same numbers, the same games."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

import mindtable
from mindtable.core import driver, moves
from mindtable.core.bots import Decision, Observation, observe
from mindtable.core.errors import IllegalAction
from mindtable.core.events import Event
from mindtable.core.moves import Move, MoveTable, Param
from mindtable.core.rng import Rng, Stream
from mindtable.games.neurorace import bots as neurorace_bots
from mindtable.games.neurorace.bots import SolverBot

GAMES = [
    ("the-mind", 2, {}),
    ("the-mind", 4, {"detection": "players"}),
    ("the-mind", 3, {"start_blind": True}),
    ("the-mind", 2, {"blind_after_win": True, "last_level": 1, "detection": "players"}),
    ("neurorace", 3, {}),
    ("carrera-de-mente", 3, {}),
    ("caida-libre", 2, {}),
    ("eesti-malumang", 4, {}),
]


def _random_positions(game_id: str, players: int, options: dict[str, Any], seed: int, steps: int = 150):
    match = mindtable.new_match(game_id, players=players, seed=seed, options=options)
    chooser = random.Random(seed)
    now = 0
    for _ in range(steps):
        if match.is_over:
            break
        yield match
        seat = chooser.randrange(players)
        legal = match.legal_actions(seat)
        if legal:
            now += chooser.randrange(0, 400)
            entry = chooser.choice(legal)
            action = {k: v for k, v in entry.items() if k != "inputs"}
            for field in entry.get("inputs", []):  # typed inputs (an answer, a number): something that fits
                action[field["name"]] = {"text": "Tallinn", "int": field.get("minimum"), "bool": True}[field["kind"]]
            match.apply({**action, "at": now})


@pytest.mark.parametrize(("game_id", "players", "options"), GAMES)
def test_every_seats_view_built_together_equals_its_own_view(game_id: str, players: int, options: dict) -> None:
    for match in _random_positions(game_id, players, options, seed=3):
        together = match.views(list(range(players)))
        assert together == {seat: match.view(seat) for seat in range(players)}


def _position(match: mindtable.Match) -> tuple[Any, ...]:
    """Everything of the match a snapshot holds (and its actions and result), read in place."""
    return (match.options, match.rng.to_dict(), match.clock, match.state, match._actions, match.result)


def _outcome(match: mindtable.Match, action: Any) -> tuple[Any, ...]:
    try:
        events = match.apply(action)
    except IllegalAction as exc:
        return ("refused", exc.code, exc.params, _position(match))
    return ("applied", [e.to_dict() for e in events], match.last_action, _position(match))


def _variants(entry: dict[str, Any], now: int, players: int) -> list[Any]:
    base = {k: v for k, v in entry.items() if k != "inputs"}
    return [
        {**base, "at": now},
        {**base, "at": now, "extra": 1},
        {**base, "at": -1},
        {**base, "at": True},
        {**base, "seat": players},
        {**base, "seat": True, "at": now},
        {**base, "at": None},
        {**base, "at": now, "card": 2**60},
        {**base, "at": now, "card": 1.0},
        {**base, "at": now, "card": True},
        {**base, "at": now, "spot": "x"},
        {k: v for k, v in base.items() if k != "seat"} | {"at": now},
        {**base, "type": "x" * 80, "at": now},
        {**base, "type": 3, "at": now},
        {**base, "type": "time_up", "at": now},
    ]


@pytest.mark.parametrize(("game_id", "players", "options"), GAMES)
def test_the_one_pass_check_accepts_and_refuses_exactly_what_the_full_check_does(game_id, players, options) -> None:
    chooser = random.Random(5)
    for match in _random_positions(game_id, players, options, seed=5, steps=40):
        seat = chooser.randrange(players)
        listed = match.legal_actions(seat) or [{"type": "play", "seat": seat}]
        snapshot = match.snapshot()
        untouched = _position(mindtable.Match.from_snapshot(snapshot))
        for entry in chooser.sample(listed, min(3, len(listed))):
            fast = slow = None
            for action in _variants(entry, match.clock + 10, players):
                if fast is None or slow is None:
                    fast = mindtable.Match.from_snapshot(snapshot)
                    slow = mindtable.Match.from_snapshot(snapshot)
                    slow._table = None  # the full path: envelope, then the move table's normalize
                outcome = _outcome(fast, action)
                assert outcome == _outcome(slow, action), action
                if outcome[-1] != untouched:  # applied (or changed by a refusal): the next try starts afresh
                    fast = slow = None


def _declared_listing(table: MoveTable, state: dict[str, Any], seat: int, at: int) -> list[dict[str, Any]]:
    """What the declaration says is legal, read the slow and obvious way (the oracle for the generated listing)."""
    actions: list[dict[str, Any]] = []
    for move in table.player_moves:
        if table._refusal(move, state, seat, at) is not None:
            continue
        listed = [p for p in move.params if p.listed]
        domains = []
        for param in listed:
            values = list(param.domain(state, seat)) if param.domain is not None else []
            domains.append([v for v in values if v is not None or param.default is None])
        inputs = [p.schema(state, seat) for p in move.params if not p.listed]
        for combination in itertools.product(*domains):
            entry: dict[str, Any] = {"type": move.type, "seat": seat}
            entry.update({p.name: v for p, v in zip(listed, combination, strict=True) if v is not None})
            if inputs:
                entry["inputs"] = inputs
            actions.append(entry)
    return actions


@pytest.mark.parametrize(("game_id", "players", "options"), GAMES)
def test_the_generated_listing_lists_exactly_what_the_declared_moves_allow(game_id, players, options) -> None:
    for match in _random_positions(game_id, players, options, seed=7, steps=120):
        table = match.game.moves
        assert table is not None
        for seat in range(players):
            assert match.legal_actions(seat) == _declared_listing(table, match.state, seat, match.clock)


QUIZ_GAMES = [
    ("carrera-de-mente", 3, {"answer_seconds": 30, "confirm_seconds": 20}),
    ("caida-libre", 3, {"answer_seconds": 30, "confirm_seconds": 20}),
    ("caida-libre", 2, {"undo_seconds": 4}),
    ("eesti-malumang", 4, {"undo_seconds": 4}),
    ("eesti-malumang", 3, {"variant": "cards_only"}),
]


@pytest.mark.parametrize(("game_id", "players", "options"), GAMES + QUIZ_GAMES)
def test_the_types_a_bot_is_offered_are_those_of_its_listing(game_id, players, options) -> None:
    """``Match.bot_legal_types`` (asked without listing) names the types of ``bot_legal_actions``, in order."""
    for match in _random_positions(game_id, players, options, seed=11, steps=120):
        for seat in range(players):
            listed = match.bot_legal_actions(seat)
            assert match.bot_legal_types(seat) == tuple(dict.fromkeys(a["type"] for a in listed))
            lazy = driver.observation(match, seat, match.view(seat), match.clock)
            assert lazy.legal_types == Observation(seat, match.view(seat), listed, match.clock).legal_types


@pytest.mark.parametrize(("game_id", "players", "options"), GAMES + QUIZ_GAMES)
def test_what_a_gate_declares_for_listings_is_what_the_gate_says(game_id, players, options) -> None:
    """A gate's ``opens`` opens exactly when the gate does, and its ``needs`` fails only when the gate refuses
    every seat (``declare_gate``): the listings and the one-pass check ask them instead of the gate."""
    declared = check_declared_gates(game_id, players, options, seed=11)
    assert declared or not game_id.startswith(("carrera", "caida", "eesti"))


def check_declared_gates(game_id: str, players: int, options: dict[str, Any], seed: int) -> int:
    """Hold every gate's declared ``opens`` and ``needs`` to the gate on random positions; how many were held."""
    declared = 0
    for match in _random_positions(game_id, players, options, seed=seed, steps=150):
        table = match.game.moves
        assert table is not None
        for move in table.moves:
            opens, needs = moves.gate_opens(move.gate), moves.gate_needs(move.gate)
            if opens is None and needs is None:
                continue
            if move.phases and match.state[table.phase_key] not in move.phases:
                continue  # the move does not exist now: its gate is never asked
            for seat in (*range(players), None):
                for at in (None, match.clock, match.clock + 20_000, match.clock + 200_000):
                    refusal = move.gate(match.state, seat, at)
                    declared += 1
                    if opens is not None:
                        assert opens(match.state, seat, at) == (refusal is None), (move.type, seat, at)
                    if needs is not None and not needs(match.state):
                        assert refusal is not None, (move.type, seat, at)
    return declared


def test_deals_and_shuffles_draw_the_numbers_of_below() -> None:
    for seed in range(40):
        for n in (1, 2, 7, 100):
            fast, slow = Stream(seed, n), Stream(seed, n)
            items = list(range(n))
            fast.shuffle(items)
            expected = list(range(n))
            for i in range(n - 1, 0, -1):
                j = slow.below(i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            assert items == expected
            k = seed % (n + 1)
            pool = list(range(n))
            for i in range(k):
                j = i + slow.below(n - i)
                pool[i], pool[j] = pool[j], pool[i]
            assert fast.sample(range(n), k) == pool[:k]
            assert fast.next64() == slow.next64()
    assert Rng(9).deal(range(1, 101), 5) == Rng(9).deal(list(range(1, 101)), 5)


def test_rolls_draw_the_numbers_of_the_draws_stream() -> None:
    chooser = random.Random(2)
    for _ in range(3000):
        seed = chooser.choice([chooser.randrange(100), chooser.randrange(-(2**70), 2**70)])
        draws = chooser.choice([0, 1, 511, 512, chooser.randrange(10**6)])
        low = chooser.randrange(-5, 5)
        high = low + chooser.choice([0, 1, 5, 99, 2**63, 2**64 - 1, 2**64, -1, chooser.randrange(10**9)])
        fast, slow = Rng(seed, draws), Rng(seed, draws)
        try:
            rolled: Any = fast.randint(low, high)
        except ValueError:
            rolled = ValueError
        try:
            expected: Any = slow.stream().randint(low, high)  # the draw's own stream, as every roll once was
        except ValueError:
            expected = ValueError
        assert rolled == expected and fast.draws == slow.draws, (seed, draws, low, high)
    assert [Rng(5, algorithm=1).roll() for _ in range(3)] == [Rng(5, algorithm=1).stream().randint(1, 6)] * 3


def test_a_match_keeps_its_start_until_asked_and_replays() -> None:
    match = mindtable.new_match("the-mind", players=3, seed=8)
    start = match.snapshot()
    bots = {s: match.game.make_bot("proportional", seat=s, seed=8) for s in range(3)}
    driver.play_out(match, bots)
    record = match.record()
    assert record["start"] == start
    assert mindtable.replay(record).snapshot() == match.snapshot()


def test_events_decisions_and_observations_stay_read_only_values() -> None:
    event = Event("played", {"card": 3}, to=(1,))
    assert event == Event("played", {"card": 3}, (1,)) and event != Event("played", {"card": 4}, (1,))
    decision = Decision({"type": "play"}, 5)
    assert decision == Decision({"type": "play"}, 5) and decision.at == 5
    match = mindtable.new_match("the-mind", players=2, seed=1)
    observation = observe(match, 0, now=0)
    for value, name in ((event, "type"), (decision, "at"), (observation, "now")):
        with pytest.raises(AttributeError):
            setattr(value, name, 1)


def test_the_driver_lists_legal_actions_when_a_bot_reads_them() -> None:
    match = mindtable.new_match("the-mind", players=2, seed=1)
    lazy = driver._Observation(0, match.view(0), match.legal_actions, 0)
    assert lazy == observe(match, 0, now=0) == lazy
    assert isinstance(lazy, Observation) and lazy.legal_actions == match.legal_actions(0)


def test_solver_bots_race_the_same_when_they_always_solve_again(monkeypatch) -> None:
    def race() -> dict:
        match = mindtable.new_match("neurorace", players=3, seed=4, options={"last_level": 3})
        bots = {s: SolverBot(seat=s, seed=4, actions_per_second=2 + s, mistakes_per_task=0.3) for s in range(3)}
        driver.play_out(match, bots)
        return match.record()

    reused = race()
    original = SolverBot._read_centre

    def read_afresh(self: SolverBot, raw: list[dict[str, Any]]) -> dict[int, Any]:
        self._centre = None
        return original(self, raw)

    monkeypatch.setattr(neurorace_bots, "_follow", lambda *args: neurorace_bots._UNKNOWN)
    monkeypatch.setattr(SolverBot, "_read_centre", read_afresh)
    assert race() == reused


def test_the_generated_check_tells_true_from_the_card_1_like_the_full_check() -> None:
    def effect(state: dict[str, Any], action: dict[str, Any], rng: Any) -> list[Event]:
        return []

    table = MoveTable([Move("play", effect, params=(Param.choice("card", lambda state, seat: [1, 2]),))])
    for value, accepted in ((1, True), (True, False), (1.0, False), (2, True), (3, False)):
        action = {"type": "play", "seat": 0, "card": value, "at": 5}
        quick = table.quick_normalize({}, action, players=2, clock=0, realtime=False)
        assert (quick == action) if accepted else quick is None, value
        if not accepted:
            with pytest.raises(IllegalAction) as refused:
                table.normalize({}, action)
            assert refused.value.code == "bad_value"
