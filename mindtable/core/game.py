"""The protocol every game implements.

A game is a set of pure functions over a JSON-ready ``state`` dict: nothing here reads a clock, touches a
file or draws randomness except from the :class:`~mindtable.core.rng.Rng` it is handed. The
:class:`~mindtable.core.match.Match` wraps a game and a state and is what callers use.

A new game subclasses :class:`Game`, fills in the class attributes and the abstract methods, and registers
an instance (see :mod:`mindtable.core.registry`). The contract, in the order a match calls it:

``initial_state(players, options, rng)``
    The state before the first action.
``moves``
    The move table (:mod:`mindtable.core.moves`): each move declared once with its gate (who, when), its
    parameters and its effect. ``legal_actions``, ``check`` and ``apply`` come from it, so what is listed is
    exactly what is accepted.
``codes``
    The game's reason codes with their English templates (:mod:`mindtable.core.codes`).
``view(state, seat)``
    What ``seat`` may see (``None``: a spectator). Hidden information never appears here.
``result(state)``
    ``None`` while the match runs, then a :class:`~mindtable.core.events.Result`.
``next_deadline(state)``
    The next moment the game acts on its own (a timer), as a :class:`~mindtable.core.events.Deadline`.
"""

from __future__ import annotations

import os
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic

from mindtable.core.codes import describe, fresh
from mindtable.core.errors import IllegalAction
from mindtable.core.events import Deadline, Event, Result
from mindtable.core.moves import ActionDict, MoveTable, S, State
from mindtable.core.options import Option

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    from mindtable.core.bots import Bot
    from mindtable.core.rng import Rng

    #: The type of what ``view`` returns: a game's ``TypedDict`` (``Game[State, MyView]``); any by default.
    V = TypeVar("V", bound=Mapping[str, Any], default=Any)
else:
    from typing import TypeVar

    V = TypeVar("V")

__all__ = ["ActionDict", "Game", "State"]


