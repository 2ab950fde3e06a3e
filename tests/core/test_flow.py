"""The turn flow as data (mindtable.core.flow): phases with their moves and who acts, transitions on events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from mindtable.core.codes import refuse
from mindtable.core.errors import IllegalAction
from mindtable.core.events import Event, Result
from mindtable.core.flow import Flow, Phase
from mindtable.core.game import Game, State
from mindtable.core.match import Match, new_match
from mindtable.core.moves import Move, MoveTable, Param
from mindtable.core.rng import Rng


def _bid(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    state["bid"] = action["amount"]
    events = [Event("bid", {"amount": action["amount"]})]
    if action["amount"] == 3:
        events.append(Event("jackpot", {}))
    return events


def _play(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    state["played"] += 1
    return [Event("played", {"seat": action["seat"]}), Event("scored", {})]


def _gate_bidder(state: State, seat: Any, at: Any) -> IllegalAction | None:
    return None if seat == 0 else refuse("not_your_turn", waiting=0)


FLOW = Flow(
    [
        Phase("bid", moves=("bid",), to_act=lambda state: [0], help="bid"),
        Phase("play", moves=("play",), to_act=lambda state: [0, 1]),
    ],
    # "scored" names no phase; "jackpot" after "bid" wins (the last named); two plays end the game.
    on={"bid": "play", "jackpot": lambda state: "bid"},
    ended=lambda state: state["played"] >= 2,
    refusal="wrong_step",
)
MOVES = MoveTable(
    [Move("bid", _bid, _gate_bidder, params=(Param.choice("amount", lambda s, seat: [1, 2, 3]),)), Move("play", _play)],
    flow=FLOW,
)


class Auction(Game):
    id = "flow-auction"
    title = "Flow auction"
    min_players = max_players = 2
    moves = MOVES
    codes: Mapping[str, str] = {"wrong_step": "{action} is not the step now"}

    def initial_state(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        return {"phase": "bid", "bid": None, "played": 0}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return dict(state)

    def result(self, state: State) -> Result | None:
        return Result((0,), (1.0, 0.0), "done") if state["phase"] == "over" else None


@pytest.fixture(autouse=True)
def _registered() -> Any:
    from mindtable.core import registry

    registry.register_game(Auction())
    yield
    registry._loaded.pop(Auction.id)


def match() -> Match:
    return new_match(Auction.id, players=2, seed=1)


def test_a_move_named_by_a_phase_exists_only_in_it_and_is_refused_elsewhere_with_the_flows_code() -> None:
    m = match()
    assert [a["type"] for a in m.legal_actions(0)] == ["bid", "bid", "bid"]
    with pytest.raises(IllegalAction) as refused:
        m.apply({"type": "play", "seat": 0})
    assert refused.value.code == "wrong_step" and "play is not the step now" in str(refused.value)
    m.apply({"type": "bid", "seat": 0, "amount": 1})
    assert m.state["phase"] == "play" and [a["type"] for a in m.legal_actions(1)] == ["play"]
    with pytest.raises(IllegalAction) as refused:
        m.apply({"type": "bid", "seat": 0, "amount": 2})
    assert refused.value.code == "wrong_step"


def test_the_last_event_naming_a_phase_wins_and_an_event_naming_none_keeps_the_phase() -> None:
    m = match()
    m.apply({"type": "bid", "seat": 0, "amount": 3})  # "bid" leads to play, then "jackpot" back to bid
    assert m.state["phase"] == "bid"
    m.apply({"type": "bid", "seat": 0, "amount": 2})
    m.apply({"type": "play", "seat": 1})  # "played" and "scored" name no phase
    assert m.state["phase"] == "play"


def test_the_phase_says_who_acts_and_the_end_of_the_game_is_over_whatever_the_events_say() -> None:
    m = match()
    assert m.to_act() == [0]
    m.apply({"type": "bid", "seat": 0, "amount": 1})
    assert m.to_act() == [0, 1]
    m.apply({"type": "play", "seat": 0})
    m.apply({"type": "play", "seat": 1})
    assert m.state["phase"] == "over" and m.result is not None and m.to_act() == []


def test_a_record_replays_through_the_flow() -> None:
    m = match()
    for action in ({"type": "bid", "seat": 0, "amount": 3}, {"type": "bid", "seat": 0, "amount": 1}):
        m.apply(action)
    again = Match.from_snapshot(m.snapshot())
    assert again.state == m.state and again.to_act() == [0, 1]


def test_a_flow_that_names_what_does_not_exist_is_refused_when_declared() -> None:
    with pytest.raises(ValueError, match="'bid' leads to 'nowhere', which is not a phase"):
        Flow([Phase("bid")], on={"bid": "nowhere"})
    with pytest.raises(ValueError, match="phase 'bid' is declared twice"):
        Flow([Phase("bid"), Phase("bid")])
    with pytest.raises(ValueError, match="name moves that are not declared: fold"):
        MoveTable([Move("bid", _bid)], flow=Flow([Phase("bid", moves=("fold",))]))
    with pytest.raises(ValueError, match="'bid' declares its phases and the flow names it too"):
        MoveTable([Move("bid", _bid, phases=("bid",))], flow=Flow([Phase("bid", moves=("bid",))]))
    with pytest.raises(ValueError, match="phase_key 'step' is not the flow's key 'phase'"):
        MoveTable([Move("bid", _bid)], phase_key="step", flow=Flow([Phase("bid")]))
