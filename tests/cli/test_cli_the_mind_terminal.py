"""The Mind's terminal UI, driven through the testable TerminalSession and a scripted clock (no TTY)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

import mindtable
from mindtable.core.match import Match
from mindtable.games.the_mind.bots import ProportionalBot
from mindtable.games.the_mind.terminal import (
    ScriptedKeys,
    TerminalError,
    TerminalSession,
    VirtualClock,
    run_session,
    run_terminal,
)


def text_of(session: TerminalSession, now: int) -> str:
    console = Console(file=io.StringIO(), width=110, color_system=None)
    console.print(session.render(now))
    return console.file.getvalue()  # type: ignore[attr-defined]


def position(hands: list[list[int]], *, phase: str = "playing", clock: int = 1000, **state: Any) -> Match:
    players = len(hands)
    snapshot = mindtable.new_match("the-mind", players=players, seed=3).snapshot()
    snapshot["state"].update(
        {
            "hands": hands,
            "level": max(len(h) for h in hands),
            "phase": phase,
            "ready": [phase == "playing"] * players,
            **state,
        }
    )
    snapshot["clock"] = clock
    return Match.from_snapshot(snapshot)


def test_bots_act_when_the_clock_reaches_their_time_and_not_before() -> None:
    match = mindtable.new_match("the-mind", players=2, seed=8)
    session = TerminalSession(match, 0, {1: ProportionalBot(seat=1, seed=8, ready_ms=800)})
    assert session.next_due() == 800
    assert session.advance(799) == []
    assert not match.view(0)["ready"][1]
    applied = session.advance(850)
    assert [(a.action["seat"], a.action["type"], a.action["at"]) for a in applied] == [(1, "ready", 800)]
    assert match.view(0)["ready"] == [False, True]
    assert "press r when you are ready" in text_of(session, 850)


def test_keys_become_the_human_seats_actions_at_the_time_pressed() -> None:
    match = position([[20, 70], [50]])
    session = TerminalSession(match, 0, {1: ProportionalBot(seat=1, seed=1)})
    assert "Your lowest card is 20" in text_of(session, 1500)
    applied = session.press(" ", now=1500)
    assert [a.action for a in applied] == [{"type": "play", "seat": 0, "at": 1500}]
    assert match.view(0)["top"] == 20
    screen = text_of(session, 1600)
    assert "You played 20" in screen
    assert "Top card" in screen and " 20 " in screen
    # A key pressed "before" the last action still happens after it: time never goes backwards.
    session.press("s", now=1200)
    assert match.actions[-1] == {"type": "propose_star", "seat": 0, "at": 1500}


def test_a_key_that_is_not_allowed_now_explains_why_and_changes_nothing() -> None:
    match = position([[20], [50]], phase="refocus")
    before = match.snapshot()
    session = TerminalSession(match, 0, {1: ProportionalBot(seat=1, seed=1)})
    assert session.press("\n", now=1100) == []
    assert session.press("z", now=1100) == []  # not a key of the game: ignored
    assert match.snapshot() == before
    assert "Not now: everyone must be ready (hands on the table) first" in text_of(session, 1100)


def test_playing_over_a_lower_card_shows_the_life_lost_and_the_set_aside_card() -> None:
    match = position([[90], [10, 95]], lives=3)
    session = TerminalSession(match, 0, {1: ProportionalBot(seat=1, seed=1)})
    session.press("\r", now=2000)
    assert match.view(0)["lives"] == 2
    screen = text_of(session, 2100)
    assert "LIFE LOST! 90 was played while lower cards were held. Lives left: 2. Set aside: Alan (bot): 10." in screen
    assert "Set aside     Alan (bot): 10" in screen
    assert "Lives ♥ ♥ (2)" in screen
    assert "Hands on the table" in screen


def test_a_star_proposal_is_agreed_by_the_bots_and_everyone_discards_their_lowest() -> None:
    match = position([[20, 70], [50, 60]], stars=1)
    bot = ProportionalBot(seat=1, seed=1, reaction_ms=300)
    session = TerminalSession(match, 0, {1: bot})
    session.press("s", now=1500)
    assert "You propose using a star" in text_of(session, 1500)
    applied = session.advance(1800)
    assert [a.action["type"] for a in applied] == ["agree"]
    assert match.view(0)["stars"] == 0
    assert match.view(0)["discards"] == [[20], [50]]
    screen = text_of(session, 1800)
    assert "Star used! Everyone discards their lowest card: You 20, Alan (bot) 50." in screen
    assert "Discarded     You: 20; Alan (bot): 50" in screen


def test_a_bot_proposal_waits_for_the_human_who_may_reject_it() -> None:
    match = position([[20], [50]], stars=1, proposal={"kind": "star", "by": 1, "agreed": [1]})
    session = TerminalSession(match, 0, {1: ProportionalBot(seat=1, seed=1)})
    assert "Alan (bot) proposed to use a star: press a to agree, x to reject" in text_of(session, 1000)
    session.press("x", now=1200)
    assert match.view(0)["proposal"] is None
    assert match.view(0)["stars"] == 1
    assert "You reject the star" in text_of(session, 1200)


def test_stop_key_in_players_detection() -> None:
    match = position([[90], [10]], detection="players")
    session = TerminalSession(match, 0, {1: ProportionalBot(seat=1, seed=1)})
    session.press(" ", now=1100)
    assert match.view(0)["lives"] == match.snapshot()["state"]["lives"]  # nobody noticed yet
    assert "t stop!" in text_of(session, 1100)
    session.press("t", now=1150)
    assert "LIFE LOST! Stop! 90 had been played over lower cards" in text_of(session, 1150)


def test_more_than_one_human_is_refused_clearly() -> None:
    match = mindtable.new_match("the-mind", players=3, seed=1)
    with pytest.raises(TerminalError, match="one keyboard can only play one seat: got 2 humans"):
        run_terminal(match, [0, 1], {2: ProportionalBot(seat=2)})
    with pytest.raises(TerminalError, match="nobody plays seat"):
        TerminalSession(match, 0, {1: ProportionalBot(seat=1)})


def test_a_scripted_session_runs_the_real_loop_and_quits_with_q() -> None:
    match = mindtable.new_match("the-mind", players=2, seed=21)
    clock = VirtualClock()
    keys = ScriptedKeys(clock, [(300, "r"), (400, "?"), (90_000, "q")])
    out = io.StringIO()
    run_terminal(
        match, [0], {1: ProportionalBot(seat=1, seed=21)}, keys=keys, clock=clock, console=Console(file=out, width=100)
    )
    actions = match.actions
    assert actions[:2] == [{"type": "ready", "seat": 0, "at": 300}, {"type": "ready", "seat": 1, "at": 500}]
    times = [a["at"] for a in actions]
    assert times == sorted(times)
    assert all(t <= 90_000 for t in times)
    # The human never played: the bot played its card, and the level waits for the human's lowest card.
    assert match.view(0)["hand_counts"][1] == 0
    assert "You left the game before it ended." in out.getvalue()


def test_watching_a_whole_bot_game_in_virtual_time() -> None:
    match = mindtable.new_match("the-mind", players=3, seed=4)
    bots = {seat: ProportionalBot(seat=seat, seed=4) for seat in range(3)}
    session = TerminalSession(match, None, bots)
    clock = VirtualClock()
    keys = ScriptedKeys(clock, [(10**9, "q")])
    out = io.StringIO()

    def stop_when_over(now: int) -> None:
        if match.is_over:
            session.finished = True

    run_session(session, keys, clock, Console(file=out, width=100), frame_ms=60_000, on_frame=stop_when_over)
    assert match.is_over
    reference = mindtable.new_match("the-mind", players=3, seed=4)
    from mindtable.core.driver import play_out

    expected = play_out(reference, {seat: ProportionalBot(seat=seat, seed=4) for seat in range(3)})
    assert match.result == expected  # real-time loop and virtual-clock driver agree
    assert session.press("a", now=clock.now()) == []
    assert "The team" in out.getvalue()


def test_blind_mode_shows_the_pile_face_down_and_offers_ending_the_run() -> None:
    match = mindtable.new_match("the-mind", players=2, seed=6, options={"start_blind": True})
    session = TerminalSession(match, 0, {1: ProportionalBot(seat=1, seed=6)})
    screen = text_of(session, 0)
    assert "blind mode" in screen
    assert "e end blind run" in screen
    session.press("r", now=100)
    session.advance(600)
    session.press(" ", now=700)
    screen = text_of(session, 700)
    assert "You played a card face down" in screen
    assert "1 card face down" in screen  # a count in words, one or many, as each language says it
