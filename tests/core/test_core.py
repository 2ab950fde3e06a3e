"""The game-agnostic core: registry, options, snapshots, records, typed actions.

The core is tested with the reference game of ``tests/reference_game.py`` (or with any registered game, never
by subclassing a real one).
"""

from __future__ import annotations

import json

import pytest

import mindtable
from mindtable.core.events import Action
from mindtable.core.match import Match
from mindtable.core.options import Option, validate_options
from mindtable.core.rng import Rng


def test_the_five_games_are_registered_through_entry_points_like_plugins():
    from importlib.metadata import entry_points

    declared = {ep.name for ep in entry_points(group="mindtable.games")}
    five = ["the-mind", "neurorace", "carrera-de-mente", "caida-libre", "eesti-malumang"]
    assert set(five) <= declared
    assert mindtable.game_ids()[:5] == five
    assert "the-mind" in mindtable.available_game_ids()


def test_a_broken_plugin_is_reported_and_breaks_nothing_else(monkeypatch):
    from mindtable.core import registry

    monkeypatch.setenv("MINDTABLE_GAMES", "broken-game=mindtable_no_such_plugin:GAME")
    monkeypatch.setattr(registry, "_targets", None)
    try:
        assert "broken-game" not in mindtable.game_ids()
        assert "the-mind" in mindtable.available_game_ids()
        assert "cannot be imported" in registry.broken_games()["broken-game"]
        with pytest.raises(mindtable.GameNotAvailable, match="installed but broken"):
            mindtable.get_game("broken-game")
    finally:
        registry._targets = None
        registry._broken.pop("broken-game", None)


def test_a_registered_game_without_an_engine_says_so():
    unavailable = [g for g in mindtable.game_ids() if g not in mindtable.available_game_ids()]
    for game_id in unavailable:
        with pytest.raises(mindtable.GameNotAvailable, match="not available yet"):
            mindtable.new_match(game_id, players=2)


def test_a_separate_package_can_add_a_game():
    from mindtable.core import registry
    from tests.reference_game import RiddleRelay

    class Variant(RiddleRelay):
        id = "riddle-variant"
        title = "Riddle Relay (variant)"

    mindtable.register_game(Variant())
    try:
        match = mindtable.new_match("riddle-variant", players=2, seed=1)
        assert match.game.title == "Riddle Relay (variant)"
        assert "riddle-variant" in mindtable.game_ids()
    finally:
        registry._loaded.pop("riddle-variant")


def test_options_errors_name_the_option_and_what_is_allowed():
    schema = (Option("timer", int, default=20, minimum=5, maximum=120), Option("fast", bool, default=False))
    assert validate_options(schema, {"timer": "30", "fast": "yes"}) == {"timer": 30, "fast": True}
    with pytest.raises(mindtable.InvalidOptions, match="'timer' must be an integer from 5 to 120, got 2"):
        validate_options(schema, {"timer": 2})
    with pytest.raises(mindtable.InvalidOptions, match="'fast' must be true or false, got 'maybe'"):
        validate_options(schema, {"fast": "maybe"})
    with pytest.raises(mindtable.InvalidOptions, match="unknown option 'slow'; allowed options: timer, fast"):
        validate_options(schema, {"slow": 1})


def test_rng_is_deterministic_and_serialisable():
    a = Rng(5)
    deck = list(range(20))
    a.shuffle(deck)
    b = Rng.from_dict(json.loads(json.dumps(Rng(5).to_dict())))
    other = list(range(20))
    b.shuffle(other)
    assert deck == other and a.to_dict() == {"seed": 5, "draws": 1, "algorithm": 2}


def test_typed_actions_are_accepted():
    match = mindtable.new_match("the-mind", players=2, seed=1)
    match.apply(Action("ready", seat=0, at=10))
    assert match.view(1)["ready"] == [True, False]
    assert match.actions == [{"type": "ready", "seat": 0, "at": 10}]


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ("play", "malformed_action"),
        ({"seat": 0, "at": 1}, "malformed_action"),
        ({"type": "ready", "seat": 7, "at": 1}, "bad_seat"),
        ({"type": "ready", "seat": True, "at": 1}, "bad_seat"),
        ({"type": "ready", "seat": 0, "at": -1}, "bad_time"),
        ({"type": "ready", "seat": 0, "at": 10**30}, "bad_time"),
        ({"type": "ready", "seat": 0, "at": 1, "mood": "calm"}, "unknown_field"),
        ({"type": "play", "seat": 0, "at": 1, "card": True}, "not_playing"),
        ({"type": "ready", "seat": 0, "at": 1, "note": "\ud800"}, "malformed_action"),
        ({"type": "ready", "seat": 0, "at": 1.5}, "bad_time"),
        ({"type": "dance", "seat": 0, "at": 1}, "unknown_action"),
    ],
)
def test_malformed_actions_get_a_code_and_change_nothing(action, code):
    match = mindtable.new_match("the-mind", players=2, seed=1)
    before = match.snapshot()
    with pytest.raises(mindtable.IllegalAction) as err:
        match.apply(action)
    assert err.value.code == code
    assert match.snapshot() == before


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.pop("state"), "missing the field 'state'"),
        (lambda s: s.update(game="chess"), "unknown game 'chess'"),
        (lambda s: s["state"].update(lives=9), "'lives' must be a whole number from 0 to 5"),
        (lambda s: s["state"]["hands"][0].append(s["state"]["hands"][1][0]), "appears twice"),
        (lambda s: s["state"]["hands"][0].append(101), "not a card from 1 to 100"),
        (lambda s: s.update(clock=-3), "'clock' must be a whole number"),
    ],
)
def test_bad_snapshots_name_the_field(change, message):
    snapshot = mindtable.new_match("the-mind", players=2, seed=1).snapshot()
    change(snapshot)
    with pytest.raises((mindtable.InvalidSnapshot, mindtable.UnknownGame), match=message):
        Match.from_snapshot(snapshot)


def test_a_match_from_a_snapshot_records_where_it_started(tmp_path):
    match = mindtable.new_match("the-mind", players=2, seed=4)
    match.apply({"type": "ready", "seat": 0, "at": 3})
    resumed = Match.from_snapshot(match.snapshot())
    resumed.apply({"type": "ready", "seat": 1, "at": 9})
    path = tmp_path / "game.json"
    path.write_text(json.dumps(resumed.record()))
    again = mindtable.replay(mindtable.load_record(str(path)))
    assert again.snapshot() == resumed.snapshot()


def test_a_file_that_is_not_a_record_is_named(tmp_path):
    path = tmp_path / "notes.json"
    path.write_text("{ not json")
    with pytest.raises(mindtable.InvalidSnapshot, match=r"notes\.json: line 1"):
        mindtable.load_record(str(path))


def test_a_rules_bug_during_apply_leaves_the_match_as_it_was():
    from mindtable.core import registry
    from tests.reference_game import RiddleRelay

    class Buggy(RiddleRelay):
        id = "riddle-buggy"

        def apply(self, state, action, rng):
            events = super().apply(state, action, rng)
            if action["type"] == "pass":
                raise RuntimeError("a bug after changing the state")
            return events

    mindtable.register_game(Buggy())
    try:
        match = mindtable.new_match("riddle-buggy", players=2, seed=3)
        seat = match.to_act()[0]
        match.apply({"type": "topic", "seat": seat, "topic": "sky"})
        before = match.snapshot()
        with pytest.raises(RuntimeError):
            match.apply({"type": "pass", "seat": seat})
        assert match.snapshot() == before
        assert len(match.actions) == 1
    finally:
        registry._loaded.pop("riddle-buggy")
