"""Run the server with uvicorn (used by ``mindtable serve`` and ``python -m mindtable.server``)."""

from __future__ import annotations

import logging
import re
import socket
import time
from collections.abc import Iterable

from mindtable.server.app import WS_MAX_FRAME, create_app
from mindtable.server.headers import protocol_options
from mindtable.server.limits import Limits

#: A seat token in a logged address (``?token=...``, ``&token=...``).
_TOKEN = re.compile(r"([?&]token=)[^&\s\"']+")


class RedactTokens(logging.Filter):
    """Takes seat tokens out of log lines (uvicorn logs each WebSocket's address, with its query).

    >>> record = logging.LogRecord("uvicorn.error", 20, "", 0, '%s - "WebSocket %s" [accepted]',
    ...                            ("127.0.0.1:5000", "/ws/ABCDEF?token=s3cret"), None)
    >>> RedactTokens().filter(record), record.getMessage()
    (True, '127.0.0.1:5000 - "WebSocket /ws/ABCDEF?token=<redacted>" [accepted]')
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_TOKEN.sub(r"\1<redacted>", a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str) and "token=" in record.msg:
            record.msg = _TOKEN.sub(r"\1<redacted>", record.msg)
        return True


class QuietClientErrors(logging.Filter):
    """A client's broken frame (invalid UTF-8, a bad handshake) is one short line, at most one a
    ``interval`` seconds, saying how many were left out — never a traceback per frame (a log flood).

    >>> quiet = QuietClientErrors(interval=60)
    >>> def record():
    ...     try:
    ...         b"\\xff".decode()
    ...     except UnicodeDecodeError:
    ...         import sys
    ...         return logging.LogRecord("uvicorn.error", 40, "", 0, "Invalid UTF-8 sequence received from client.",
    ...                                  None, sys.exc_info())
    >>> first, second = record(), record()
    >>> quiet.filter(first), first.exc_info, quiet.filter(second)
    (True, None, False)
    """

    MESSAGES = ("Invalid UTF-8 sequence received from client.", "Invalid HTTP request received.")

    def __init__(self, interval: float = 10.0) -> None:
        super().__init__()
        self.interval = interval
        self.last: dict[str, float] = {}
        self.left_out: dict[str, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.msg if isinstance(record.msg, str) else ""
        if message not in self.MESSAGES:
            return True
        now = time.monotonic()
        if now - self.last.get(message, -1e9) < self.interval:
            self.left_out[message] = self.left_out.get(message, 0) + 1
            return False
        self.last[message] = now
        skipped = self.left_out.pop(message, 0)
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        if skipped:
            record.msg = f"{message} ({skipped} more in the last {self.interval:g} s not logged)"
        return True


def redact_tokens() -> None:
    """Install :class:`RedactTokens` on the loggers that print request addresses, and
    :class:`QuietClientErrors` on uvicorn's error log."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "mindtable"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
    errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietClientErrors) for f in errors.filters):
        errors.addFilter(QuietClientErrors())


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    *,
    log_level: str = "info",
    rate_per_s: float | None = None,
    limits: Iterable[str] = (),
    trusted_proxies: str | None = None,
    content: Iterable[str] = (),
    redis: str | None = None,
    reuse_port: bool = False,
    lease_s: float | None = None,
) -> None:
    """Serve until stopped. ``limits``: ``NAME=VALUE`` overrides on top of ``MINDTABLE_LIMIT_*`` variables;
    ``trusted_proxies``: addresses or networks whose ``X-Forwarded-For`` is believed (default: the
    ``MINDTABLE_TRUSTED_PROXIES`` variable; none); ``content``: folders of question and board files that
    rooms may choose by name; ``redis``: this process is one of several sharing the database and this Redis
    (``redis://host:port/db``); ``reuse_port``: listen with ``SO_REUSEPORT``, so several processes of one
    machine share the port (the kernel spreads connections over them)."""
    import uvicorn

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    redact_tokens()
    chosen = Limits.from_overrides(limits)
    app = create_app(
        db_url=db,
        limits=chosen,
        rate_per_s=rate_per_s,
        trusted_proxies=trusted_proxies,
        tune_gc=True,
        content=list(content),
        redis_url=redis,
        lease_s=lease_s,
    )
    config = uvicorn.Config(
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
        # Header size and time limits, and half-sent requests counted per address (before the app sees them).
        **protocol_options(chosen),
    )
    server = uvicorn.Server(config)
    if reuse_port:
        server.run(sockets=[reuse_port_socket(host, port)])
    else:
        server.run()


def reuse_port_socket(host: str, port: int) -> socket.socket:
    """A listening socket with ``SO_REUSEPORT``: every process of a machine that binds the same address and
    port this way shares it, and the kernel spreads new connections over them."""
    if not hasattr(socket, "SO_REUSEPORT"):
        raise SystemExit("mindtable: --reuse-port needs SO_REUSEPORT (Linux, BSD, macOS); use a reverse proxy")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock
