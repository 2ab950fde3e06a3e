"""Connections the application never sees: limits on a request's headers, before any route runs.

A client that opens a connection and never finishes its request's headers (a slow "loris", an 8 KB upgrade
line sent a byte at a time) costs a file descriptor the application cannot count. uvicorn gives such a
connection no time limit, so :func:`guarded_protocol` wraps its HTTP protocol:

* ``header_timeout_s`` — the headers of a request must be complete this long after the connection opened (or
  after the request's first byte on a kept-alive connection); then the connection is closed (408);
* ``header_max_bytes`` — a request line and headers larger than this are refused (431) and the connection
  closed;
* ``unfinished_requests_per_address`` — connections of one address whose headers are not complete yet, at
  once; more are closed at once. (Complete requests are counted by the application's own limits.)
"""

from __future__ import annotations

import asyncio
from typing import Any

from mindtable.server.limits import Limits


class _Refused(Exception):
    """Stops the parser: the request was refused and its connection is closing."""


class Unfinished:
    """Connections per address whose request headers are still coming."""

    def __init__(self) -> None:
        self.by_address: dict[str, int] = {}

    def take(self, address: str, limit: int) -> bool:
        count = self.by_address.get(address, 0)
        if count >= limit:
            return False
        self.by_address[address] = count + 1
        return True

    def give(self, address: str) -> None:
        count = self.by_address.get(address, 0) - 1
        if count <= 0:
            self.by_address.pop(address, None)
        else:
            self.by_address[address] = count


def guarded_protocol(limits: Limits, unfinished: Unfinished | None = None) -> type[asyncio.Protocol] | None:
    """uvicorn's httptools protocol with the header limits above (``None`` if httptools is not installed:
    uvicorn's h11 protocol then applies its own header size limit only)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools comes with uvicorn[standard]
        return None
    counts = unfinished or Unfinished()

    class GuardedHttpToolsProtocol(HttpToolsProtocol):
        _mt_address: str | None = None
        _mt_refused = False
        _mt_timer: asyncio.TimerHandle | None = None
        _mt_bytes = 0
        _mt_head = 0

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if peer else "unknown"
            if not counts.take(address, limits.unfinished_requests_per_address):
                self._mt_refused = True
                transport.abort()
                return
            self._mt_address = address
            super().connection_made(transport)
            self._mt_start()

        def _mt_start(self) -> None:
            self._mt_bytes = 0
            self._mt_timer = self.loop.call_later(limits.header_timeout_s, self._mt_too_slow)

        def _mt_done(self) -> None:
            if self._mt_timer is not None:
                self._mt_timer.cancel()
                self._mt_timer = None
            if self._mt_address is not None:
                counts.give(self._mt_address)
                self._mt_address = None

        def _mt_refuse(self, status: bytes, text: bytes) -> None:
            self._mt_done()
            if not self.transport.is_closing():
                self.transport.write(
                    b"HTTP/1.1 "
                    + status
                    + b"\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: "
                    + str(len(text)).encode()
                    + b"\r\nconnection: close\r\n\r\n"
                    + text
                )
                self.transport.close()

        def _mt_too_slow(self) -> None:
            self._mt_timer = None
            self._mt_refuse(b"408 Request Timeout", b"the request's headers did not arrive in time")

        def data_received(self, data: bytes) -> None:
            pending = self._mt_timer is not None
            try:
                super().data_received(data)
            except _Refused:
                return
            if pending and self._mt_timer is not None:  # the headers are still not complete
                self._mt_bytes += len(data)
                if self._mt_bytes > limits.header_max_bytes:
                    self._mt_refuse(b"431 Request Header Fields Too Large", b"the request's headers are too large")

        def on_message_begin(self) -> None:
            if self._mt_timer is None and self._mt_address is None and self.transport is not None:
                # the next request on a kept-alive connection: its headers are timed and counted as well
                peer = self.transport.get_extra_info("peername")
                address = str(peer[0]) if peer else "unknown"
                if counts.take(address, limits.unfinished_requests_per_address):
                    self._mt_address = address
                    self._mt_start()
            super().on_message_begin()

        def on_url(self, url: bytes) -> None:
            self._mt_head += len(url)
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._mt_head += len(name) + len(value) + 4
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            too_big = self._mt_head > limits.header_max_bytes
            self._mt_head = 0
            if too_big:
                self._mt_refuse(b"431 Request Header Fields Too Large", b"the request's headers are too large")
                raise _Refused
            self._mt_done()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._mt_refused:
                return
            self._mt_done()
            super().connection_lost(exc)

    return GuardedHttpToolsProtocol


def protocol_options(limits: Limits) -> dict[str, Any]:
    """What ``uvicorn.run`` takes for these limits."""
    guarded = guarded_protocol(limits)
    options: dict[str, Any] = {"h11_max_incomplete_event_size": limits.header_max_bytes}
    if guarded is not None:
        options["http"] = guarded
    return options
