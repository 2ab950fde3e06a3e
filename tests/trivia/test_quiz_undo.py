"""Taking a verdict back (issue #28), in each quiz game that shares the ask step (mindtable.trivia.quiz): with the
room's ``undo_seconds`` the asker's verdict is pending for that long — shown as a verdict is — and the asker may
undo it (deciding again) or let it count; when the time is up it counts, and the game goes on exactly as it would
have with the verdict given at once. With ``undo_seconds`` at 0 (the engine's default) nothing changes.

Each scenario is a real position of the game: the game's knowing bots play until an answer waits for the
asker's verdict, then the asker (a person) acts."""

from __future__ import annotations

from typing import Any

import pytest

import mindtable
from mindtable.core.driver import next_step, play_out
from mindtable.core.events import Deadline
from mindtable.core.match import Match, replay

#: (game, players, seed): the three games of the shared ask step.
GAMES = [("carrera-de-mente", 2, 1), ("caida-libre", 3, 1), ("eesti-malumang", 2, 1)]
UNDO_MS = 4_000


def plain(value: Any) -> Any:
    """``value`` without the undo option and its time: what a match with undo off holds at the same point."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items() if k not in ("undo_seconds", "undo_ms")}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def waiting_for_verdict(game_id: str, players: int, seed: int, options: dict[str, Any]) -> Match:
    """The game played by its knowing bots until an answer waits for the asker's verdict (phase ``judge``)."""
    match = mindtable.new_match(game_id, players=players, seed=seed, options=options)
    bots = {s: match.game.make_bot("knowing", seat=s, seed=seed) for s in range(players)}
    now = 0
    for _ in range(2_000):
        ask = match.state.get("ask")
        if ask is not None and ask["phase"] == "judge":
            return match
        step = next_step(match, bots, now)
        assert step is not None
        now, action = step
        match.apply(action)
    raise AssertionError(f"{game_id}: no answer waited for a verdict")


