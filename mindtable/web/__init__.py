"""The browser pages of mindtable: plain HTML, CSS and JavaScript modules under ``static/``, no build step.

The server serves ``STATIC_DIR`` at ``/``, and each game's page from the game's own package (``web/`` beside
its rules: :meth:`mindtable.core.game.Game.web_folder`) at ``/games/<web_module>/``; the browser interface a
game module implements is described in ``docs/web.md``.
"""

from pathlib import Path

#: The folder the server serves at ``/``.
STATIC_DIR = Path(__file__).parent / "static"

__all__ = ["STATIC_DIR"]
