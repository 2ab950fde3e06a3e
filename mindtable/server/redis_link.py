"""A small asyncio client of the Redis protocol (RESP2): commands, pipelining, scripts and pub/sub.

The server needs a handful of commands (``SET NX PX``, ``EVAL``, ``PUBLISH``, ``SUBSCRIBE``, lists and
hashes); this module speaks them without a third-party package, so ``mindtable serve --redis`` needs nothing
installed. Every command of one :class:`Redis` goes over one connection, in the order it was called: replies
come back in that order (pipelining for free), and a publisher's messages reach subscribers in order.

>>> parse_url("redis://:secret@db.example:6380/2?prefix=mt-a:")
('db.example', 6380, 'secret', 2, 'mt-a:')
>>> parse_url("redis://127.0.0.1")
('127.0.0.1', 6379, None, 0, 'mindtable:')
>>> encode_command("SET", "k", 1)
b'*3\\r\\n$3\\r\\nSET\\r\\n$1\\r\\nk\\r\\n$1\\r\\n1\\r\\n'
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

log = logging.getLogger("mindtable.server.redis")

#: Keys and channels of one deployment start with this (``?prefix=`` in the URL to share one Redis).
DEFAULT_PREFIX = "mindtable:"


class RedisError(Exception):
    """An error reply of the server (``-ERR ...``)."""


def parse_url(url: str) -> tuple[str, int, str | None, int, str]:
    """``redis://[:password@]host[:port][/db][?prefix=P]`` -> (host, port, password, db, prefix)."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", ""):
        raise ValueError(f"a Redis URL starts with redis://, got {url!r}")
    host = parts.hostname or "127.0.0.1"
    port = parts.port or 6379
    password = unquote(parts.password) if parts.password else None
    path = parts.path.strip("/")
    db = int(path) if path else 0
    prefix = parse_qs(parts.query).get("prefix", [DEFAULT_PREFIX])[0]
    return host, port, password, db, prefix


def _bulk(value: Any) -> bytes:
    if isinstance(value, bytes):
        data = value
    elif isinstance(value, str):
        data = value.encode()
    elif isinstance(value, bool):
        data = b"1" if value else b"0"
    elif isinstance(value, (int, float)):
        data = repr(value).encode()
    else:
        raise TypeError(f"cannot send {type(value).__name__} to Redis")
    return b"$%d\r\n%s\r\n" % (len(data), data)


def encode_command(*args: Any) -> bytes:
    return b"*%d\r\n" % len(args) + b"".join(_bulk(arg) for arg in args)


async def _read_reply(reader: asyncio.StreamReader) -> Any:
    line = await reader.readline()
    if not line.endswith(b"\r\n"):
        raise ConnectionError("the Redis connection closed")
    kind, rest = line[:1], line[1:-2]
    if kind == b"+":
        return rest.decode()
    if kind == b"-":
        return RedisError(rest.decode(errors="replace"))
    if kind == b":":
        return int(rest)
    if kind == b"$":
        size = int(rest)
        if size < 0:
            return None
        data = await reader.readexactly(size + 2)
        return data[:-2]
    if kind == b"*":
        count = int(rest)
        if count < 0:
            return None
        return [await _read_reply(reader) for _ in range(count)]
    raise ConnectionError(f"unexpected reply from Redis: {line[:40]!r}")


