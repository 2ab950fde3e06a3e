"""Random play, legal and illegal, never breaks an invariant; views never show another player's hand."""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mindtable
from mindtable.core.match import Match
from mindtable.games.the_mind.rules import MAX_LIVES, MAX_STARS, lowest_card

KINDS = ["ready", "play", "stop", "propose_star", "propose_end", "agree", "reject", "fly", ""]

actions = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=9),  # 0-6: pick one of the seat's legal actions
        st.integers(min_value=-1, max_value=4),  # seat, sometimes out of range
        st.sampled_from(KINDS),
        st.one_of(st.integers(min_value=0, max_value=3000), st.integers(min_value=-50, max_value=-1)),
    ),
    min_size=10,
    max_size=250,
)


def check_invariants(match: Match) -> None:
    state = match.state
    cards = [c for hand in state["hands"] for c in hand]
    cards += [c for aside in state["set_aside"] for c in aside]
    cards += [c for pile in state["discards"] for c in pile]
    cards += [p["card"] for p in state["pile"]]
    assert len(cards) == len(set(cards)) == state["level"] * state["players"], "cards are conserved"
    assert all(1 <= c <= 100 for c in cards)
    assert 0 <= state["lives"] <= MAX_LIVES
    assert 0 <= state["stars"] <= MAX_STARS
    for hand in state["hands"]:
        assert hand == sorted(hand)
    for seat in range(match.players):
        view = match.view(seat)
        assert view["hand"] == state["hands"][seat]
        assert_view_hides_other_hands(match, seat)
    spectator = match.view(None)
    assert spectator["hand"] is None
    shown = json.dumps(spectator)
    assert "hands" not in shown


def assert_view_hides_other_hands(match: Match, seat: int) -> None:
    """Swapping every other player's hand for different cards must not change what ``seat`` sees."""
    state = copy.deepcopy(match.state)
    used = {c for h in state["hands"] for c in h} | {c for a in state["set_aside"] for c in a}
    used |= {c for d in state["discards"] for c in d} | {p["card"] for p in state["pile"]}
    free = iter(sorted(set(range(1, 101)) - used, reverse=True))
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            state["hands"][other] = sorted(next(free) for _ in hand)
    assert match.game.view(state, seat) == {k: v for k, v in match.view(seat).items() if k != "to_act"}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=2, max_value=4),
    seed=st.integers(0, 10_000),
    steps=actions,
    detection=st.sampled_from(["table", "players"]),
    blind=st.booleans(),
)
def test_random_actions_keep_every_invariant(players, seed, steps, detection, blind):
    match = mindtable.new_match(
        "the-mind", players=players, seed=seed, options={"detection": detection, "start_blind": blind}
    )
    now = 0
    for choice, seat, kind, step in steps:
        now = max(0, now + step)
        legal_seat = seat % players
        legal = match.legal_actions(legal_seat)
        if choice < 7 and legal:
            action = dict(legal[(now + choice) % len(legal)], at=max(now, match.clock))
        else:
            action = {"type": kind, "seat": seat, "at": now}
        before = match.snapshot()
        try:
            events = match.apply(action)
        except mindtable.IllegalAction as err:
            assert err.code and err.message
            assert match.snapshot() == before, f"illegal {action} changed the match"
            continue
        for event in events:
            if event.type == "dealt":
                assert event.to == (event.data["seat"],)
            if event.to is None:
                assert "hand" not in event.data
        check_invariants(match)
    replayed = mindtable.replay(match.record())
    assert replayed.snapshot() == match.snapshot()


def test_same_seed_and_actions_give_the_same_record():
    def run() -> dict:
        match = mindtable.new_match("the-mind", players=3, seed=99)
        from mindtable.core.driver import play_out

        bots = {s: match.game.make_bot("proportional", seat=s, seed=4) for s in range(3)}
        play_out(match, bots)
        return match.record()

    first, second = run(), run()
    assert first == second
    again = mindtable.replay(json.loads(json.dumps(first)))
    assert again.record() == first
    assert again.result.to_dict() == first["result"]


def test_a_tampered_record_does_not_replay():
    match = mindtable.new_match("the-mind", players=2, seed=1)
    from mindtable.core.driver import play_out

    play_out(match, {s: match.game.make_bot("proportional", seat=s, seed=1) for s in range(2)})
    record = match.record()
    record["start"]["rng"]["seed"] = 2  # the start pins the first deal; later deals come from the generator
    try:
        mindtable.replay(record)
    except mindtable.ReplayMismatch as err:
        assert "record" in str(err)
    else:
        raise AssertionError("a record with another seed must not replay to the same result")


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=4),
    seed=st.integers(0, 2**32),
    detection=st.sampled_from(["table", "players"]),
    blind=st.booleans(),
)
def test_long_random_walks_keep_every_invariant(players, seed, detection, blind):
    """Deep games: mostly legal actions (so levels, stars, mistakes and rewards happen), some junk."""
    import random

    chooser = random.Random(seed)
    match = mindtable.new_match(
        "the-mind",
        players=players,
        seed=seed,
        options={"detection": detection, "blind_after_win": blind, "last_level": chooser.randint(1, 4)},
    )
    now = 0
    for _ in range(400):
        if match.is_over:
            break
        now += chooser.randint(0, 500)
        seat = chooser.randrange(players)
        holders = [(lowest_card(match.state, s), s) for s in range(players) if lowest_card(match.state, s)]
        if holders and chooser.random() < 0.8:
            seat = min(holders)[1]  # the referee's hint: the seat that should play next, so games go deep
        legal = match.legal_actions(seat)
        if legal and chooser.random() < 0.85:
            # prefer playing and getting ready, so games go deep
            weights = [8 if a["type"] in ("play", "ready", "agree") else 1 for a in legal]
            action = dict(chooser.choices(legal, weights)[0], at=now)
        else:
            action = {"type": chooser.choice(KINDS), "seat": chooser.randint(-1, players), "at": now}
        before = match.snapshot()
        try:
            match.apply(action)
        except mindtable.IllegalAction:
            assert match.snapshot() == before
            continue
        check_invariants(match)
    assert mindtable.replay(match.record()).snapshot() == match.snapshot()
