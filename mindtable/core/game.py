"""The protocol every game implements.

A game is a set of pure functions over a JSON-ready ``state`` dict: nothing here reads a clock, touches a
file or draws randomness except from the :class:`~mindtable.core.rng.Rng` it is handed. The
:class:`~mindtable.core.match.Match` wraps a game and a state and is what callers use.

A new game subclasses :class:`Game`, fills in the class attributes and the abstract methods, and registers
an instance (see :mod:`mindtable.core.registry`). The contract, in the order a match calls it:

``initial_state(players, options, rng)``
    The state before the first action.
``legal_actions(state, seat)``
    The actions ``seat`` may take now, as dicts ``{"type": ..., "seat": seat, ...}`` (without ``"at"``).
``check(state, action)``
    Raise :class:`~mindtable.core.errors.IllegalAction` if ``action`` is not allowed now. Must not change
    ``state``: the match calls it before ``apply`` so that a refused action changes nothing.
``apply(state, action, rng)``
    Change ``state`` in place for an action that passed ``check``; return the events, each with its audience.
``view(state, seat)``
    What ``seat`` may see (``None``: a spectator). Hidden information never appears here.
``result(state)``
    ``None`` while the match runs, then a :class:`~mindtable.core.events.Result`.
``next_deadline(state)``
    The next moment the game acts on its own (a timer), as a :class:`~mindtable.core.events.Deadline`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from mindtable.core.events import Deadline, Event, Result
from mindtable.core.options import Option

if TYPE_CHECKING:
    from mindtable.core.bots import Bot
    from mindtable.core.rng import Rng

State = dict[str, Any]
ActionDict = dict[str, Any]


class Game(ABC):
    """Base class of a game's rules. Subclasses are stateless; all state lives in the ``state`` dict."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Real-time games require ``"at"`` (ms since the match began) on every action.
    realtime: ClassVar[bool] = False
    #: Everyone wins or loses together.
    cooperative: ClassVar[bool] = False
    option_schema: ClassVar[Sequence[Option]] = ()
    #: What ``Result.details["progress"]`` measures, for simulation summaries.
    progress_label: ClassVar[str] = "progress"
    #: Bot name -> "module:callable" building ``callable(seat=..., seed=..., **params)``.
    bots: ClassVar[Mapping[str, str]] = {"random": "mindtable.core.bots:RandomBot"}
    #: Optional "module:callable" running this game in a terminal (see ``mindtable play``).
    terminal: ClassVar[str | None] = None
    #: Optional "module:callable" for fast batch simulation (see ``mindtable simulate``).
    batch_simulator: ClassVar[str | None] = None
    #: Optional "module:attribute" of a Typer app added as ``mindtable <game-id> ...``.
    cli_commands: ClassVar[str | None] = None
    #: The folder, inside the ``mindtable.web`` static tree, of this game's browser module (if any).
    web_module: ClassVar[str | None] = None

    def players_allowed(self) -> str:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players} to {self.max_players}"

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """Resolve defaults that depend on the player count; raise InvalidOptions for combinations."""
        return options

    @abstractmethod
    def initial_state(self, players: int, options: Mapping[str, Any], rng: Rng) -> State: ...

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[ActionDict]: ...

    @abstractmethod
    def check(self, state: State, action: Mapping[str, Any]) -> None: ...

    @abstractmethod
    def apply(self, state: State, action: Mapping[str, Any], rng: Rng) -> list[Event]: ...

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def result(self, state: State) -> Result | None: ...

    def next_deadline(self, state: State) -> Deadline | None:
        return None

    def validate_state(self, state: State, players: int, options: Mapping[str, Any]) -> None:
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
            "realtime": self.realtime,
            "cooperative": self.cooperative,
            "options": [option.to_dict() for option in self.option_schema],
            "bots": sorted(self.bots),
            "web_module": self.web_module,
        }
