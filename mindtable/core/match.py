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
mindtable.core.errors.IllegalAction: seat 0 is already ready
>>> again = mindtable.replay(match.record())
>>> again.snapshot() == match.snapshot()
True
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from mindtable.core.errors import IllegalAction, InvalidOptions, InvalidSnapshot, ReplayMismatch
from mindtable.core.events import Deadline, Event, Result
from mindtable.core.game import Game
from mindtable.core.options import validate_options
from mindtable.core.registry import get_game
from mindtable.core.rng import Rng

RECORD_FORMAT = "mindtable-record/1"
SNAPSHOT_FORMAT = "mindtable-snapshot/1"


class Match:
    """A running match. Build one with :func:`new_match`, :meth:`from_snapshot` or :func:`replay`."""

    __slots__ = ("_actions", "_result", "_start", "clock", "game", "options", "players", "rng", "seed", "state")

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
        self._start = start
        self._result: Result | None = game.result(state)

    # -- playing -------------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """The actions ``seat`` may take now, as JSON-ready dicts (empty when the match is over)."""
        if self._result is not None:
            return []
        self._check_seat(seat, None)
        return self.game.legal_actions(self.state, seat)

    def check(self, action: Mapping[str, Any] | Any) -> dict[str, Any]:
        """Raise :class:`IllegalAction` if ``action`` is not allowed now; return it as a plain dict."""
        action = self._normalize(action)
        if self._result is not None:
            raise IllegalAction("match_over", "the match is over; no more actions are accepted", action)
        self.game.check(self.state, action)
        return action

    def apply(self, action: Mapping[str, Any] | Any) -> list[Event]:
        """Apply ``action`` (a dict or an object with ``to_dict()``) and return what happened.

        An illegal action raises :class:`IllegalAction` and leaves the match exactly as it was.
        """
        action = self.check(action)
        try:
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

    def _restore(self) -> None:
        """Rebuild the state from the start and the recorded actions (used only after a failed apply)."""
        if self._start is not None:
            again = Match.from_snapshot(self._start)
        else:
            again = new_match(self.game.id, self.players, self.seed, self.options)
        for action in self._actions:
            again.game.apply(again.state, action, again.rng)
            again.clock = action.get("at", again.clock)
        self.state, self.rng, self.clock = again.state, again.rng, again.clock

    def _normalize(self, action: Any) -> dict[str, Any]:
        if not isinstance(action, Mapping):
            to_dict = getattr(action, "to_dict", None)
            if to_dict is None:
                raise IllegalAction(
                    "malformed_action", f"an action must be a dict or have to_dict(), got {type(action).__name__}"
                )
            action = to_dict()
        kind = action.get("type")
        if not isinstance(kind, str) or not kind:
            raise IllegalAction("malformed_action", "an action needs a 'type' string, e.g. {'type': 'play', ...}")
        result = dict(action)
        self._check_seat(result.get("seat"), result)
        at = result.get("at")
        if at is None:
            if self.game.realtime:
                raise IllegalAction(
                    "missing_time",
                    f"{self.game.id} is played in real time: every action needs 'at', "
                    "its time in ms since the match began",
                    result,
                )
            result.pop("at", None)
        elif isinstance(at, bool) or not isinstance(at, int) or at < 0:
            raise IllegalAction("malformed_action", f"'at' must be a whole number of ms >= 0, got {at!r}", result)
        elif at < self.clock:
            raise IllegalAction(
                "time_went_backwards",
                f"action at {at} ms is earlier than the previous action at {self.clock} ms",
                result,
            )
        return result

    def _check_seat(self, seat: Any, action: dict[str, Any] | None) -> None:
        if seat is None and action is not None:
            return  # system actions (deadlines) carry no seat; the game decides whether it accepts them
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(
                "bad_seat", f"seat must be a whole number from 0 to {self.players - 1}, got {seat!r}", action
            )

    # -- looking -------------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, JSON-ready; ``None`` is a spectator."""
        if seat is not None:
            self._check_seat(seat, None)
        return self.game.view(self.state, seat)

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
    def snapshot(self) -> dict[str, Any]:
        """The full state as JSON (hidden information included): for referees, tests and saving."""
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
            rng = Rng.from_dict(snapshot.get("rng", {"seed": seed, "draws": 0}))
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
        start = {
            "format": SNAPSHOT_FORMAT,
            "game": game.id,
            "players": players,
            "options": copy.deepcopy(options),
            "seed": seed,
            "rng": rng.to_dict(),
            "clock": clock,
            "state": copy.deepcopy(state),
        }
        return cls(game, players, options, seed, state, rng, clock, start=start)

    def record(self) -> dict[str, Any]:
        """Everything needed to rebuild this match: game, options, seed and timestamped actions."""
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game.id,
            "players": self.players,
            "options": copy.deepcopy(self.options),
            "seed": self.seed,
            "actions": copy.deepcopy(self._actions),
        }
        if self._start is not None:
            record["start"] = copy.deepcopy(self._start)
        if self._result is not None:
            record["result"] = self._result.to_dict()
        return record


