"""A match: one game, its state, its seeded generator and its record.

Every surface (terminal, server, bots, simulator, RL environments) drives a :class:`Match`.

>>> import mindtable
>>> match = mindtable.new_match("the-mind", players=2, seed=7)
>>> [a["type"] for a in match.legal_actions(0)]
['ready']
>>> events = match.apply({"type": "ready", "seat": 0, "at": 0})
>>> match.apply({"type": "ready", "seat": 0, "at": 5})
Traceback (most recent call last):
...
mindtable.core.errors.IllegalAction: you are already ready
>>> again = mindtable.replay(match.record())
>>> again.snapshot() == match.snapshot()
True

Records
-------
A record (format 2) pins everything its replay depends on: the starting snapshot (so content dealt into the
state — questions, tiles — comes from the record, never from bank files), the generator's algorithm, the
game's rules revision and a digest of the content files the rules read while playing. :func:`record_notices`
says when a record was made under other rules or content; :func:`replay` replays it anyway and, with
``verify``, refuses a record whose stored result differs from the replayed one. Records of format 1 still load.
"""

from __future__ import annotations

import copy
import json
import marshal
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mindtable.core.codes import MAX_TIME_MS, refuse
from mindtable.core.errors import IllegalAction, InvalidOptions, InvalidSnapshot, ReplayMismatch
from mindtable.core.events import Deadline, Event, Result
from mindtable.core.game import Game
from mindtable.core.moves import json_safe
from mindtable.core.options import option_files, option_files_given, validate_options
from mindtable.core.registry import get_game
from mindtable.core.rng import Rng

_ENVELOPE_KEYS = frozenset(("type", "seat", "at"))
_SCALARS = frozenset((str, int, float, bool, type(None)))
RECORD_FORMAT = "mindtable-record/2"
RECORD_FORMATS = ("mindtable-record/1", RECORD_FORMAT)
SNAPSHOT_FORMAT = "mindtable-snapshot/1"


