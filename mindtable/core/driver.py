"""Drive a match with bots on a virtual clock: deterministic and as fast as the rules allow.

Real-time games run on virtual time: each bot says when it wants to act, the earliest wish (or the game's
own deadline) happens, and everyone is asked again. Turn-based games are the same loop with every wish
"now". Ties go to the deadline first, then the lowest seat, so a run depends only on the seeds.

>>> import mindtable
>>> from mindtable.core.driver import play_out
>>> match = mindtable.new_match("the-mind", players=2, seed=3)
>>> bots = {seat: match.game.make_bot("proportional", seat=seat, seed=3) for seat in range(2)}
>>> result = play_out(match, bots)
>>> result.reason in ("won", "lost")
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mindtable.core.bots import Bot, Decision, Observation
from mindtable.core.errors import IllegalAction, MindtableError
from mindtable.core.events import Event, Result
from mindtable.core.match import Match


class Stalled(MindtableError):
    """No bot wants to act and no deadline is pending, but the match is not over."""


class _Observation(Observation):
    """The driver's observation: the legal actions are listed when the bot first reads them (during ``decide``,
    before anything else happens), so a bot that does not need them costs nothing for them; their types
    (``legal_types``) are asked of the match without listing them."""

    def __init__(
        self,
        seat: int,
        view: Mapping[str, Any],
        lister: Callable[[int], list[dict[str, Any]]],
        now: int,
        typer: Callable[[int], tuple[str, ...]] | None = None,
    ) -> None:
        fields = self.__dict__
        fields["seat"] = seat
        fields["view"] = view
        fields["now"] = now
        fields["_lister"] = lister
        fields["_typer"] = typer

    @property
    def legal_types(self) -> tuple[str, ...]:
        """The legal actions' types, from the listing if it was made, else asked without listing."""
        fields = self.__dict__
        types: tuple[str, ...] | None = fields.get("_types")
        if types is None:
            typer = fields["_typer"]
            if typer is not None and "_legal" not in fields:
                types = typer(fields["seat"])
            else:
                types = tuple(dict.fromkeys(a["type"] for a in self.legal_actions))
            fields["_types"] = types
        return types

    @property
    def legal_actions(self) -> list[dict[str, Any]]:  # type: ignore[override]  # a property: no failed lookup first
        fields = self.__dict__
        legal: list[dict[str, Any]] | None = fields.get("_legal")
        if legal is None:
            legal = fields["_legal"] = fields["_lister"](fields["seat"])
        return legal

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return (self.seat, self.view, self.legal_actions, self.now) == (
            other.seat,
            other.view,
            other.legal_actions,
            other.now,
        )

    __hash__ = None


def observation(match: Match, seat: int, view: dict[str, Any], now: int) -> Observation:
    """What a bot at ``seat`` is asked with: ``view`` (built already, perhaps with :meth:`Match.views`) and the
    legal actions a bot is offered (:meth:`Match.bot_legal_actions`), listed only if the bot reads them."""
    return _Observation(seat, view, match.bot_legal_actions, now, match.bot_legal_types)


def next_step(match: Match, bots: Mapping[int, Bot], now: int) -> tuple[int, dict[str, Any]] | None:
    """The earliest action any bot (or the game's deadline) wants at or after ``now``, with its time."""
    return _next_step(match, bots, sorted(bots), now)


def _next_step(
    match: Match, bots: Mapping[int, Bot], seats: list[int], now: int, to_act: list[int] | None = None
) -> tuple[int, dict[str, Any]] | None:
    best: tuple[int, int, dict[str, Any]] | None = None
    deadline = match.next_deadline()
    if deadline is not None:
        best = (max(deadline.at, now), -1, deadline.due_action())
    if seats:
        # Every bot's view in one call: the game builds the part all seats see once per step, if a bot reads it.
        views = match.bot_views(seats, to_act)
        legal_actions, legal_types = match.bot_legal_actions, match.bot_legal_types
        for seat in seats:
            decision: Decision | None = bots[seat].decide(
                _Observation(seat, views[seat], legal_actions, now, legal_types)
            )
            if decision is None:
                continue
            at = decision.at
            at = now if at is None or at < now else at
            if best is None or at < best[0] or (at == best[0] and seat < best[1]):
                best = (at, seat, {**decision.action, "seat": seat})
    if best is None:
        return None
    at, _, action = best
    action["at"] = at  # time always enters as "at", stamped by whoever drives the match (docs/protocol.md)
    return at, action


def play_out(
    match: Match,
    bots: Mapping[int, Bot],
    *,
    now: int | None = None,
    max_actions: int = 1_000_000,
    on_events: Callable[[dict[str, Any], list[Event]], None] | None = None,
) -> Result:
    """Let ``bots`` (seat -> bot) play ``match`` to its end on a virtual clock and return the result.

    A bot that asks for an illegal action is a bug in that bot: the error propagates with the bot's seat.
    """
    clock = match.clock if now is None else now
    seats = sorted(bots)
    # In a turn-by-turn game, bots that do nothing out of turn are only asked on their turn: the same game,
    # without building the views and listings of every other seat at every step. A bot whose answer out of
    # turn changes something in itself (a timed bot forgets the situation it was timing) says so with
    # ``rest()``, which the driver calls instead of asking it.
    idle = {s for s in seats if getattr(bots[s], "idle_out_of_turn", False)} if match.game.acts_in_turn else set()
    rests = {s: rest for s in idle if (rest := getattr(bots[s], "rest", None)) is not None}
    for _ in range(max_actions):
        if match.is_over:
            break
        acting = match.to_act()  # once a step: who is asked, and every bot's view["to_act"]
        asked = seats
        if idle:
            asked = [s for s in seats if s in acting or s not in idle]
            if rests:
                for seat, rest in rests.items():
                    if seat not in acting:
                        rest()
        step = _next_step(match, bots, asked, clock, acting)
        if step is None:
            raise Stalled(f"{match.game.id}: nobody wants to act and no deadline is pending at {clock} ms")
        clock, action = step
        try:
            events = match.apply(action)
        except IllegalAction as exc:
            raise IllegalAction(exc.code, f"bot at seat {action.get('seat')} chose {action}: {exc.message}") from exc
        if on_events is not None:
            on_events(action, events)
    else:
        raise Stalled(f"{match.game.id}: not over after {max_actions} actions")
    assert match.result is not None
    return match.result
