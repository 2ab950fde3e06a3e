"""Conformance of every registered game to the core protocol, by random play (as OpenSpiel checks its games).

A sixth game gets these checks for free, over a spread of player counts and options taken from its own option
schema:

* what ``check`` accepts is exactly what ``legal_actions`` lists (typed inputs filled in from their schemas),
  and every refusal carries a declared code with a message;
* hidden information (``Game.secrets``) never reaches another seat's view or events;
* JSON-ready states, views and events; snapshots that load back; illegal actions that change nothing;
  records that replay to the same state, with the start they pinned.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import mindtable
from mindtable.core.bots import fill_inputs
from mindtable.core.codes import CORE_CODES
from mindtable.core.errors import InvalidOptions
from mindtable.core.match import Match
from tests.reference_game import GAME as REFERENCE

mindtable.register_game(REFERENCE)

JUNK: list[dict[str, Any]] = [
    {"type": "no-such-action"},
    {"type": ""},
    {"type": "play", "card": "zero"},
    {"type": "take", "spot": 999},
    {"type": "answer", "text": "\ud800", "wager": 2},
    {"type": "ready", "mood": "calm"},
]
ODD_VALUES: list[Any] = [None, -1, 0, 1, 2, 3, 7, 60, 99, 10**6, True, False, 1.5, "x", "", [], {}, "sky", "mars"]


def option_sets(game: mindtable.Game) -> list[tuple[int, dict[str, Any]]]:
    """Player counts and options to try: the defaults, then each choice and flag of the schema on its own."""
    counts = sorted({game.min_players, min(game.max_players, max(game.min_players, 2)), min(game.max_players, 4)})
    variants: list[dict[str, Any]] = [{}]
    for option in game.option_schema:
        if option.choices is not None:
            variants += [{option.name: choice} for choice in option.choices if choice != option.default]
        elif option.type is bool:
            variants.append({option.name: not option.default})
    found = []
    for variant in variants:
        for players in counts:
            try:
                mindtable.new_match(game.id, players=players, options=variant)
            except InvalidOptions:
                continue
            found.append((players, variant))
            break
    return found


CASES = [
    pytest.param(game_id, players, options, id=f"{game_id}-{players}-{json.dumps(options, sort_keys=True)}")
    for game_id in mindtable.available_game_ids()
    for players, options in option_sets(mindtable.get_game(game_id))
]


def mutations(action: dict[str, Any], chooser: random.Random, players: int) -> list[dict[str, Any]]:
    """Near-misses of a legal action: one field changed, dropped or added; another seat; another type."""
    out = []
    keys = [k for k in action if k not in ("type", "at")]
    for _ in range(3):
        changed = dict(action)
        if keys and chooser.random() < 0.6:
            key = chooser.choice(keys)
            if key == "seat":
                changed["seat"] = chooser.randrange(players)
            elif chooser.random() < 0.2:
                del changed[key]
            else:
                changed[key] = chooser.choice(ODD_VALUES)
        else:
            changed[chooser.choice(["card", "spot", "slot", "topic", "text", "wager"])] = chooser.choice(ODD_VALUES)
        out.append(changed)
    return out


def position(match: Match) -> str:
    """What a snapshot holds, as JSON text: equal texts, equal snapshots (one encoding, no decoding, per check)."""
    return json.dumps([match.options, match.seed, match.rng.to_dict(), match.clock, match.state])


def declared(game: mindtable.Game, code: str) -> bool:
    return code in CORE_CODES or code in game.codes


def assert_no_secret_leaks(match: Match, events: list[mindtable.Event]) -> None:
    for allowed, text in match.game.secrets(match.state, match.players):
        for viewer in [*range(match.players), None]:
            if viewer in allowed:
                continue
            assert text not in json.dumps(match.view(viewer)), f"{text} leaked into the view of seat {viewer}"
            seen = json.dumps(mindtable.events_for(events, viewer))
            assert text not in seen, f"{text} leaked into an event seen by seat {viewer}"


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_respects_the_protocol(game_id: str, players: int, options: dict[str, Any], seed: int) -> None:
    game = mindtable.get_game(game_id)
    chooser = random.Random(seed)
    match = mindtable.new_match(game_id, players=players, seed=seed, options=options)
    table = game.moves
    assert table is not None, f"{game_id} declares no move table"
    # What the game declares fixed (left out of the server's position fingerprint) must never change.
    fixed = {key: json.dumps(match.state[key], sort_keys=True) for key in game.fixed_state}
    now = 0
    for _ in range(120):
        if match.is_over:
            break
        now += chooser.randint(0, 400)
        deadline = match.next_deadline()
        if deadline is not None and deadline.at <= now:
            match.apply(deadline.due_action())
            continue
        at = max(now, match.clock)
        seat = chooser.randrange(players)
        junk = dict(chooser.choice(JUNK), seat=seat, at=at)
        before = position(match)
        with pytest.raises(mindtable.IllegalAction) as err:
            match.apply(junk)
        assert declared(game, err.value.code) and err.value.message
        assert position(match) == before, f"{game_id}: illegal {junk} changed the match"
        legal = match.legal_actions(seat)
        json.dumps(legal)
        if any(entry["type"] == "ask_final" for entry in legal):  # a verdict pending, its undo time running
            due = match.next_deadline()
            assert due is not None and due.action["type"] == "ask_undo_time_up", (
                f"{game_id}: a pending verdict must count when its time is up (next_deadline: QUIZ.deadline)"
            )
        filled = [dict(fill_inputs(entry, chooser), at=at) for entry in legal]
        # Listed => accepted.
        for action in filled:
            match.check(action)
        # Accepted => listed (near-misses of listed actions, and junk, for every seat).
        candidates = [m for action in filled for m in mutations(action, chooser, players)]
        candidates += [dict(entry, seat=chooser.randrange(players), at=at) for entry in filled]
        for candidate in candidates[:30]:
            try:
                normalised = match.check(candidate)
            except mindtable.IllegalAction as exc:
                assert declared(game, exc.code), f"{game_id}: undeclared code {exc.code!r}"
                assert exc.message and exc.message != exc.code.replace("_", " ")
                continue
            listed = match.legal_actions(normalised["seat"]) if "seat" in normalised else []
            assert table.covers(listed, normalised, match.state), f"{game_id}: accepted {candidate} is not listed"
        assert position(match) == before
        if not filled:
            continue
        events = match.apply(chooser.choice(filled))
        for event in events:
            json.dumps(event.to_dict())
            assert event.to is None or all(0 <= s < players for s in event.to)
        assert_no_secret_leaks(match, events)
        for viewer in [*range(players), None]:
            view = match.view(viewer)
            json.dumps(view)
            assert view["to_act"] == match.to_act()
        if game.acts_in_turn:  # what it declares: nobody but the seats to act has a legal action
            idle = [s for s in range(players) if s not in match.to_act() and match.legal_actions(s)]
            assert idle == [], f"{game_id}: seats {idle} have legal actions out of turn"
        snapshot = match.snapshot()  # JSON data already (from_snapshot takes it through JSON text once more)
        assert Match.from_snapshot(snapshot).snapshot() == snapshot
        changed = [key for key, text in fixed.items() if json.dumps(match.state[key], sort_keys=True) != text]
        assert changed == [], f"{game_id}: the parts declared fixed {changed} changed"
    record = json.loads(json.dumps(match.record()))
    assert record["rules"] == game.rules_revision and "start" in record
    again = mindtable.replay(record)
    assert again.snapshot() == match.snapshot()
    assert again.actions == match.actions
    if match.is_over:
        assert match.legal_actions(0) == [] and match.to_act() == []
        json.dumps(match.result.to_dict())


@pytest.mark.parametrize("game_id", mindtable.available_game_ids())
def test_game_codes_never_redefine_core_codes(game_id: str) -> None:
    game = mindtable.get_game(game_id)
    assert not set(game.codes) & set(CORE_CODES), "a game code reuses a core code with another meaning"
    assert all(isinstance(t, str) and t for t in game.codes.values())


def test_the_random_bot_plays_the_reference_game_to_the_end_by_typing_answers() -> None:
    from mindtable.core.driver import play_out

    for seed in range(5):
        match = mindtable.new_match("riddle-relay", players=3, seed=seed)
        bots = {seat: mindtable.RandomBot(seat=seat, seed=seed) for seat in range(3)}
        result = play_out(match, bots)
        typed = [a for a in match.actions if a["type"] == "answer"]
        assert typed and all(isinstance(a["text"], str) and 1 <= a["wager"] <= 3 for a in typed)
        assert result.reason in ("target", "no_riddles")
