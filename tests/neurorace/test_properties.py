"""Property tests: random legal and illegal actions keep every invariant; illegal ones change nothing."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mindtable
from mindtable.core.errors import IllegalAction
from mindtable.games.neurorace.rules import state_problems

ILLEGAL_TEMPLATES = [
    {"type": "take", "spot": 99},
    {"type": "take", "spot": 0},
    {"type": "place", "slot": 6},
    {"type": "place", "slot": 0},
    {"type": "return"},
    {"type": "turn"},
    {"type": "stop"},
    {"type": "take_back"},
    {"type": "start"},
    {"type": "ready"},
    {"type": "go"},
    {"type": "end"},
    {"type": "fly"},
    {"type": "time_up"},
]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(1, 3),
    seed=st.integers(0, 10_000),
    steps=st.lists(
        st.tuples(st.integers(0, 2), st.booleans(), st.integers(0, 10_000), st.integers(0, 400)),
        min_size=10,
        max_size=80,
    ),
)
def test_random_actions_keep_invariants_and_illegal_ones_change_nothing(players, seed, steps) -> None:
    mode = {1: "solo", 2: "basic", 3: "universal"}[players]
    match = mindtable.new_match("neurorace", players=players, seed=seed, options={"mode": mode})
    now = 0
    for seat, legal_wanted, pick, gap in steps:
        if match.is_over:
            break
        seat %= players
        now += gap
        deadline = match.next_deadline()
        if deadline is not None and deadline.at <= now:
            match.apply(deadline.due_action())
        legal = match.legal_actions(seat)
        if legal_wanted and legal:
            action = dict(legal[pick % len(legal)], at=now)
            match.apply(action)
        else:
            template = ILLEGAL_TEMPLATES[pick % len(ILLEGAL_TEMPLATES)]
            action = {**template, "seat": None if template["type"] in ("time_up", "go") else seat, "at": now}
            before = match.snapshot()
            try:
                match.apply(action)
            except IllegalAction as error:
                assert error.code and error.message
                assert match.snapshot() == before
        assert state_problems(match.state, players) == []
        json.dumps(match.state)
    again = mindtable.replay(json.loads(json.dumps(match.record())))
    assert again.snapshot() == match.snapshot()
