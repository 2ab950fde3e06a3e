"""Games registered ahead of their rules engines, listed in lobbies and help as coming.

Every built-in game now has its rules engine; a game announced before its engine lands is declared here as
``NAME = Announced("game-id", "Title", min_players, max_players, order=N)`` and named in ``pyproject.toml``.
"""

from mindtable.core.registry import Announced

__all__ = ["Announced"]