def pair(game_id: str, players: int, seed: int) -> tuple[Match, Match]:
    """The same position with undo on (4 s) and off (the engine's default)."""
    on = waiting_for_verdict(game_id, players, seed, {"undo_seconds": UNDO_MS // 1000})
    off = waiting_for_verdict(game_id, players, seed, {})
    assert plain(on.state) == plain(off.state)
    return on, off


def refused(match: Match, action: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    before = match.snapshot()
    with pytest.raises(mindtable.IllegalAction) as err:
        match.apply(action)
    assert match.snapshot() == before, f"the refused {action} changed the match"
    return err.value.code, err.value.params


@pytest.mark.parametrize(("game_id", "players", "seed"), GAMES)
def test_the_asker_undoes_a_verdict_and_gives_the_other_one(game_id: str, players: int, seed: int) -> None:
    on, off = pair(game_id, players, seed)
    ask = on.state["ask"]
    reader, answerer = ask["reader"], ask["answerers"][0]
    suggested = ask["suggestion"]["correct"]
    history = on.view(None)["quiz_history"]
    before = {seat: on.view(seat) for seat in [*range(players), None]}
    at = on.clock + 1_000

    on.apply({"type": "ask_confirm", "seat": reader, "at": at})
    seen = on.view(answerer)["ask"]
    assert seen["phase"] == "pending" and seen["undo_deadline"] == at + UNDO_MS
    assert seen["results"][-1]["correct"] is suggested
    assert on.view(None)["quiz_history"] == history, "a pending verdict is not counted yet"
    assert on.to_act() == [reader]
    assert {a["type"] for a in on.legal_actions(reader)} == {"ask_undo", "ask_final"}

    on.apply({"type": "ask_undo", "seat": reader, "at": at + 1_000})
    assert on.state["ask"]["phase"] == "judge" and on.state["ask"]["verdict"] is None
    # Every seat sees what it saw before the verdict: the card's answer hidden again from all but the asker.
    assert {seat: on.view(seat) for seat in before} == before

    on.apply({"type": "ask_overrule", "seat": reader, "at": at + 2_000})
    assert on.view(answerer)["ask"]["results"][-1]["correct"] is (not suggested)
    on.apply({"type": "ask_final", "seat": reader, "at": at + 2_000})
    entry = on.view(None)["quiz_history"][-1]
    assert entry["correct"] is (not suggested) and entry["overruled"] and entry["by"] == "reader"

    # The game goes on as if the other verdict had been given at once.
    off.apply({"type": "ask_overrule", "seat": reader, "at": at + 2_000})
    assert plain(on.state) == plain(off.state)
    assert replay(on.record()).state == on.state


@pytest.mark.parametrize(("game_id", "players", "seed"), GAMES)
def test_a_pending_verdict_counts_when_its_time_is_up(game_id: str, players: int, seed: int) -> None:
    on, off = pair(game_id, players, seed)
    reader = on.state["ask"]["reader"]
    at = on.clock + 1_000
    given = on.apply({"type": "ask_overrule", "seat": reader, "at": at})
    at_once = off.apply({"type": "ask_overrule", "seat": reader, "at": at})

    # While pending, every seat sees what it sees right after a verdict today (the card's answer included).
    pending = [e for e in given if e.type == "ask_pending"]
    decided = [e for e in at_once if e.type == "ask_decided"]
    assert len(pending) == len(decided) == 1
    assert pending[0].to == decided[0].to is None
    assert {k: v for k, v in pending[0].data.items() if k != "undo_deadline"} == decided[0].data
    assert [e.type for e in given] == ["ask_pending"]

    assert on.next_deadline() == Deadline(at + UNDO_MS, {"type": "ask_undo_time_up"})
    assert refused(on, {"type": "ask_undo_time_up", "at": at + UNDO_MS - 1})[0] == "not_now"
    counted = on.apply({**on.next_deadline().due_action(), "at": at + UNDO_MS})  # type: ignore[union-attr]
    # What the verdict does is what it did at once (the game's clock aside: the turn moves on 4 s later).
    assert [e.to_dict() for e in counted] == [e.to_dict() for e in at_once]
    assert on.to_act() == off.to_act()
    assert on.view(None)["quiz_history"][-1] == off.view(None)["quiz_history"][-1]


@pytest.mark.parametrize(("game_id", "players", "seed"), GAMES)
def test_only_the_asker_may_undo_and_only_a_pending_verdict(game_id: str, players: int, seed: int) -> None:
    on, _ = pair(game_id, players, seed)
    ask = on.state["ask"]
    reader = ask["reader"]
    others = [s for s in range(players) if s != reader]
    at = on.clock + 1_000
    assert refused(on, {"type": "ask_undo", "seat": reader, "at": at}) == ("ask_not_pending", {})

    on.apply({"type": "ask_confirm", "seat": reader, "at": at})
    for seat in others:
        assert "ask_undo" not in {a["type"] for a in on.legal_actions(seat)}
        assert refused(on, {"type": "ask_undo", "seat": seat, "at": at + 1}) == ("ask_not_reader", {"reader": reader})
        assert refused(on, {"type": "ask_final", "seat": seat, "at": at + 1})[0] == "ask_not_reader"
    # The verdict is given: deciding again needs the undo first.
    code, params = refused(on, {"type": "ask_overrule", "seat": reader, "at": at + 1})
    assert (code, params) == ("ask_verdict_pending", {"deadline": at + UNDO_MS})
    assert on.state["ask"]["phase"] == "pending"


@pytest.mark.parametrize(("game_id", "players", "seed"), GAMES)
def test_bots_are_never_offered_the_undo(game_id: str, players: int, seed: int) -> None:
    on, _ = pair(game_id, players, seed)
    reader = on.state["ask"]["reader"]
    on.apply({"type": "ask_confirm", "seat": reader, "at": on.clock + 1_000})
    assert [a["type"] for a in on.bot_legal_actions(reader)] == ["ask_final"]

    # A whole game of bots with undo on: their own verdicts wait or are let count, never taken back.
    match = mindtable.new_match(game_id, players=players, seed=seed + 1, options={"undo_seconds": 4})
    bots = {s: match.game.make_bot("knowing", seat=s, seed=seed) for s in range(players)}
    kinds: list[str] = []
    pending = 0

    def seen(action: dict[str, Any], events: list[mindtable.Event]) -> None:
        nonlocal pending
        kinds.append(action["type"])
        ask = match.state.get("ask")
        if ask is not None and ask["phase"] == "pending":
            pending += 1
            assert "ask_undo" not in {a["type"] for a in match.bot_legal_actions(ask["reader"])}

    play_out(match, bots, on_events=seen)
    assert pending > 0 and "ask_undo" not in kinds and "ask_final" in kinds


@pytest.mark.parametrize(("game_id", "players", "seed"), GAMES)
def test_undo_at_zero_is_the_game_as_before(game_id: str, players: int, seed: int) -> None:
    zero = mindtable.new_match(game_id, players=players, seed=seed, options={"undo_seconds": 0})
    unset = mindtable.new_match(game_id, players=players, seed=seed)
    assert "undo_seconds" not in zero.options, "a match at 0 starts (and records) as matches before the option"
    assert zero.snapshot() == unset.snapshot()

    off = waiting_for_verdict(game_id, players, seed, {"undo_seconds": 0})
    reader = off.state["ask"]["reader"]
    events = off.apply({"type": "ask_confirm", "seat": reader, "at": off.clock + 1_000})
    assert "ask_decided" in [e.type for e in events] and "ask_pending" not in [e.type for e in events]
    ask = off.state.get("ask")
    assert ask is None or ask["phase"] != "pending"
    assert off.next_deadline() is None or off.next_deadline().action["type"] != "ask_undo_time_up"  # type: ignore[union-attr]
    code, _ = refused(off, {"type": "ask_undo", "seat": reader, "at": off.clock + 1})
    assert code in ("ask_none", "ask_not_pending", "ask_not_reader")
