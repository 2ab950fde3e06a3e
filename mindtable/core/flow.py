"""The turn flow as data: a game's phases, who acts in each, the moves each allows, and what leads from one to
the next (boardgame.io's ``phases`` and ``turn.order`` are the model).

A :class:`Flow` is declared beside the moves and handed to the move table (``MoveTable(moves, flow=FLOW)``);
the table's ``phase_key`` is then the flow's ``key``:

* each :class:`Phase` names the moves that exist in it (the table gives each its ``phases``: in another phase
  it is refused with the flow's ``refusal`` before its gate is asked) and who acts in it (``to_act``, which
  ``Game.to_act`` answers from). A move that no phase names exists in every phase, and its gate says when it
  is open (and why not);
* ``on`` says which phase an event leads to. After every move the table reads the events its effect returned,
  in order: each event named there sets the phase, so the last one wins, and a move whose events name none
  stays in its phase. A target is a phase, or a function of the state after the move that returns one;
* ``ended`` (optional) is the end of the game: once it holds after a move, the phase is ``over``, whatever the
  events said.

Effects then never assign the phase: they change the state and say what happened, and the flow says where
that leads. ``advance(state, events)`` applies the same transitions to events raised outside a move (the
setup of ``initial_state``).

>>> from mindtable.core.events import Event
>>> from mindtable.core.moves import Move, MoveTable
>>> def draw(state, action, rng):
...     state["hand"] += 1
...     return [Event("drew", {"hand": state["hand"]})] + ([Event("full", {})] if state["hand"] == 2 else [])
>>> def play(state, action, rng):
...     state["hand"] -= 1
...     return [Event("played", {})]
>>> FLOW = Flow(
...     [Phase("draw", moves=("draw",), to_act=lambda s: [0]), Phase("play", moves=("play",), to_act=lambda s: [1])],
...     on={"full": "play", "played": lambda s: "draw" if s["hand"] == 0 else "play"},
... )
>>> table = MoveTable([Move("draw", draw), Move("play", play)], flow=FLOW)
>>> state = {"phase": "draw", "hand": 0}
>>> for seat, kind in [(0, "draw"), (0, "draw"), (1, "play")]:
...     _ = table.by_type[kind].effect(state, {"type": kind, "seat": seat}, None)
...     print(state["phase"], FLOW.to_act(state))
draw [0]
play [1]
play [1]
>>> [a["type"] for a in table.legal_actions(state, 1)]
['play']
>>> table.normalize(state, {"type": "draw", "seat": 0})
Traceback (most recent call last):
...
mindtable.core.errors.IllegalAction: not now
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic

from mindtable.core.moves import S

if TYPE_CHECKING:
    from mindtable.core.events import Event
    from mindtable.core.moves import ActionDict, Effect
    from mindtable.core.rng import Rng

#: Who acts in a phase: the seats, from the state.
Actors = Callable[[S], list[int]]
#: Where an event leads: a phase, or a function of the state after the move that returns one.
Target = str | Callable[[S], str]


def _nobody(state: Any) -> list[int]:
    return []


@dataclass(frozen=True, slots=True)
class Phase(Generic[S]):
    """One phase of the turn flow: its name (the value of the state's phase key), the moves that exist only in
    it, who acts in it, and what it waits for in words (``help``, for refusals and help screens)."""

    name: str
    moves: tuple[str, ...] = ()
    to_act: Actors[S] = _nobody
    help: str = ""


@dataclass(frozen=True)
class Flow(Generic[S]):
    """A game's phases and the transitions between them. See the module's documentation."""

    phases: Sequence[Phase[S]]
    #: Event type -> the phase it leads to (a name, or a function of the state after the move).
    on: Mapping[str, Target[S]] = field(default_factory=dict)
    #: The end of the game: when it holds after a move, the phase is ``over``.
    ended: Callable[[S], bool] | None = None
    #: The state's key holding the phase.
    key: str = "phase"
    #: The phase of a finished game (added to ``phases`` when not declared; nobody acts in it).
    over: str = "over"
    #: The code refusing a move named by a phase, in another phase (``Move.phase_refusal``).
    refusal: str = "not_now"
    by_name: dict[str, Phase[S]] = field(init=False, repr=False, compare=False)
    #: Move type -> the phases it exists in.
    move_phases: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        phases = list(self.phases)
        if not any(p.name == self.over for p in phases):
            phases.append(Phase(self.over))
        by_name: dict[str, Phase[S]] = {}
        for phase in phases:
            if phase.name in by_name:
                raise ValueError(f"phase {phase.name!r} is declared twice")
            by_name[phase.name] = phase
        for event, target in self.on.items():
            if isinstance(target, str) and target not in by_name:
                raise ValueError(f"event {event!r} leads to {target!r}, which is not a phase: {', '.join(by_name)}")
        move_phases: dict[str, tuple[str, ...]] = {}
        for phase in phases:
            for move in phase.moves:
                move_phases[move] = (*move_phases.get(move, ()), phase.name)
        object.__setattr__(self, "phases", tuple(phases))
        object.__setattr__(self, "by_name", by_name)
        object.__setattr__(self, "move_phases", move_phases)

    # -- reading ----------------------------------------------------------------------------------------------
    def to_act(self, state: S) -> list[int]:
        """The seats the phase of ``state`` waits for (nobody in an unknown phase)."""
        phase = self.by_name.get(state[self.key])
        return phase.to_act(state) if phase is not None else []

    def help(self, name: str) -> str:
        """What phase ``name`` waits for, in words (its name when it says nothing)."""
        phase = self.by_name.get(name)
        return phase.help if phase is not None and phase.help else name

    # -- moving on --------------------------------------------------------------------------------------------
    def advance(self, state: S, events: Iterable[Event]) -> None:
        """Set the phase ``events`` lead to (the last event that names one wins), or ``over`` if the game ended."""
        on = self.on
        target: Target[S] | None = None
        for event in events:
            leads = on.get(event.type)
            if leads is not None:
                target = leads
        ended = self.ended
        if ended is not None and ended(state):
            target = self.over
        if target is not None:
            phase = target if isinstance(target, str) else target(state)
            writable: Any = state  # a TypedDict state is a Mapping to the type checker, a dict here
            writable[self.key] = phase

    def wrap(self, effect: Effect[S]) -> Effect[S]:
        """``effect`` followed by the transition its events lead to (what the move table runs)."""
        advance = self.advance

        def flowing(state: S, action: ActionDict, rng: Rng) -> list[Event]:
            events = effect(state, action, rng)
            advance(state, events)
            return events

        flowing.__name__ = getattr(effect, "__name__", "effect")
        flowing.__doc__ = getattr(effect, "__doc__", None)
        return flowing