class Redis:
    """One connection to Redis, opened on first use and again after it broke.

    Commands are written in the order they are called and their replies matched in that order, so many
    callers share the connection without waiting for each other.
    """

    def __init__(self, url: str, *, timeout: float = 5.0) -> None:
        self.url = url
        self.host, self.port, self.password, self.db, self.prefix = parse_url(url)
        self.timeout = timeout
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._pending: deque[asyncio.Future[Any]] = deque()
        self._reading: asyncio.Task[None] | None = None
        self._connecting: asyncio.Lock | None = None

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(self.host, self.port), self.timeout)
        hello: list[tuple[Any, ...]] = []
        if self.password:
            hello.append(("AUTH", self.password))
        if self.db:
            hello.append(("SELECT", self.db))
        for command in hello:
            writer.write(encode_command(*command))
            reply = await asyncio.wait_for(_read_reply(reader), self.timeout)
            if isinstance(reply, RedisError):
                writer.close()
                raise reply
        return reader, writer

    async def _connection(self) -> asyncio.StreamWriter:
        if self._writer is not None and not self._writer.is_closing():
            return self._writer
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            if self._writer is not None and not self._writer.is_closing():
                return self._writer
            self._reader, self._writer = await self._open()
            self._reading = asyncio.create_task(self._read_loop(self._reader))
            return self._writer

    async def _read_loop(self, reader: asyncio.StreamReader) -> None:
        error: BaseException = ConnectionError("the Redis connection closed")
        try:
            while True:
                reply = await _read_reply(reader)
                if not self._pending:
                    continue
                future = self._pending.popleft()
                if future.done():
                    continue
                if isinstance(reply, RedisError):
                    future.set_exception(reply)
                else:
                    future.set_result(reply)
        except asyncio.CancelledError:
            error = ConnectionError("the Redis client was closed")
            raise
        except (ConnectionError, OSError, asyncio.IncompleteReadError) as exc:
            error = ConnectionError(f"the Redis connection broke: {exc!r}")
        finally:
            writer = self._writer
            if writer is not None and self._reader is reader:
                writer.close()
                self._writer = None
            while self._pending:
                future = self._pending.popleft()
                if not future.done():
                    future.set_exception(error)

    def _send(self, writer: asyncio.StreamWriter, payload: bytes, count: int) -> list[asyncio.Future[Any]]:
        loop = asyncio.get_running_loop()
        futures = [loop.create_future() for _ in range(count)]
        self._pending.extend(futures)
        writer.write(payload)
        return futures

    async def call(self, *args: Any) -> Any:
        """Send one command and return its reply (``bytes`` for strings; an error reply raises RedisError)."""
        writer = await self._connection()
        (future,) = self._send(writer, encode_command(*args), 1)
        return await asyncio.wait_for(future, self.timeout)

    def fire(self, *commands: tuple[Any, ...]) -> None:
        """Send commands without waiting for their replies (failures are logged, once per burst).

        Only when connected; otherwise the commands are dropped (what they write is an optimisation:
        kept messages for reconnecting clients)."""
        writer = self._writer
        if writer is None or writer.is_closing() or not commands:
            return
        futures = self._send(writer, b"".join(encode_command(*c) for c in commands), len(commands))
        futures[-1].add_done_callback(_log_failure)
        for future in futures[:-1]:
            future.add_done_callback(_quiet)

    async def pipeline(self, *commands: tuple[Any, ...]) -> list[Any]:
        """Send several commands at once; their replies in order (an error reply is returned, not raised)."""
        if not commands:
            return []
        writer = await self._connection()
        futures = self._send(writer, b"".join(encode_command(*c) for c in commands), len(commands))
        done = await asyncio.wait_for(asyncio.gather(*futures, return_exceptions=True), self.timeout)
        for reply in done:
            if isinstance(reply, ConnectionError):
                raise reply
        return list(done)

    async def eval(self, script: str, keys: list[str], args: list[Any]) -> Any:
        return await self.call("EVAL", script, len(keys), *keys, *args)

    async def close(self) -> None:
        if self._reading is not None:
            self._reading.cancel()
            with contextlib.suppress(BaseException):
                await self._reading
        if self._writer is not None:
            self._writer.close()
            self._writer = None


def _quiet(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


def _log_failure(future: asyncio.Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("a Redis write failed: %r", future.exception())


class Subscriber:
    """A connection of its own subscribed to channels: each message is handed to ``handler(channel, data)``.

    When the connection breaks, ``on_lost()`` is called (messages may have been missed meanwhile) and it
    subscribes again, retrying every half second."""

    def __init__(
        self,
        url: str,
        channels: list[str],
        handler: Callable[[str, bytes], None],
        on_lost: Callable[[], Awaitable[None] | None] | None = None,
    ) -> None:
        self.client = Redis(url)
        self.channels = channels
        self.handler = handler
        self.on_lost = on_lost
        self.ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())
        await asyncio.wait_for(self.ready.wait(), self.client.timeout)

    async def _run(self) -> None:
        while True:
            writer: asyncio.StreamWriter | None = None
            try:
                reader, writer = await self.client._open()
                writer.write(encode_command("SUBSCRIBE", *self.channels))
                for _ in self.channels:
                    reply = await _read_reply(reader)
                    if isinstance(reply, RedisError):
                        raise reply
                self.ready.set()
                while True:
                    message = await _read_reply(reader)
                    if isinstance(message, list) and len(message) == 3 and message[0] == b"message":
                        try:
                            self.handler(message[1].decode(), message[2])
                        except Exception:
                            log.exception("a Redis message could not be handled")
            except asyncio.CancelledError:
                if writer is not None:
                    writer.close()
                raise
            except Exception as exc:
                if writer is not None:
                    writer.close()
                if self.ready.is_set():
                    log.warning("the Redis subscription broke (%r); subscribing again", exc)
                    self.ready.clear()
                    if self.on_lost is not None:
                        outcome = self.on_lost()
                        if outcome is not None:
                            await outcome
                await asyncio.sleep(0.5)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


def redis_problem(url: str) -> str | None:
    """What is wrong with ``--redis`` (the URL or the server), in one line, or ``None`` if it answers.

    >>> redis_problem("http://x")
    "the Redis URL 'http://x' is not usable: a Redis URL starts with redis://, got 'http://x'"
    """
    try:
        parse_url(url)
    except ValueError as exc:
        return f"the Redis URL {url!r} is not usable: {exc}"

    async def ping() -> None:
        client = Redis(url, timeout=3.0)
        try:
            await client.call("PING")
        finally:
            await client.close()

    shown = url.split("@")[-1] if "@" in url else url
    try:
        asyncio.run(ping())
    except Exception as exc:
        return f"cannot reach Redis at {shown!r}: {exc}"
    return None
