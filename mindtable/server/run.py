"""Run the server with uvicorn (used by ``mindtable serve`` and ``python -m mindtable.server``)."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from mindtable.server.app import WS_MAX_FRAME, create_app
from mindtable.server.limits import Limits


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    *,
    log_level: str = "info",
    rate_per_s: float | None = None,
    limits: Iterable[str] = (),
    trusted_proxies: str | None = None,
) -> None:
    """Serve until stopped. ``limits``: ``NAME=VALUE`` overrides on top of ``MINDTABLE_LIMIT_*`` variables;
    ``trusted_proxies``: addresses or networks whose ``X-Forwarded-For`` is believed (default: the
    ``MINDTABLE_TRUSTED_PROXIES`` variable; none)."""
    import uvicorn

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(
        db_url=db,
        limits=Limits.from_overrides(limits),
        rate_per_s=rate_per_s,
        trusted_proxies=trusted_proxies,
        tune_gc=True,
    )
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=WS_MAX_FRAME,
        # Messages are small JSON: compressing each frame costs more CPU than it saves bandwidth.
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        # The application itself decides whom to believe about the client's address (trusted_proxies).
        proxy_headers=False,
        access_log=False,
        timeout_graceful_shutdown=5,
    )
