"""The mindtable server: a REST lobby, live play over WebSockets, persistence, and the web pages.

Start it with ``mindtable serve`` (or ``python -m mindtable.server``); build the ASGI app with
:func:`create_app`. The wire protocol is described in ``docs/protocol.md``, hosting in ``docs/server.md``.
"""

from mindtable.server.app import create_app

__all__ = ["create_app"]
