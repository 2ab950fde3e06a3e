"""The mindtable server: a REST lobby, live play over WebSockets, persistence, and the web pages.

Start it with ``mindtable serve`` (or ``python -m mindtable.server``); build the ASGI app with
:func:`create_app`. The wire protocol is described in ``docs/protocol.md``, hosting in ``docs/server.md``.

The app (FastAPI and the rest) is imported only when ``create_app`` is asked for: importing this package does
not load the web stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mindtable.server.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from mindtable.server.app import create_app

        return create_app
    raise AttributeError(f"module 'mindtable.server' has no attribute {name!r}")