class Match:
    """A running match. Build one with :func:`new_match`, :meth:`from_snapshot` or :func:`replay`."""

    __slots__ = (
        "_actions",
        "_bot_lister",
        "_bot_typer",
        "_effects",
        "_lenient",
        "_lister",
        "_realtime",
        "_result",
        "_start_data",
        "_start_frozen",
        "_table",
        "clock",
        "game",
        "options",
        "players",
        "rng",
        "seed",
        "state",
    )

    def __init__(
        self,
        game: Game,
        players: int,
        options: dict[str, Any],
        seed: int,
        state: dict[str, Any],
        rng: Rng,
        clock: int = 0,
        start: dict[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.seed = seed
        self.state = state
        self.rng = rng
        #: Time (ms since the match began) of the latest action that carried one.
        self.clock = clock
        self._actions: list[dict[str, Any]] = []
        self._start_data = start
        self._start_frozen: tuple[Any, ...] | None = None
        if start is None:
            self._freeze_start()
        self._result: Result | None = game.result(state)
        #: Replaying a format-1 record: fields the game does not declare are dropped instead of refused.
        self._lenient = False
        # Fast paths, used when the game takes listing, checking and applying from its move table unchanged.
        fast = _FAST_PATHS.get(game)
        if fast is None:
            fast = _FAST_PATHS[game] = _fast_paths(game)
        self._table, self._effects, self._lister, self._realtime, self._bot_lister, self._bot_typer = fast

    def _freeze_start(self) -> None:
        """Keep the start cheaply (a marshal copy of the state); the JSON snapshot is built when first asked for.

        The parts the game declares fixed (:attr:`Game.fixed_state`: set at the start, never changed by a move,
        e.g. the match's questions) are kept as they are, not copied: the start shares them with the state."""
        rng = self.rng.to_dict()
        state = self.state
        fixed = self.game.fixed_state
        if fixed and type(state) is dict and all(name in state for name in fixed):
            rest = {name: value for name, value in state.items() if name not in fixed}
            shared = {name: state[name] for name in fixed}
            try:
                frozen = marshal.dumps((self.options, rest))
            except (ValueError, TypeError):
                pass
            else:
                self._start_frozen = (None, rng, self.clock, frozen, tuple(state), shared)
                return
        try:  # the usual case: options and state are plain data, frozen together
            self._start_frozen = (None, rng, self.clock, marshal.dumps((self.options, self.state)), None, None)
            return
        except (ValueError, TypeError):
            pass
        try:
            frozen_state = marshal.dumps(self.state)
        except (ValueError, TypeError):  # not plain data: take the JSON snapshot now, as it always was
            self._start_data = self._snapshot_now()
            return
        self._start_frozen = (copy.deepcopy(self.options), rng, self.clock, frozen_state, None, None)

    @property
    def _start(self) -> dict[str, Any]:
        """The start as a JSON snapshot: the one given, or a new one thawed from the frozen copy each time it is
        asked for (a record or a restore: rare), so that a live match never holds both (a quiz game's start
        thawed is over half a megabyte of dicts; frozen, a fraction of it)."""
        start = self._start_data
        if start is not None:
            return start
        assert self._start_frozen is not None
        options, rng, clock, frozen, order, shared = self._start_frozen
        if options is None:
            options, state = marshal.loads(frozen)
        else:
            state = marshal.loads(frozen)
        if shared is not None:  # the fixed parts back in their places (copied by the JSON round trip below)
            state = {name: shared[name] if name in shared else state[name] for name in order}
        return {
            "format": SNAPSHOT_FORMAT,
            "game": self.game.id,
            "players": self.players,
            "options": copy.deepcopy(options),
            "seed": self.seed,
            "rng": dict(rng),
            "clock": clock,
            "state": json.loads(json.dumps(state)),
        }

    # -- playing -------------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """The actions ``seat`` may take now, as JSON-ready dicts (empty when the match is over).

        An entry with ``"inputs"`` needs those fields filled in (typed text, a number) before it is applied.
        """
        if self._result is not None:
            return []
        if type(seat) is not int or not 0 <= seat < self.players:
            self._check_seat(seat, None)
        listing = self._lister
        if listing is not None:  # the move table's generated listings, by phase (see MoveTable.legal_actions)
            key, listers, free = listing
            state = self.state
            listed: list[dict[str, Any]] = (free if key is None else listers.get(state[key], free))(
                state, seat, self.clock
            )
            return listed
        return self.game.legal_actions(self.state, seat, self.clock)

    def bot_legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """:meth:`legal_actions` as a bot is offered them: without the moves declared for people only
        (``Move(bots=False)``, e.g. taking back one's own verdict)."""
        listing = self._bot_lister
        if listing is None or self._result is not None or type(seat) is not int or not 0 <= seat < self.players:
            listed = self.legal_actions(seat)
            table = self.game.moves
            return listed if table is None else table.for_bots(listed)
        key, listers, free = listing  # the move table's listings without the moves bots are not offered
        state = self.state
        bot_listed: list[dict[str, Any]] = (free if key is None else listers.get(state[key], free))(
            state, seat, self.clock
        )
        return bot_listed

    def bot_legal_types(self, seat: int) -> tuple[str, ...]:
        """The types of :meth:`bot_legal_actions`, each once and in their order, without listing the actions:
        ``tuple(dict.fromkeys(a["type"] for a in match.bot_legal_actions(seat)))``. For a bot whose choice
        depends only on what kind of move it is asked for (answer or pass, confirm) and not on the listed
        entries; the move table asks its gates (and whether a listed choice has a value) and builds nothing."""
        typing = self._bot_typer
        if typing is None or self._result is not None or type(seat) is not int or not 0 <= seat < self.players:
            return tuple(dict.fromkeys(a["type"] for a in self.bot_legal_actions(seat)))
        key, typers, free = typing
        state = self.state
        types: tuple[str, ...] = (free if key is None else typers.get(state[key], free))(state, seat, self.clock)
        return types

    def to_act(self) -> list[int]:
        """The seats expected to act now (whose turn it is); empty when the match is over."""
        if self._result is not None:
            return []
        return self.game.to_act(self.state, self.players)

    def check(self, action: Mapping[str, Any] | Any) -> dict[str, Any]:
        """Raise :class:`IllegalAction` if ``action`` is not allowed now; return it normalised.

        The normalised action holds exactly the fields its move declares (defaults filled in, texts tidied)
        with JSON-safe values: it is what :meth:`apply` records and what a server stores and broadcasts.
        """
        action = self._envelope(action)
        if self._result is not None:
            raise self.game.explain(refuse("match_over"))
        try:
            return self.game.normalize_action(self.state, action)
        except IllegalAction as exc:
            if exc.action is None:
                exc.action = action
            raise self.game.explain(exc) from None

    def apply(self, action: Mapping[str, Any] | Any) -> list[Event]:
        """Apply ``action`` (a dict or an object with ``to_dict()``) and return what happened.

        An illegal action raises :class:`IllegalAction` and leaves the match exactly as it was.
        """
        table = self._table
        if table is not None and type(action) is dict and self._result is None and not self._lenient:
            # The usual case, checked in one pass; anything unusual (and every refusal) takes the full path below.
            state = self.state
            kind = action.get("type")
            check = table.checks.get(kind) if type(kind) is str else None  # MoveTable.quick_normalize, inlined
            normal = None if check is None else check(state, action, self.players, self.clock, self._realtime)
            if normal is not None:
                try:
                    events: list[Event] = self._effects[normal["type"]](state, normal, self.rng)
                except Exception:
                    self._restore()  # a rules bug, since the check passed: back to how it was, then re-raise
                    raise
                at = normal.get("at")
                if at is not None:
                    self.clock = at
                self._actions.append(normal)
                self._result = self.game.result(state)
                return events
        action = self._envelope(action)
        if self._result is not None:
            raise self.game.explain(refuse("match_over"))
        try:
            action = self.game.normalize_action(self.state, action)
        except IllegalAction as exc:
            if exc.action is None:
                exc.action = action
            raise self.game.explain(exc) from None
        return self._commit(action)

    def _commit(self, action: dict[str, Any]) -> list[Event]:
        table = self._table
        try:
            if table is not None:
                events: list[Event] = table.by_type[action["type"]].effect(self.state, action, self.rng)
            else:
                events = self.game.apply(self.state, action, self.rng)
        except Exception:
            # A rules bug, since check() passed: put the match back as it was before re-raising.
            self._restore()
            raise
        at = action.get("at")
        if at is not None:
            self.clock = at
        self._actions.append(action)
        self._result = self.game.result(self.state)
        return events

    @property
    def played(self) -> int:
        """How many actions have been applied."""
        return len(self._actions)

    @property
    def last_action(self) -> dict[str, Any] | None:
        """The latest applied action as recorded (normalised); what a server stores and broadcasts."""
        return self._actions[-1] if self._actions else None

    def _restore(self) -> None:
        """Rebuild the state from the start and the recorded actions (used only after a failed apply)."""
        again = Match.from_snapshot(self._start)
        for action in self._actions:
            again.game.apply(again.state, action, again.rng)
            again.clock = action.get("at", again.clock)
        self.state, self.rng, self.clock = again.state, again.rng, again.clock

    def _envelope(self, action: Any) -> dict[str, Any]:
        """The action as a plain dict with a valid type, seat and time, or a refusal; nothing else checked."""
        if type(action) is not dict:
            if not isinstance(action, Mapping):
                to_dict = getattr(action, "to_dict", None)
                if to_dict is None:
                    raise self.game.explain(
                        refuse("malformed_action", problem=f"a dict or an object with to_dict(), not {_kind(action)}")
                    )
                action = to_dict()
                if not isinstance(action, Mapping):
                    raise self.game.explain(
                        refuse("malformed_action", problem=f"to_dict() must return a dict, not {_kind(action)}")
                    )
            action = dict(action)
        kind = action.get("type")
        if type(kind) is not str or not kind or len(kind) > 64:
            raise self.game.explain(
                refuse("malformed_action", problem="an action needs a 'type' string, e.g. {'type': 'play', ...}")
            )
        for key, value in action.items():
            if type(key) is not str or (key not in _ENVELOPE_KEYS and not json_safe(value)):
                raise self.game.explain(
                    refuse("malformed_action", problem=f"field {str(key)[:40]!r} is not plain JSON data")
                )
        if self._lenient:
            action = self._drop_undeclared(action)
        seat = action.get("seat")
        if seat is not None:
            self._check_seat(seat, action)
        at = action.get("at")
        if at is None:
            if self.game.realtime:
                raise self.game.explain(refuse("missing_time", game=self.game.id))
            if "at" in action:
                action = {k: v for k, v in action.items() if k != "at"}
        elif type(at) is not int or not 0 <= at <= MAX_TIME_MS:
            raise self.game.explain(refuse("bad_time", at=repr(at)[:40], limit=MAX_TIME_MS))
        elif at < self.clock:
            raise self.game.explain(refuse("time_went_backwards", at=at, clock=self.clock))
        envelope: dict[str, Any] = action
        return envelope

    def _drop_undeclared(self, action: dict[str, Any]) -> dict[str, Any]:
        table = self.game.moves
        move = table.by_type.get(action["type"]) if table is not None else None
        if move is None:
            return action
        return {k: v for k, v in action.items() if k in move.fields}

    def _check_seat(self, seat: Any, action: dict[str, Any] | None) -> None:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise self.game.explain(refuse("bad_seat", last=self.players - 1, seat=repr(seat)[:40]))

    # -- looking -------------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, JSON-ready; ``None`` is a spectator. ``"to_act"`` lists whose turn it is."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.players):
            self._check_seat(seat, None)
        view: dict[str, Any] = self.game.view(self.state, seat)
        view["to_act"] = [] if self._result is not None else self.game.to_act(self.state, self.players)
        return view

    def views(self, seats: Sequence[int]) -> dict[int, dict[str, Any]]:
        """:meth:`view` for each of ``seats`` at once; the views may share their public parts (read them only)."""
        for seat in seats:
            if type(seat) is not int or not 0 <= seat < self.players:
                self._check_seat(seat, None)
        views = self.game.views(self.state, seats)
        to_act = [] if self._result is not None else self.game.to_act(self.state, self.players)
        for view in views.values():
            view["to_act"] = list(to_act)
        return views

    def bot_views(self, seats: Sequence[int], to_act: Sequence[int] | None = None) -> Mapping[int, Mapping[str, Any]]:
        """:meth:`views` for bots: each equal to ``view(seat)``, read-only, and where the game builds them as they
        are read (``Game.bot_views``), the parts a bot never reads never built. Pages get :meth:`view`.

        ``to_act`` is :meth:`to_act` when the caller has just asked it (the driver, once a step)."""
        for seat in seats:
            if type(seat) is not int or not 0 <= seat < self.players:
                self._check_seat(seat, None)
        if to_act is None:
            to_act = [] if self._result is not None else self.game.to_act(self.state, self.players)
        else:
            to_act = list(to_act)
        lazy = self.game.bot_views(self.state, seats, to_act)
        if lazy is not None:
            return lazy
        views = self.game.views(self.state, seats)
        for view in views.values():
            view["to_act"] = list(to_act)
        return views

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> Result | None:
        return self._result

    def next_deadline(self) -> Deadline | None:
        """When the game will act on its own unless someone acts first (deliver it with :meth:`apply`)."""
        if self._result is not None:
            return None
        return self.game.next_deadline(self.state)

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The actions applied so far (copies), in order."""
        return copy.deepcopy(self._actions)

    # -- saving --------------------------------------------------------------------------------------
    def _snapshot_now(self) -> dict[str, Any]:
        return {
            "format": SNAPSHOT_FORMAT,
            "game": self.game.id,
            "players": self.players,
            "options": copy.deepcopy(self.options),
            "seed": self.seed,
            "rng": self.rng.to_dict(),
            "clock": self.clock,
            "state": json.loads(json.dumps(self.state)),
        }

    def snapshot(self) -> dict[str, Any]:
        """The full state as JSON (hidden information included): for referees, tests and saving."""
        return self._snapshot_now()

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any]) -> Match:
        """Build a match from :meth:`snapshot` output (or a hand-written position, for tests and tutorials)."""
        if not isinstance(snapshot, Mapping):
            raise InvalidSnapshot(f"a snapshot must be a JSON object, got {type(snapshot).__name__}")
        if snapshot.get("format", SNAPSHOT_FORMAT) != SNAPSHOT_FORMAT:
            raise InvalidSnapshot(f"snapshot field 'format' must be {SNAPSHOT_FORMAT!r}, got {snapshot['format']!r}")
        for name in ("game", "players", "state"):
            if name not in snapshot:
                raise InvalidSnapshot(f"snapshot is missing the field {name!r}")
        game = get_game(snapshot["game"])
        players = snapshot["players"]
        options = _resolve_options(game, players, snapshot.get("options") or {})
        seed = snapshot.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidSnapshot(f"snapshot field 'seed' must be an integer, got {seed!r}")
        try:
            rng = Rng.from_dict(snapshot.get("rng", {"seed": seed, "draws": 0, "algorithm": 2}))
        except ValueError as exc:
            raise InvalidSnapshot(f"snapshot field 'rng': {exc}") from None
        clock = snapshot.get("clock", 0)
        if isinstance(clock, bool) or not isinstance(clock, int) or clock < 0:
            raise InvalidSnapshot(f"snapshot field 'clock' must be a whole number of ms >= 0, got {clock!r}")
        state = snapshot["state"]
        if not isinstance(state, Mapping):
            raise InvalidSnapshot("snapshot field 'state' must be a JSON object")
        state = json.loads(json.dumps(state))
        try:
            game.validate_state(state, players, options)
        except (ValueError, KeyError, TypeError) as exc:
            raise InvalidSnapshot(f"snapshot field 'state' is not a valid {game.id} state: {exc}") from None
        # The start (this position) is frozen by the constructor, as for a new match: a marshal copy, its JSON
        # snapshot built when first asked for (a deep copy of a quiz game's state per load was most of the time).
        return cls(game, players, options, seed, state, rng, clock)

    def record(self) -> dict[str, Any]:
        """Everything needed to rebuild this match, with no file read: the start, the actions, what they ran on."""
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game.id,
            "players": self.players,
            "options": copy.deepcopy(self.options),
            "seed": self.seed,
            "rules": self.game.rules_revision,
            "content": self.game.content_digest(self.options),
            "start": copy.deepcopy(self._start) if self._start_data is not None else self._start,
            "actions": copy.deepcopy(self._actions),
        }
        if self._result is not None:
            record["result"] = self._result.to_dict()
        return record


#: game -> (move table for the one-pass check or None, move type -> effect, the table's listers or None, realtime,
#: the table's listers of what bots are offered or None, the types those list or None).
_FAST_PATHS: dict[Game, tuple[Any, dict[str, Any], Any, bool, Any, Any]] = {}


def _fast_paths(game: Game) -> tuple[Any, dict[str, Any], Any, bool, Any, Any]:
    kind = type(game)
    table = game.moves
    plain = table is not None and kind.normalize_action is Game.normalize_action and kind.apply is Game.apply
    lister = bot_lister = bot_typer = None
    if table is not None and kind.legal_actions is Game.legal_actions:
        lister, bot_lister, bot_typer = table.listers, table.bot_listers, table.bot_typers
    effects = {move.type: move.effect for move in table.moves} if table is not None else {}
    return (table if plain else None), effects, lister, bool(game.realtime), bot_lister, bot_typer


def _kind(value: Any) -> str:
    return type(value).__name__


#: (game, players, given options) -> resolved options, for given and resolved options of plain values only.
_RESOLVED: dict[tuple[Any, ...], dict[str, Any]] = {}


def _resolve_options(game: Game, players: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    key: tuple[Any, ...] | None = None
    if type(players) is int and type(options) is dict:
        if not options:
            key = (game, players, ())
            known = _RESOLVED.get(key)
            if known is not None:
                return dict(known)
        items = tuple((name, type(value), value) for name, value in options.items())  # True is not 1 here
        if all(kind in _SCALARS for _, kind, _ in items):
            key = (game, players, items)
            known = _RESOLVED.get(key)
            if known is not None:
                return dict(known)
    if isinstance(players, bool) or not isinstance(players, int) or not game.min_players <= players <= game.max_players:
        raise InvalidOptions(f"{game.title} is for {game.players_allowed()} players, got {players!r}", option="players")
    if not isinstance(options, Mapping):
        raise InvalidOptions(f"options must be a mapping of option name to value, got {type(options).__name__}")
    resolved = game.normalize_options(players, validate_options(game.option_schema, options))
    if key is not None and all(type(value) in _SCALARS for value in resolved.values()):
        if len(_RESOLVED) >= 512:
            _RESOLVED.clear()
        _RESOLVED[key] = dict(resolved)
    return resolved


def new_match(
    game_id: str,
    players: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    *,
    algorithm: int | None = None,
    files: Mapping[str, str | os.PathLike[str]] | None = None,
) -> Match:
    """Start a match of ``game_id`` for ``players`` seats, seeded with ``seed``.

    Unknown game ids, player counts and options raise errors that list what is allowed.

    ``files`` maps the values of file options (``Option.file``) to the paths their content is read from: the
    match keeps the value (a name such as ``"host:pub-quiz"``) in its options, state and record, and the game
    reads the path through :func:`~mindtable.core.options.option_path` in ``initial_state``. Without it a file
    option's value is the path itself (the Python API and the terminal); with it, a value it does not name is
    refused (a server never opens a path a client gave).
    """
    game = get_game(game_id)
    resolved = _resolve_options(game, players, options or {})
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptions(f"seed must be an integer, got {seed!r}", option="seed")
    rng = Rng(seed) if algorithm is None else Rng(seed, algorithm=algorithm)
    if files is None and not option_files_given():  # file options are paths already: nothing to put in force
        state = game.initial_state(players, resolved, rng)
    else:
        with option_files(files):
            state = game.initial_state(players, resolved, rng)
    return Match(game, players, resolved, seed, state, rng)


# -- records -------------------------------------------------------------------------------------------
def start_of(record: Mapping[str, Any]) -> Match:
    """The match a record starts from (its start snapshot, or for format 1 a new match from its seed)."""
    if not isinstance(record, Mapping):
        raise InvalidSnapshot(f"a record must be a JSON object, got {type(record).__name__}")
    fmt = record.get("format", RECORD_FORMATS[0])
    if fmt not in RECORD_FORMATS:
        raise InvalidSnapshot(f"record field 'format' must be one of {', '.join(RECORD_FORMATS)}, got {fmt!r}")
    if "start" in record:
        match = Match.from_snapshot(record["start"])
    else:
        for name in ("game", "players"):
            if name not in record:
                raise InvalidSnapshot(f"record is missing the field {name!r}")
        algorithm = 1 if fmt == RECORD_FORMATS[0] else None
        match = new_match(
            record["game"], record["players"], record.get("seed", 0), record.get("options"), algorithm=algorithm
        )
    match._lenient = fmt == RECORD_FORMATS[0]
    return match


def replay_into(
    record: Mapping[str, Any], on_step: Callable[[Match, dict[str, Any], list[Event]], None] | None = None
) -> Match:
    """The one replay loop: start the record's match and apply its actions, calling ``on_step`` after each."""
    match = start_of(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise InvalidSnapshot("record field 'actions' must be a list")
    for index, action in enumerate(actions):
        try:
            events = match.apply(action)
        except IllegalAction as exc:
            raise ReplayMismatch(f"record action {index} ({action!r}) is illegal on replay: {exc}") from None
        if on_step is not None:
            on_step(match, match._actions[-1], events)
    match._lenient = False
    return match


def replay(record: Mapping[str, Any], *, verify: bool = True) -> Match:
    """Rebuild the match a record describes by applying its actions again.

    With ``verify``, a record that stores a result must reach the same result. A record never needs a bank
    file: the content it played with is in its start snapshot.
    """
    match = replay_into(record)
    stored = record.get("result")
    if verify and stored is not None:
        got = match.result.to_dict() if match.result else None
        if got != stored:
            raise ReplayMismatch(f"record claims result {stored!r} but replays to {got!r}")
    return match


def pinned_part(match: Match) -> dict[str, Any]:
    """What a record pins besides its actions (format, rules revision, content digest, start): a server stores
    it when a match is created and adds the actions it logs to rebuild the full record."""
    record = match.record()
    return {key: record[key] for key in ("format", "rules", "content", "start")}


def record_notices(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What differs between the rules and content a record was made with and the installed ones.

    Each notice is a code with parameters: ``rules_changed`` (the game's rules revision moved on),
    ``content_changed`` (the content files the rules read differ), ``old_format`` (a format-1 record, made
    before records pinned their content: it replays only while the code and files it used are unchanged).
    """
    notices: list[dict[str, Any]] = []
    game = get_game(record.get("game", ""))
    if record.get("format", RECORD_FORMATS[0]) == RECORD_FORMATS[0]:
        notices.append({"code": "old_format", "params": {"format": RECORD_FORMATS[0]}})
    recorded = record.get("rules")
    if recorded is not None and recorded != game.rules_revision:
        notices.append({"code": "rules_changed", "params": {"recorded": recorded, "installed": game.rules_revision}})
    digest = record.get("content")
    if digest is not None:
        options = record.get("options") or {}
        try:
            installed = game.content_digest(_resolve_options(game, record.get("players"), options))
        except InvalidOptions:
            installed = None
        if installed != digest:
            notices.append({"code": "content_changed", "params": {"recorded": digest, "installed": installed}})
    return notices


def replay_steps(record: Mapping[str, Any], seat: int | None = None) -> list[dict[str, Any]]:
    """The record step by step as ``seat`` saw it (``None``: a spectator), for replay viewers.

    ``steps[0]`` is the start (``action`` ``None``); then one entry per action with the action, the events
    ``seat`` may see, its view afterwards and the clock. Hidden information stays hidden: a spectator's
    replay shows no hand.
    """
    steps: list[dict[str, Any]] = []

    def step(match: Match, action: dict[str, Any], events: list[Event]) -> None:
        steps.append(
            {
                "action": dict(action),
                "events": [e.to_dict() for e in events if e.visible_to(seat)],
                "view": match.view(seat),
                "clock": match.clock,
            }
        )

    first = start_of(record)
    steps.append({"action": None, "events": [], "view": first.view(seat), "clock": first.clock})
    replay_into(record, step)
    return steps


def load_record(path: str) -> dict[str, Any]:
    """Read a record file, with an error naming the file if it is not a record."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except json.JSONDecodeError as exc:
        raise InvalidSnapshot(f"{path}: line {exc.lineno}: not valid JSON ({exc.msg})") from None
    if not isinstance(data, dict) or "actions" not in data:
        raise InvalidSnapshot(f"{path}: not a mindtable record (expected a JSON object with 'actions')")
    return data
