"""The move table: a game declares each move once, and listing, checking and applying all come from it.

A :class:`Move` says who may make it and when (its *gate*), which parameters it takes (each a :class:`Param`
with its domain now), and what it does (its *effect*). From that one declaration the game answers

* ``legal_actions(state, seat)``: every move whose gate opens for ``seat``, one entry per combination of its
  listed parameters, and an ``"inputs"`` schema for parameters a player types (free text, a number);
* ``check(state, action)``: the same gate, the same domains — so what is accepted is exactly what is listed;
* ``apply(state, action, rng)``: the effect, on the action normalised to its declared fields (defaults filled
  in, nothing undeclared kept), which is also what the record stores.

>>> from mindtable.core.codes import MAX_TIME_MS, fresh, refuse
>>> def my_turn(state, seat, at):
...     if state["turn"] != seat:
...         return refuse("not_your_turn", waiting=state["turn"])
...     return None
>>> def guess(state, action, rng):
...     state["guesses"].append(action["word"])
...     state["turn"] = 1 - state["turn"]
...     return []
>>> table = MoveTable([Move("guess", gate=my_turn, params=(Param.text("word", max_length=20),), effect=guess)])
>>> state = {"turn": 0, "guesses": []}
>>> table.legal_actions(state, 0)
[{'type': 'guess', 'seat': 0, 'inputs': [{'name': 'word', 'kind': 'text', 'max_length': 20, 'optional': False}]}]
>>> table.legal_actions(state, 1)
[]
>>> table.normalize(state, {"type": "guess", "seat": 0, "word": " hello "})
{'type': 'guess', 'seat': 0, 'word': 'hello'}
>>> table.normalize(state, {"type": "guess", "seat": 0, "word": "x", "colour": "red"})
Traceback (most recent call last):
...
mindtable.core.errors.IllegalAction: unknown field
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import product
from typing import TYPE_CHECKING, Any, Generic

from mindtable.core.codes import fresh, refuse
from mindtable.core.errors import IllegalAction

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    from mindtable.core.events import Event
    from mindtable.core.flow import Flow
    from mindtable.core.rng import Rng

    #: The type of a game's state: plain JSON, a ``dict[str, Any]`` unless the game declares a ``TypedDict``
    #: (``Game[MyState]``, ``MoveTable[MyState]``, ``Gate[MyState]``...).
    S = TypeVar("S", bound=Mapping[str, Any], default=dict[str, Any])
else:
    from typing import TypeVar

    S = TypeVar("S")

#: A game's state, as the core keeps it: plain JSON.
State = dict[str, Any]
#: An action as the move table hands it to an effect: normalised, its declared fields only.
ActionDict = dict[str, Any]
#: ``gate(state, seat, at)`` returns the refusal (:func:`~mindtable.core.codes.refuse`) when the move is not
#: open to ``seat`` now, else ``None`` (``at`` may be None). Returning, not raising, keeps listing cheap.
Gate = Callable[[S, Any, Any], "IllegalAction | None"]
#: ``effect(state, action, rng)`` changes the state for a checked action and returns the events.
Effect = Callable[[S, ActionDict, "Rng"], "list[Event]"]
#: A domain: the values allowed now (``None`` in it means "may be left out").
Domain = Callable[[S, Any], Sequence[Any]]

#: Keys every action may carry besides its parameters.
ENVELOPE = ("type", "seat", "at")
TEXT_LIMIT = 500
SAFE_INT = 2**53


def _always(state: Any, seat: Any, at: Any) -> IllegalAction | None:
    return None


def declare_gate(
    gate: Gate[S],
    *,
    needs: Callable[[S], bool] | None = None,
    opens: Callable[[S, Any, Any], bool] | None = None,
) -> Gate[S]:
    """``gate`` with what lets a listing ask it cheaply, and returns it: ``needs(state)`` is false only when the
    gate refuses every seat at any time (several gates may share one: the generated listing asks it once and
    skips all their moves, e.g. every move of the ask step while nothing is asked), and ``opens(state, seat,
    at)`` is ``gate(state, seat, at) is None`` without building the refusal. Listing and the one-pass check
    use them; refusals still come from the gate. ``tests/core/test_fast_paths.py`` holds them to the gate."""
    if needs is not None:
        gate.needs = needs  # type: ignore[attr-defined]
    if opens is not None:
        gate.opens = opens  # type: ignore[attr-defined]
    return gate


def gate_needs(gate: Any) -> Callable[[Any], bool] | None:
    """The ``needs`` a gate declares (:func:`declare_gate`), or ``None``."""
    return getattr(gate, "needs", None)


def gate_opens(gate: Any) -> Callable[[Any, Any, Any], bool] | None:
    """The ``opens`` a gate declares (:func:`declare_gate`), or ``None``."""
    return getattr(gate, "opens", None)


@dataclass(frozen=True, slots=True)
class Param(Generic[S]):
    """One parameter of a move.

    ``kind`` is ``"choice"`` (one of ``domain(state, seat)``, each listed as its own legal action), ``"int"``
    (a whole number from ``minimum`` to ``maximum``, typed), ``"text"`` (free text up to ``max_length``
    characters, typed) or ``"bool"``. A listed choice may include ``None``: the field may be left out.
    ``default(state, seat)`` fills in a field that was left out (and the record keeps the filled-in value).
    ``explain(state, seat, value)`` returns the refusal for a value outside the domain, with the game's own
    code; without it the core's ``bad_value`` says what is allowed. ``choices`` are the labels a surface shows
    for a choice (``{"value": 3, "label": "Tallinn"}``) when the bare value is not enough.
    """

    name: str
    kind: str = "choice"
    domain: Domain[S] | None = None
    minimum: int | Callable[[S, Any], int] | None = None
    maximum: int | Callable[[S, Any], int] | None = None
    max_length: int = TEXT_LIMIT
    optional: bool = False
    default: Callable[[S, Any], Any] | None = None
    explain: Callable[[S, Any, Any], IllegalAction] | None = None
    labels: Callable[[S, Any], Mapping[Any, str]] | None = None
    help: str = ""

    @classmethod
    def choice(
        cls,
        name: str,
        domain: Domain[S],
        *,
        default: Callable[[S, Any], Any] | None = None,
        explain: Callable[[S, Any, Any], IllegalAction] | None = None,
        labels: Callable[[S, Any], Mapping[Any, str]] | None = None,
        help: str = "",
    ) -> Param[S]:
        return cls(name, "choice", domain=domain, default=default, explain=explain, labels=labels, help=help)

    @classmethod
    def integer(
        cls,
        name: str,
        minimum: int | Callable[[S, Any], int],
        maximum: int | Callable[[S, Any], int],
        *,
        optional: bool = False,
        help: str = "",
    ) -> Param[S]:
        return cls(name, "int", minimum=minimum, maximum=maximum, optional=optional, help=help)

    @classmethod
    def text(cls, name: str, *, max_length: int = TEXT_LIMIT, optional: bool = False, help: str = "") -> Param[S]:
        return cls(name, "text", max_length=max_length, optional=optional, help=help)

    @classmethod
    def flag(cls, name: str, *, optional: bool = True, help: str = "") -> Param[S]:
        return cls(name, "bool", optional=optional, help=help)

    @property
    def listed(self) -> bool:
        """Whether each allowed value is listed as its own legal action (choices), or typed (inputs)."""
        return self.kind == "choice"

    def bounds(self, state: S, seat: Any) -> tuple[int, int]:
        low = self.minimum(state, seat) if callable(self.minimum) else self.minimum
        high = self.maximum(state, seat) if callable(self.maximum) else self.maximum
        return (-(2**53) if low is None else low), (2**53 if high is None else high)

    def schema(self, state: S, seat: Any) -> dict[str, Any]:
        """The input description a surface shows (an input box, a number field, a checkbox)."""
        data: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.kind == "int":
            data["minimum"], data["maximum"] = self.bounds(state, seat)
        elif self.kind == "text":
            data["max_length"] = self.max_length
        data["optional"] = self.optional
        if self.help:
            data["help"] = self.help
        return data

    def accept(self, state: S, seat: Any, action_type: str, value: Any) -> Any:
        """``value`` normalised (texts stripped), or a refusal explaining what is allowed."""
        if self.kind == "choice":
            allowed = self.domain(state, seat) if self.domain is not None else ()
            if _member(value, allowed):
                return value
            if self.explain is not None:
                raise fresh(self.explain(state, seat, value))
            shown = [v for v in allowed if v is not None]
            if value is None:
                raise refuse("missing_field", action=action_type, field=self.name, allowed=_allowed_text(shown))
            raise refuse(
                "bad_value", action=action_type, field=self.name, allowed=_allowed_text(shown), value=_show(value)
            )
        if value is None:
            if self.optional:
                return None
            raise refuse("missing_field", action=action_type, field=self.name, allowed=self._describe(state, seat))
        if self.kind == "int":
            low, high = self.bounds(state, seat)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise refuse(
                    "bad_value",
                    action=action_type,
                    field=self.name,
                    allowed=f"a whole number from {low} to {high}",
                    value=_show(value),
                )
            return value
        if self.kind == "text":
            if not isinstance(value, str) or len(value) > self.max_length or not _clean_text(value):
                raise refuse(
                    "bad_value",
                    action=action_type,
                    field=self.name,
                    allowed=self._describe(state, seat),
                    value=_show(value),
                )
            return " ".join(value.split())
        if not isinstance(value, bool):
            raise refuse("bad_value", action=action_type, field=self.name, allowed="true or false", value=_show(value))
        return value

    def _describe(self, state: S, seat: Any) -> str:
        if self.kind == "text":
            return f"text of 1 to {self.max_length} characters"
        if self.kind == "int":
            low, high = self.bounds(state, seat)
            return f"a whole number from {low} to {high}"
        return "true or false"

    def fits(self, state: S, seat: Any, value: Any) -> bool:
        """Whether a typed value satisfies this input's schema (for the conformance test and the random bot)."""
        try:
            self.accept(state, seat, "?", value)
        except IllegalAction:
            return False
        return True