def _resolve_options(game: Game, players: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(players, bool) or not isinstance(players, int) or not game.min_players <= players <= game.max_players:
        raise InvalidOptions(f"{game.title} is for {game.players_allowed()} players, got {players!r}", option="players")
    if not isinstance(options, Mapping):
        raise InvalidOptions(f"options must be a mapping of option name to value, got {type(options).__name__}")
    return game.normalize_options(players, validate_options(game.option_schema, options))


def new_match(game_id: str, players: int, seed: int = 0, options: Mapping[str, Any] | None = None) -> Match:
    """Start a match of ``game_id`` for ``players`` seats, seeded with ``seed``.

    Unknown game ids, player counts and options raise errors that list what is allowed.
    """
    game = get_game(game_id)
    resolved = _resolve_options(game, players, options or {})
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptions(f"seed must be an integer, got {seed!r}", option="seed")
    rng = Rng(seed)
    state = game.initial_state(players, resolved, rng)
    return Match(game, players, resolved, seed, state, rng)


def replay(record: Mapping[str, Any], *, verify: bool = True) -> Match:
    """Rebuild the match a record describes by applying its actions again.

    With ``verify``, a record that stores a result must reach the same result.
    """
    if not isinstance(record, Mapping):
        raise InvalidSnapshot(f"a record must be a JSON object, got {type(record).__name__}")
    if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise InvalidSnapshot(f"record field 'format' must be {RECORD_FORMAT!r}, got {record.get('format')!r}")
    if "start" in record:
        match = Match.from_snapshot(record["start"])
    else:
        for name in ("game", "players"):
            if name not in record:
                raise InvalidSnapshot(f"record is missing the field {name!r}")
        match = new_match(record["game"], record["players"], record.get("seed", 0), record.get("options"))
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise InvalidSnapshot("record field 'actions' must be a list")
    for index, action in enumerate(actions):
        try:
            match.apply(action)
        except IllegalAction as exc:
            raise ReplayMismatch(f"record action {index} ({action!r}) is illegal on replay: {exc}") from None
    stored = record.get("result")
    if verify and stored is not None:
        got = match.result.to_dict() if match.result else None
        if got != stored:
            raise ReplayMismatch(f"record claims result {stored!r} but replays to {got!r}")
    return match


def replay_steps(record: Mapping[str, Any], seat: int | None = None) -> list[dict[str, Any]]:
    """The record step by step as ``seat`` saw it (``None``: a spectator), for replay viewers.

    ``steps[0]`` is the start (``action`` ``None``); then one entry per action with the action, the events
    ``seat`` may see, its view afterwards and the clock. Hidden information stays hidden: a spectator's
    replay shows no hand.
    """
    match = Match.from_snapshot(record["start"]) if "start" in record else None
    if match is None:
        match = new_match(record["game"], record["players"], record.get("seed", 0), record.get("options"))
    steps: list[dict[str, Any]] = [{"action": None, "events": [], "view": match.view(seat), "clock": match.clock}]
    for index, action in enumerate(record.get("actions", [])):
        try:
            events = match.apply(action)
        except IllegalAction as exc:
            raise ReplayMismatch(f"record action {index} ({action!r}) is illegal on replay: {exc}") from None
        steps.append(
            {
                "action": dict(action),
                "events": [e.to_dict() for e in events if e.visible_to(seat)],
                "view": match.view(seat),
                "clock": match.clock,
            }
        )
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
