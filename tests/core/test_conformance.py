"""Conformance of every available game to the core protocol, by random play (as OpenSpiel checks its games).

A sixth game gets these checks for free: JSON-ready states, views and events; snapshots that load back;
illegal actions that change nothing; records that replay to the same state.
"""

from __future__ import annotations

import json
import random

import pytest

import mindtable
from mindtable.core.match import Match

JUNK = [
    {"type": "no-such-action"},
    {"type": ""},
    {"type": "play", "card": "zero"},
    {"type": "take", "spot": 999},
]


@pytest.mark.parametrize("game_id", mindtable.available_game_ids())
@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_respects_the_protocol(game_id: str, seed: int) -> None:
    game = mindtable.get_game(game_id)
    chooser = random.Random(seed)
    players = min(game.max_players, max(game.min_players, 2))
    match = mindtable.new_match(game_id, players=players, seed=seed)
    now = 0
    for _ in range(150):
        if match.is_over:
            break
        now += chooser.randint(0, 400)
        deadline = match.next_deadline()
        if deadline is not None and deadline.at <= now:
            match.apply(deadline.due_action())
            continue
        seat = chooser.randrange(players)
        junk = dict(chooser.choice(JUNK), seat=seat, at=max(now, match.clock))
        before = match.snapshot()
        with pytest.raises(mindtable.IllegalAction) as err:
            match.apply(junk)
        assert err.value.code and err.value.message
        assert match.snapshot() == before, f"{game_id}: illegal {junk} changed the match"
        legal = match.legal_actions(seat)
        json.dumps(legal)
        if not legal:
            continue
        action = dict(chooser.choice(legal), at=max(now, match.clock))
        events = match.apply(action)
        for event in events:
            json.dumps(event.to_dict())
            assert event.to is None or all(0 <= s < players for s in event.to)
        for viewer in [*range(players), None]:
            json.dumps(match.view(viewer))
        snapshot = match.snapshot()
        assert Match.from_snapshot(json.loads(json.dumps(snapshot))).snapshot() == snapshot
    again = mindtable.replay(json.loads(json.dumps(match.record())))
    assert again.snapshot() == match.snapshot()
    if match.is_over:
        assert match.legal_actions(0) == []
        json.dumps(match.result.to_dict())
