"""The typed boundary holds at run time: a game that declares its view as a TypedDict (``Game[S, V]``) returns
exactly those keys, and the ask step's state and view are the keys of ``Ask`` and ``AskView``."""

from __future__ import annotations

import contextlib
import typing
from typing import Any

import pytest

import mindtable
from mindtable.core.bots import RandomBot
from mindtable.core.driver import Stalled, play_out
from mindtable.trivia.quiz import Ask, AskView


def _declared(cls: Any) -> tuple[frozenset[str], frozenset[str]] | None:
    """(required, optional) keys of a TypedDict, or None for another type."""
    if not typing.is_typeddict(cls):
        return None
    # The modules use postponed annotations: NotRequired is seen once the hints are resolved, not in the keys.
    hints = typing.get_type_hints(cls, include_extras=True)
    optional = {k for k, t in hints.items() if typing.get_origin(t) is typing.NotRequired} | cls.__optional_keys__
    return frozenset(hints) - optional, frozenset(optional)


def _view_type(game: mindtable.Game) -> Any:
    return typing.get_type_hints(type(game).view).get("return")


def _check(where: str, data: Any, declared: tuple[frozenset[str], frozenset[str]]) -> None:
    required, optional = declared
    keys = set(data)
    assert required <= keys, f"{where}: missing {sorted(required - keys)}"
    assert keys <= required | optional, f"{where}: undeclared {sorted(keys - required - optional)}"


def _walk(game_id: str, actions: int = 80) -> list[mindtable.Match]:
    """The positions of a game played by random bots (each step's snapshot), up to ``actions`` actions."""
    players = min(3, mindtable.get_game(game_id).max_players)
    match = mindtable.new_match(game_id, players=players, seed=5)
    seen = [mindtable.Match.from_snapshot(match.snapshot())]

    def keep(action: Any, events: Any) -> None:
        seen.append(mindtable.Match.from_snapshot(match.snapshot()))

    with contextlib.suppress(Stalled):
        play_out(match, {s: RandomBot(seat=s, seed=s) for s in range(players)}, max_actions=actions, on_events=keep)
    return seen


@pytest.mark.parametrize("game_id", mindtable.available_game_ids())
def test_a_typed_view_has_exactly_its_declared_keys_and_the_ask_step_its_own(game_id: str) -> None:
    declared = _declared(_view_type(mindtable.get_game(game_id)))
    if declared is None:
        pytest.skip(f"{game_id} declares no TypedDict view")
    for step, match in enumerate(_walk(game_id)):
        for seat in (*range(match.players), None):
            view = match.game.view(match.state, seat)
            _check(f"{game_id} step {step} seat {seat}", view, declared)
            if view.get("ask") is not None:
                _check(f"{game_id} step {step} seat {seat} ask", view["ask"], _declared(AskView) or ())
        ask = match.state.get("ask")
        if ask is not None:
            _check(f"{game_id} step {step} state ask", ask, _declared(Ask) or ())