def _member(value: Any, allowed: Iterable[Any]) -> bool:
    # Equality without bool/int confusion: True is not the card 1, 1.0 is not the seat 1.
    kind = type(value)
    for item in allowed:  # noqa: SIM110 -- a loop is faster than any() on a generator here
        if item == value and type(item) is kind:
            return True
    return False


def _clean_text(value: str) -> bool:
    if not value.strip():
        return False
    if value.isascii() and value.isprintable():  # the usual answer: no control character, no surrogate
        return True
    # No lone surrogates or control characters: every text must survive JSON and every database.
    return not any(0xD800 <= ord(ch) <= 0xDFFF or (ord(ch) < 32 and ch not in "\t\n") for ch in value)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _allowed_text(values: Sequence[Any]) -> str:
    if not values:
        return "nothing now"
    shown = ", ".join(repr(v) for v in values[:12])
    return "one of " + shown + (f" ... ({len(values)} in all)" if len(values) > 12 else "")


@dataclass(frozen=True, slots=True)
class Move(Generic[S]):
    """One move of a game: its type, who may make it and when, its parameters and its effect.

    ``system`` moves are made by the game itself (a timer, delivered by whoever drives the match) and carry no
    seat; every other move needs the seat of the player who makes it. ``bots=False`` keeps a move out of what bots
    are offered. ``phases`` are the values of the state's
    phase (``MoveTable(phase_key=...)``) in which the move exists at all; in another phase it is refused with
    ``phase_refusal`` (a code of the game) before its gate is asked.
    """

    type: str
    effect: Effect[S]
    gate: Gate[S] = _always
    params: tuple[Param[S], ...] = ()
    system: bool = False
    help: str = ""
    phases: tuple[str, ...] = ()
    phase_refusal: str = "not_now"
    #: Whether bots are offered the move (``Match.bot_legal_actions``): ``False`` for a move only a person has a
    #: reason to make (taking back their own verdict), which a bot never makes. A person is offered it as any.
    bots: bool = True
    fields: frozenset[str] = field(default=frozenset(), init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", frozenset((*ENVELOPE, *(p.name for p in self.params))))


class MoveTable(Generic[S]):
    """A game's moves by type, and the listing, checking and normalising that all come from them."""

    __slots__ = (
        "_bot_list_free",
        "_bot_listers",
        "_bot_type_free",
        "_bot_typers",
        "_help",
        "_list_free",
        "_listers",
        "by_type",
        "checks",
        "flow",
        "moves",
        "not_for_bots",
        "phase_key",
        "player_moves",
        "types",
    )

    def __init__(self, moves: Iterable[Move[S]], *, phase_key: str | None = None, flow: Flow[S] | None = None) -> None:
        self.moves: tuple[Move[S], ...] = tuple(moves) if flow is None else _flowing(tuple(moves), flow)
        if flow is not None:
            if phase_key not in (None, flow.key):
                raise ValueError(f"phase_key {phase_key!r} is not the flow's key {flow.key!r}")
            phase_key = flow.key
        #: The turn flow (:mod:`mindtable.core.flow`): the phases, who acts in each, the transitions.
        self.flow = flow
        self.phase_key = phase_key
        self.by_type: dict[str, Move[S]] = {}
        for move in self.moves:
            if move.type in self.by_type:
                raise ValueError(f"move {move.type!r} is declared twice")
            self.by_type[move.type] = move
        self.player_moves = tuple(m for m in self.moves if not m.system)
        #: The types of the moves bots are not offered (``Move(bots=False)``).
        self.not_for_bots = frozenset(m.type for m in self.player_moves if not m.bots)
        self.types = ", ".join(self.by_type)
        # The listing and check code is generated from these declarations (the speed machinery, kept apart).
        from mindtable.core.compiled import compile_check, compile_listing, compile_types, single_param

        #: (type, gate or None when always open, move, the one listed choice's (name, domain, skip None) or None)
        listing = tuple((m.type, None if m.gate is _always else m.gate, m, single_param(m)) for m in self.player_moves)
        if phase_key is None and any(m.phases for m in self.moves):
            raise ValueError("moves declare phases but the table has no phase_key")
        phases = sorted({p for m in self.moves for p in m.phases})
        #: phase -> the generated listing of the moves that exist in it (moves without phases exist in every phase);
        #: without a phase key, every move is listed by ``_list_free``.
        self._listers = {
            phase: compile_listing(self, tuple(e for e in listing if not e[2].phases or phase in e[2].phases))
            for phase in phases
        }
        self._list_free = compile_listing(self, tuple(e for e in listing if not e[2].phases or phase_key is None))
        # The same listings without the moves bots are not offered (``Match.bot_legal_actions``).
        if self.not_for_bots:
            for_bots = tuple(e for e in listing if e[2].bots)
            self._bot_listers = {
                phase: compile_listing(self, tuple(e for e in for_bots if not e[2].phases or phase in e[2].phases))
                for phase in phases
            }
            self._bot_list_free = compile_listing(
                self, tuple(e for e in for_bots if not e[2].phases or phase_key is None)
            )
        else:
            self._bot_listers, self._bot_list_free = self._listers, self._list_free
        # The types those bot listings list, without building their entries (``Match.bot_legal_types``).
        bot_entries = tuple(e for e in listing if e[2].bots)
        self._bot_typers = {
            phase: compile_types(self, tuple(e for e in bot_entries if not e[2].phases or phase in e[2].phases))
            for phase in phases
        }
        self._bot_type_free = compile_types(self, tuple(e for e in bot_entries if not e[2].phases or phase_key is None))
        #: move type -> the generated one-pass check of a plain action (see :meth:`quick_normalize`).
        self.checks = {m.type: compile_check(self, m) for m in self.moves if len(m.type) <= 64}

    # -- listing --------------------------------------------------------------------------------------
    def legal_actions(self, state: S, seat: int, at: int | None = None) -> list[dict[str, Any]]:
        """Every action open to ``seat`` now: one per combination of listed choices, with typed inputs."""
        key = self.phase_key
        free = self._list_free
        return (free if key is None else self._listers.get(state[key], free))(state, seat, at)

    def for_bots(self, listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``listed`` (legal actions) without the moves bots are not offered (``Move(bots=False)``)."""
        skip = self.not_for_bots
        if not skip:
            return listed
        return [entry for entry in listed if entry["type"] not in skip]

    @property
    def listers(self) -> tuple[str | None, dict[Any, Callable[..., list[dict[str, Any]]]], Callable[..., Any]]:
        """(phase key, phase -> generated listing, the listing of any other phase): what :meth:`legal_actions`
        picks from, for a caller that lists often (``Match.legal_actions``)."""
        return self.phase_key, self._listers, self._list_free

    @property
    def bot_listers(self) -> tuple[str | None, dict[Any, Callable[..., list[dict[str, Any]]]], Callable[..., Any]]:
        """:attr:`listers` of what bots are offered: each listing equal to :meth:`for_bots` of the full one."""
        return self.phase_key, self._bot_listers, self._bot_list_free

    @property
    def bot_typers(self) -> tuple[str | None, dict[Any, Callable[..., tuple[str, ...]]], Callable[..., Any]]:
        """As :attr:`bot_listers`, each function giving the types its listing lists, each once and in order."""
        return self.phase_key, self._bot_typers, self._bot_type_free

    def _entries(self, move: Move[S], state: S, seat: int) -> list[dict[str, Any]]:
        """The listed entries of a move with parameters (a move with one listed choice is listed inline by the
        generated listing, see :func:`mindtable.core.compiled.single_param`)."""
        listed = [p for p in move.params if p.listed]
        inputs = [p.schema(state, seat) for p in move.params if not p.listed]
        domains = []
        for param in listed:
            values = list(param.domain(state, seat)) if param.domain is not None else []
            if param.default is not None and None in values:
                values.remove(None)  # left out means the default: list the filled-in value only
            domains.append(values)
        entries = []
        for combination in product(*domains):
            entry: dict[str, Any] = {"type": move.type, "seat": seat}
            for param, value in zip(listed, combination, strict=True):
                if value is not None:
                    entry[param.name] = value
            if inputs:
                entry["inputs"] = inputs
            entries.append(entry)
        return entries

    def open_to(self, state: S, seat: int, at: int | None = None) -> bool:
        """Whether any move's gate is open to ``seat`` now (parameters not considered)."""
        return any(self._refusal(move, state, seat, at) is None for move in self.player_moves)

    def _refusal(self, move: Move[S], state: S, seat: Any, at: Any) -> IllegalAction | None:
        if move.phases and state[self.phase_key or ""] not in move.phases:
            return refuse(move.phase_refusal, action=move.type)
        return move.gate(state, seat, at)

    def labels(self, state: S, seat: int) -> dict[str, dict[str, Any]]:
        """Labels for listed choices, by move type and parameter (for surfaces)."""
        out: dict[str, dict[str, Any]] = {}
        for move in self.player_moves:
            for param in move.params:
                if param.labels is not None:
                    out.setdefault(move.type, {})[param.name] = {
                        json_key(k): v for k, v in param.labels(state, seat).items()
                    }
        return out

    # -- checking -------------------------------------------------------------------------------------
    def normalize(self, state: S, action: Mapping[str, Any]) -> dict[str, Any]:
        """``action`` checked against its move and reduced to its declared fields, defaults filled in.

        Raises :class:`IllegalAction` (with a code and parameters) when the move is not open or a field is not
        allowed. Does not change ``state``.
        """
        kind = action["type"]
        move = self.by_type.get(kind)
        if move is None:
            raise refuse("unknown_action", action=kind, allowed=self.types)
        for key in action:
            if key not in move.fields:
                allowed = ", ".join(p.name for p in move.params) or "none besides type, seat and at"
                raise refuse("unknown_field", action=kind, field=key, allowed=allowed)
        seat = action.get("seat")
        if move.system:
            if seat is not None:
                raise refuse("system_action", action=kind)
        elif seat is None:
            raise refuse("seat_required", action=kind)
        at = action.get("at")
        refusal = self._refusal(move, state, seat, at)
        if refusal is not None:
            raise fresh(refusal)
        result: dict[str, Any] = {"type": kind}
        if seat is not None:
            result["seat"] = seat
        if at is not None:
            result["at"] = at
        for param in move.params:
            value = action.get(param.name)
            if value is None and param.default is not None:
                value = param.default(state, seat)
            if param.kind == "choice" and param.domain is not None:
                if not _member(value, param.domain(state, seat)):
                    param.accept(state, seat, kind, value)  # raises the refusal that says why
            else:
                value = param.accept(state, seat, kind, value)
            if value is not None:
                result[param.name] = value
        return result

    def quick_normalize(
        self, state: S, action: dict[str, Any], players: int, clock: int, realtime: bool
    ) -> dict[str, Any] | None:
        """:meth:`normalize` for a plain dict on the usual path, or ``None`` to let the full path check it.

        Accepts exactly what the match's envelope check and :meth:`normalize` accept together (a valid type, seat
        and time, declared fields with plain JSON values, an open gate, values in their domains) and returns the
        same normalised action; anything else, refusals included, returns ``None``.
        """
        kind = action.get("type")
        if type(kind) is not str:
            return None
        check = self.checks.get(kind)
        return None if check is None else check(state, action, players, clock, realtime)

    def covers(self, listed: Iterable[Mapping[str, Any]], action: Mapping[str, Any], state: S) -> bool:
        """Whether a normalised ``action`` is one of the ``listed`` actions (typed inputs within their schema)."""
        move = self.by_type.get(action.get("type", ""))
        if move is None:
            return False
        typed = {p.name: p for p in move.params if not p.listed}
        for entry in listed:
            if entry.get("type") != action.get("type") or entry.get("seat") != action.get("seat"):
                continue
            fixed = {k: v for k, v in entry.items() if k not in ("type", "seat", "inputs")}
            chosen = {k: v for k, v in action.items() if k not in ("type", "seat", "at") and k not in typed}
            if fixed != chosen:
                continue
            if all(p.fits(state, action.get("seat"), action.get(name)) for name, p in typed.items()):
                return True
        return False


def _flowing(moves: tuple[Move[S], ...], flow: Flow[S]) -> tuple[Move[S], ...]:
    """The moves with the phases the flow names them in, each effect followed by the flow's transition."""
    known = {m.type for m in moves}
    unknown = [name for name in flow.move_phases if name not in known]
    if unknown:
        raise ValueError(f"the flow's phases name moves that are not declared: {', '.join(unknown)}")
    out = []
    for move in moves:
        phases = flow.move_phases.get(move.type)
        if phases is not None:
            if move.phases:
                raise ValueError(f"move {move.type!r} declares its phases and the flow names it too: say it once")
            refusal = move.phase_refusal if move.phase_refusal != "not_now" else flow.refusal
            move = replace(move, phases=phases, phase_refusal=refusal)
        out.append(replace(move, effect=flow.wrap(move.effect)))
    return tuple(out)


def json_key(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def _text_safe(value: str) -> bool:
    if len(value) > 10_000:
        return False
    if value.isascii():
        return True
    try:
        value.encode("utf-8")  # fails on lone surrogates, which no database or browser keeps
    except UnicodeEncodeError:
        return False
    return True


def json_safe(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is plain JSON that every store and browser keeps as it is (finite, shallow, no surrogates)."""
    kind = type(value)
    if kind is int:
        number: int = value
        return -(2**53) <= number <= 2**53
    if kind is str:
        return _text_safe(value)
    if value is None or kind is bool:
        return True
    if kind is float:
        return math.isfinite(value)
    if depth >= 8:
        return False
    if kind is list:
        return len(value) <= 1000 and all(json_safe(v, depth + 1) for v in value)
    if kind is dict:
        return len(value) <= 1000 and all(
            type(k) is str and _text_safe(k) and json_safe(v, depth + 1) for k, v in value.items()
        )
    return False