class Game(ABC, Generic[S, V]):
    """Base class of a game's rules. Subclasses are stateless; all state lives in the ``state`` dict.

    ``Game[S, V]``: ``S`` is the type of the state (plain JSON, ``dict[str, Any]`` unless the game declares a
    ``TypedDict``), ``V`` the type of a view (a game's ``TypedDict`` of what a seat sees).
    """

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Where the game is listed among the others (lower first).
    order: ClassVar[int] = 100
    #: A rules engine is installed (an :class:`~mindtable.core.registry.Announced` game says False).
    available: ClassVar[bool] = True
    #: Real-time games require ``"at"`` (ms since the match began) on every action.
    realtime: ClassVar[bool] = False
    #: Everyone wins or loses together.
    cooperative: ClassVar[bool] = False
    #: Turn by turn: only the seats in ``to_act`` ever have a legal action (the conformance test checks it).
    #: A driver then need not ask the other seats' bots that do nothing out of turn (``idle_out_of_turn``).
    acts_in_turn: ClassVar[bool] = False
    #: Parts of the state set at the start that no move ever changes (the match's questions, its board): a
    #: server leaves them out of the position fingerprint it takes after every action to tell progress from
    #: going round in circles. The conformance test checks that random games never change them.
    fixed_state: ClassVar[tuple[str, ...]] = ()
    #: Parts of a view that change seldom and weigh much (the board, the question history): a server's state
    #: frame leaves such a part out when it is what that stream sent last, and names it in ``"same"`` (clients
    #: keep the part they have: :func:`mindtable.server.protocol.fill_same`, docs/protocol.md).
    steady_view: ClassVar[tuple[str, ...]] = ()
    option_schema: ClassVar[Sequence[Option]] = ()
    #: What ``Result.details["progress"]`` measures, for simulation summaries.
    progress_label: ClassVar[str] = "progress"
    #: Further distributions ``mindtable simulate`` reports: ``Result.details`` key -> label. A game's value is
    #: a number, or a histogram (a list of counts by whole value, or ``{value: count}``) added up over games.
    simulation_details: ClassVar[Mapping[str, str]] = {}
    #: Bot name -> "module:callable" building ``callable(seat=..., seed=..., **params)``.
    bots: ClassVar[Mapping[str, str]] = {"random": "mindtable.core.bots:RandomBot"}
    #: Bot name -> the parameters a room gives that bot unless its creator says otherwise (a turn-based bot's
    #: think time, so people can follow it); simulations and terminals build bots with the factory's defaults.
    room_bot_params: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    #: The pace a room gives its bots unless its creator says otherwise (``bot_pace``: ``off``, ``normal``,
    #: ``slow`` or seconds, :mod:`mindtable.core.pace`): a think time before each step and the time to read what
    #: :meth:`read_before` names, so people at the table see what a bot does. Simulations never pace bots.
    room_bot_pace: ClassVar[str] = "off"
    #: Optional "module:callable" running this game in a terminal (see ``mindtable play``).
    terminal: ClassVar[str | None] = None
    #: Optional "module:callable" for fast batch simulation (see ``mindtable simulate``).
    batch_simulator: ClassVar[str | None] = None
    #: Optional "module:attribute" of a Typer app added as ``mindtable <game-id> ...``.
    cli_commands: ClassVar[str | None] = None
    #: The name of this game's browser page (if any): the server serves its folder (:meth:`web_folder`) at
    #: ``/games/<web_module>/`` (``index.js``, ``style.css``, ``i18n/<language>.json``).
    web_module: ClassVar[str | None] = None
    #: Where the page's files are, if not in the folder ``web`` of the game's own package (a plugin ships its
    #: page as package data there, beside its rules).
    web_assets: ClassVar[str | os.PathLike[str] | None] = None
    #: The moves of the game, each declared once (see :mod:`mindtable.core.moves`).
    moves: ClassVar[MoveTable[Any] | None] = None
    #: Reason codes -> English template with ``{parameters}`` (see :mod:`mindtable.core.codes`).
    codes: ClassVar[Mapping[str, str]] = {}
    #: Reason code -> the parameters that name a seat (a seat number or a list of them), which surfaces say as
    #: the seat is shown (its player's name); the core's are in :data:`mindtable.core.codes.CORE_SEAT_PARAMS`.
    seat_params: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: Reason code -> {parameter: label key prefix} for parameters whose values are ids (a colour, a topic) or
    #: lists of them: a page shows the label of ``prefix.value`` in its language (see ``label_params``).
    label_params: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    #: Bumped whenever a rule changes what an action does; records carry it and replays report a change.
    rules_revision: ClassVar[int] = 1

    def players_allowed(self) -> str:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players} to {self.max_players}"

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """Resolve defaults that depend on the player count; raise InvalidOptions for combinations."""
        return options

    @abstractmethod
    def initial_state(self, players: int, options: Mapping[str, Any], rng: Rng) -> S: ...

    # -- moves: listing, checking and applying all come from the move table ----------------------------
    def legal_actions(self, state: S, seat: int, at: int | None = None) -> list[ActionDict]:
        """The actions ``seat`` may take now: one entry per listed choice, typed inputs as ``"inputs"``."""
        table = self.moves if self.moves is not None else self._table()
        return table.legal_actions(state, seat, at)

    def normalize_action(self, state: S, action: Mapping[str, Any]) -> ActionDict:
        """``action`` reduced to its move's declared fields, defaults filled in; refusals raise IllegalAction."""
        table = self.moves if self.moves is not None else self._table()
        return table.normalize(state, action)

    def check(self, state: S, action: Mapping[str, Any]) -> None:
        """Raise :class:`IllegalAction` if ``action`` is not allowed now; never changes ``state``."""
        self.normalize_action(state, action)

    def apply(self, state: S, action: dict[str, Any], rng: Rng) -> list[Event]:
        """Change ``state`` for a normalised action that passed the check; return the events."""
        table = self.moves if self.moves is not None else self._table()
        return table.by_type[action["type"]].effect(state, action, rng)

    def to_act(self, state: S, players: int) -> list[int]:
        """The seats expected to act now (whose turn it is). Default: who the phase waits for, when the table has a
        turn flow (:mod:`mindtable.core.flow`), else every seat with a move open to it."""
        table = self._table()
        if table.flow is not None:
            return table.flow.to_act(state)
        return [seat for seat in range(players) if table.open_to(state, seat)]

    def explain(self, error: IllegalAction) -> IllegalAction:
        """Fill in the English message of a refusal raised with a code and parameters."""
        if not error.filled:
            error = fresh(error)  # never fill in a refusal that gates share
            error.with_message(describe(error.code, error.params, self.codes))
        return error

    def content_digest(self, options: Mapping[str, Any]) -> str | None:
        """A digest of the content files (tiles, decks, questions) the rules read while a match runs."""
        return None

    def secrets(self, state: S, players: int) -> list[tuple[tuple[int, ...], str]]:
        """For tests: ``(seats allowed, text)`` pairs; ``text`` must never appear in another seat's JSON."""
        return []

    def _table(self) -> MoveTable[Any]:
        table = self.moves
        if table is None:
            raise NotImplementedError(f"{type(self).__name__} declares no move table (Game.moves)")
        return table

    def web_folder(self) -> Path | None:
        """The folder of this game's browser page: :attr:`web_assets`, else ``web`` in the package the game's
        class comes from (a plugin's ``mygame.rules`` -> ``mygame/web``); ``None``
        when the game has no page (the generic table plays it)."""
        if self.web_module is None:
            return None
        if self.web_assets is not None:
            return Path(self.web_assets)
        module = sys.modules.get(type(self).__module__)
        where = getattr(module, "__file__", None)
        if where is None:
            return None
        folder = Path(where).resolve().parent / "web"
        return folder if folder.is_dir() else None

    @abstractmethod
    def view(self, state: S, seat: int | None) -> V: ...

    def views(self, state: S, seats: Sequence[int]) -> dict[int, V]:
        """``view(state, seat)`` for each of ``seats`` at once (the driver asks for every bot's view each step).

        A game may build the part every seat sees once and share it: views returned together may share their
        public parts (lists and dicts), so callers treat them as read-only. Each must equal ``view(state, seat)``.
        """
        return {seat: self.view(state, seat) for seat in seats}

    def bot_views(self, state: S, seats: Sequence[int], to_act: list[int]) -> Mapping[int, Mapping[str, Any]] | None:
        """The views a driver hands its bots, built as they are read (:class:`~mindtable.core.views.LazyView`), or
        ``None`` (the default): the driver then takes :meth:`views`. Each must equal ``view(state, seat)`` with
        ``"to_act": to_act``; read-only, like every view a bot gets."""
        return None

    @abstractmethod
    def result(self, state: S) -> Result | None: ...

    def next_deadline(self, state: S) -> Deadline | None:
        return None

    def read_before(self, view: dict[str, Any], action: Mapping[str, Any]) -> str:
        """What a person reads in ``view`` before taking ``action`` (a question before answering it): a paced bot
        takes the time to read it too (:mod:`mindtable.core.pace`). Default: nothing."""
        return ""

    def validate_state(self, state: S, players: int, options: Mapping[str, Any]) -> None:
        """Raise ValueError naming the field if a loaded state breaks an invariant. Default: accept."""
        return None

    def make_bot(self, name: str, seat: int, seed: int = 0, **params: Any) -> Bot:
        from mindtable.core.bots import load_bot

        return load_bot(self, name, seat=seat, seed=seed, **params)

    def describe(self) -> dict[str, Any]:
        """JSON-ready metadata for lobbies and help screens."""
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "available": True,
            "realtime": self.realtime,
            "cooperative": self.cooperative,
            "options": [option.to_dict() for option in self.option_schema],
            "bots": sorted(self.bots),
            "room_bot_params": {bot: dict(params) for bot, params in sorted(self.room_bot_params.items())},
            "room_bot_pace": self.room_bot_pace,
            "web_module": self.web_module,
            "rules_revision": self.rules_revision,
        }
