"""Run the server with uvicorn (used by ``mindtable serve`` and ``python -m mindtable.server``)."""

from __future__ import annotations

import logging

from mindtable.server.app import WS_MAX_FRAME, create_app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    *,
    log_level: str = "info",
    rate_per_s: float = 20.0,
) -> None:
    import uvicorn

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(db_url=db, rate_per_s=rate_per_s, tune_gc=True)
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
        access_log=False,
        timeout_graceful_shutdown=5,
    )
