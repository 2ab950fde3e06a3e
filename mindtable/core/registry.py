"""Which games exist, and how a package adds one.

Every game, built-in or not, is registered the same way: an entry point in the group ``mindtable.games`` that
names a :class:`~mindtable.core.game.Game` instance (mindtable's own are declared in its ``pyproject.toml``)::

    # pyproject.toml of the package "mindtable-chess"
    [project.entry-points."mindtable.games"]
    chess = "mindtable_chess:GAME"

A game announced but without an engine yet names an object with ``available = False`` (an
:class:`Announced`); the lobby lists it as coming. At run time :func:`register_game` adds a game, and the
environment variable ``MINDTABLE_GAMES`` (``id=module:attribute`` items separated by commas) adds more, for
development. Games are imported only when first used; one broken plugin is reported
(:func:`broken_games`) and never breaks the others.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from mindtable.core.errors import GameNotAvailable, UnknownGame
from mindtable.core.hooks import HookError, resolve

if TYPE_CHECKING:
    from mindtable.core.game import Game

ENTRY_POINT_GROUP = "mindtable.games"
#: The order games are listed in when their entry points do not say (lower first).
_ORDER_KEY = "order"

_loaded: dict[str, Game] = {}
_announced: dict[str, Announced] = {}
_broken: dict[str, str] = {}
_targets: dict[str, str] | None = None


@dataclass(frozen=True)
class Announced:
    """A game that is registered but whose rules engine is not written yet (listed as coming)."""

    id: str
    title: str
    min_players: int
    max_players: int
    order: int = 100
    available: bool = False

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "available": False,
        }


def _all_targets() -> dict[str, str]:
    global _targets
    if _targets is None:
        found = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
        for item in os.environ.get("MINDTABLE_GAMES", "").split(","):
            name, sep, target = item.strip().partition("=")
            if sep and name and target:
                found[name.strip()] = target.strip()
        _targets = found
    return _targets


def _order(game_id: str) -> tuple[int, str]:
    found = _peek(game_id)
    return (getattr(found, _ORDER_KEY, 100) if found is not None else 1000, game_id)


def _peek(game_id: str) -> Any:
    if game_id in _loaded:
        return _loaded[game_id]
    if game_id in _announced:
        return _announced[game_id]
    target = _all_targets().get(game_id)
    if target is None or game_id in _broken:
        return None
    try:
        found = resolve(target, f"game {game_id!r}")
    except HookError as exc:
        _broken[game_id] = str(exc)
        return None
    if getattr(found, "available", True) is False:
        _announced[game_id] = found
    else:
        if getattr(found, "id", None) != game_id:
            _broken[game_id] = f"game {game_id!r}: {target!r} is a game with id {getattr(found, 'id', None)!r}"
            return None
        _loaded[game_id] = found
    return found


def game_ids() -> list[str]:
    """Every known game id (available or announced), in the order the games ask for."""
    ids = [name for name in _all_targets() if _peek(name) is not None]
    ids += [name for name in _loaded if name not in ids]
    return sorted(ids, key=_order)


def available_game_ids() -> list[str]:
    """The ids whose rules engine can be loaded now."""
    return [game_id for game_id in game_ids() if game_id in _loaded]


def announced_games() -> list[Announced]:
    """Games registered without an engine yet, for lobbies that list what is coming."""
    return [_announced[game_id] for game_id in game_ids() if game_id in _announced]


def broken_games() -> dict[str, str]:
    """Game ids whose entry point could not be loaded, with the reason (shown by ``mindtable games``)."""
    game_ids()
    return dict(_broken)


def register_game(game: Game) -> None:
    """Make ``game`` available under ``game.id`` (replacing any game of that id)."""
    _loaded[game.id] = game
    _announced.pop(game.id, None)
    _broken.pop(game.id, None)


def get_game(game_id: str) -> Game:
    """The game registered as ``game_id``; unknown ids raise :class:`UnknownGame` listing the known ones."""
    if not isinstance(game_id, str):
        raise UnknownGame(f"a game id must be a string, got {game_id!r}; known games: {', '.join(game_ids())}")
    game = _loaded.get(game_id)
    if game is not None:
        return game
    found = _peek(game_id)
    if game_id in _loaded:
        return _loaded[game_id]
    if game_id in _broken:
        raise GameNotAvailable(f"the game {game_id!r} is installed but broken: {_broken[game_id]}")
    if found is None:
        raise UnknownGame(f"unknown game {game_id!r}; known games: {', '.join(game_ids())}")
    raise GameNotAvailable(
        f"the rules engine of {game_id!r} is not available yet; playable games: {', '.join(available_game_ids())}"
    )
