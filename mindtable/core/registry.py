"""Which games exist, and how another package adds one.

The built-in games are listed here by id. A separate package adds a game by declaring an entry point in
the group ``mindtable.games`` that names a :class:`~mindtable.core.game.Game` instance::

    # pyproject.toml of the package "mindtable-chess"
    [project.entry-points."mindtable.games"]
    chess = "mindtable_chess:GAME"

or, at run time, by calling :func:`register_game`. Games are imported only when first used.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from mindtable.core.errors import GameNotAvailable, UnknownGame

if TYPE_CHECKING:
    from mindtable.core.game import Game

#: id -> "module:attribute" of the Game instance, or None for a game whose engine is not written yet.
BUILTIN_GAMES: dict[str, str | None] = {
    "the-mind": "mindtable.games.the_mind:GAME",
    "neurorace": "mindtable.games.neurorace:GAME",
    "carrera-de-mente": None,
    "caida-libre": None,
    "eesti-malumang": None,
}

ENTRY_POINT_GROUP = "mindtable.games"

_loaded: dict[str, Game] = {}
_plugins: dict[str, str] | None = None


def _plugin_targets() -> dict[str, str]:
    global _plugins
    if _plugins is None:
        _plugins = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return _plugins


def game_ids() -> list[str]:
    """Every known game id, built-in first."""
    ids = list(BUILTIN_GAMES)
    ids += [name for name in _plugin_targets() if name not in BUILTIN_GAMES]
    ids += [name for name in _loaded if name not in ids]
    return ids


def available_game_ids() -> list[str]:
    """The ids whose rules engine can be loaded now."""
    return [game_id for game_id in game_ids() if _target(game_id) is not None or game_id in _loaded]


def _target(game_id: str) -> str | None:
    target = _plugin_targets().get(game_id)
    if target is None:
        target = BUILTIN_GAMES.get(game_id)
    return target


def register_game(game: Game) -> None:
    """Make ``game`` available under ``game.id`` (replacing any game of that id)."""
    _loaded[game.id] = game


def get_game(game_id: str) -> Game:
    """The game registered as ``game_id``; unknown ids raise :class:`UnknownGame` listing the known ones."""
    if not isinstance(game_id, str):
        raise UnknownGame(f"a game id must be a string, got {game_id!r}; known games: {', '.join(game_ids())}")
    game = _loaded.get(game_id)
    if game is not None:
        return game
    if game_id not in BUILTIN_GAMES and game_id not in _plugin_targets():
        raise UnknownGame(f"unknown game {game_id!r}; known games: {', '.join(game_ids())}")
    target = _target(game_id)
    if target is None:
        raise GameNotAvailable(
            f"the rules engine of {game_id!r} is not available yet; playable games: {', '.join(available_game_ids())}"
        )
    module_name, _, attribute = target.partition(":")
    game = getattr(importlib.import_module(module_name), attribute)
    _loaded[game_id] = game
    return game
