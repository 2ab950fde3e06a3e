"""Connections and their numbered message streams: what a room sends, to whom, and what it keeps for clients
that reconnect (bounded by count, time and bytes; long messages kept deflate-compressed). Nothing here knows a
game or a room's rules."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import zlib
from collections import deque
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket

from mindtable.server.limits import AddressBook, Bucket, Limits
from mindtable.server.protocol import encode

log = logging.getLogger("mindtable.server")

#: A stream keeps at most this many messages for clients that reconnect...
STREAM_KEEP = 1024
#: ...and, while the seat is connected, only the messages of the last minute...
STREAM_KEEP_S = 60.0
#: ...and while it is not, of the last five (its player may come back within the grace period and more).
STREAM_KEEP_IDLE_S = 300.0
#: Kept messages of at least this many characters are kept deflate-compressed (a quiz game's state frame is
#: 2-8 KB of JSON, a third of it or less compressed) and decompressed for a client that resumes.
STREAM_COMPRESS_FROM = 512
#: zlib's level: the fastest (the higher levels save a tenth more for three or four times the time)...
STREAM_COMPRESS_LEVEL = 1
#: ...with a 4 KiB window and a small hash table (raw deflate, no header): a frame is a few KB, and zlib's
#: defaults (32 KiB, memLevel 8) spend most of a small frame's time setting up their tables: 3-5x the time
#: for the same size (``benchmarks/action_path.py``, docs/benchmarks/server.md).
STREAM_COMPRESS_WBITS = -12
STREAM_COMPRESS_MEMLEVEL = 5


def body(message: dict[str, Any]) -> str:
    """A message's JSON without its opening brace, so that a stream can put its own ``seq`` in front.

    >>> f'{{"seq":3,{body({"kind": "over"})}'
    '{"seq":3,"kind":"over"}'
    """
    return encode(message)[1:]


def _pack(encoded: str) -> str | bytes:
    """A message's :func:`body` as a stream keeps it: itself when short, else its UTF-8 raw-deflated."""
    if len(encoded) < STREAM_COMPRESS_FROM:
        return encoded
    packer = zlib.compressobj(STREAM_COMPRESS_LEVEL, zlib.DEFLATED, STREAM_COMPRESS_WBITS, STREAM_COMPRESS_MEMLEVEL)
    return packer.compress(encoded.encode("utf-8")) + packer.flush()


#: The last body packed and what it was packed to: the streams of a room that send the same message (the
#: step's public events, presence, the result) share one compression of it. (Holding the body keeps its
#: identity from being reused.)
_last_packed: list[Any] = [None, None]


def _packed(encoded: str) -> str | bytes:
    if _last_packed[0] is encoded:
        return _last_packed[1]
    packed = _pack(encoded)
    _last_packed[0], _last_packed[1] = encoded, packed
    return packed


def _text(seq: int, kept: str | bytes) -> str:
    """Message number ``seq`` as it was sent, from what the stream kept (:func:`_pack`)."""
    encoded = kept if isinstance(kept, str) else zlib.decompress(kept, -15).decode("utf-8")
    return f'{{"seq":{seq},{encoded}'


def _transport_of(websocket: WebSocket) -> Any:
    """The asyncio transport under a uvicorn WebSocket, if it can be found (to drop a stuck connection)."""
    send = websocket.scope.get("mindtable.raw_send")
    protocol = getattr(send, "__self__", None)
    return getattr(protocol, "transport", None)


class Connection:
    """One WebSocket: an outgoing queue drained by its own task, and the per-connection rate limit.

    The queue is bounded in messages and in bytes, and every write (each batch of the frames queued together)
    has a timeout: a client that does not read is dropped (its TCP connection aborted at once, code 1013 when
    it can still be sent), so it never holds more than ``ws_queue_bytes`` of the server's memory.
    """

    def __init__(
        self,
        websocket: WebSocket,
        limits: Limits | float | None = None,
        address: str = "unknown",
        book: AddressBook | None = None,
    ) -> None:
        if not isinstance(limits, Limits):
            limits = Limits() if limits is None else Limits(ws_rate_per_s=float(limits))
        self.websocket = websocket
        self.limits = limits
        self.address = address
        self.book = book
        self.seat: int | None = None
        self.closed = False
        self.dropped = False
        self.on_drop: Callable[[], None] | None = None
        self._queue: asyncio.Queue[str | int] = asyncio.Queue()
        self._bytes = 0
        self._task = asyncio.create_task(self._writer())
        self._rate = limits.ws_rate_per_s
        self._bucket = Bucket(limits.ws_rate_per_s, limits.ws_rate_per_s)
        self.refused = 0

    def send(self, text: str) -> None:
        if self.closed:
            return
        size = len(text)
        if self._queue.qsize() >= self.limits.ws_queue_messages or self._bytes + size > self.limits.ws_queue_bytes:
            log.warning("dropping a connection from %s that does not read its messages", self.address)
            self.drop()
            return
        self._bytes += size
        self._queue.put_nowait(text)

    def send_message(self, message: dict[str, Any]) -> None:
        self.send(encode(message))

    def error(self, code: str, message: str) -> None:
        self.send_message({"kind": "error", "code": code, "message": message})

    def allow(self) -> bool:
        """Token buckets: this connection's (``ws_rate_per_s``) and its address's (all its connections)."""
        if not self._bucket.take():
            self.refused += 1
            return False
        if self.book is not None and not self.book.take("message", self.address):
            self.refused += 1
            return False
        return True

    def close(self, code: int = 1000) -> None:
        if self.closed:
            return
        self.closed = True
        self._queue.put_nowait(code)

    def drop(self, code: int = 1013) -> None:
        """Stop at once: forget queued messages, abort the TCP connection, tell the room."""
        if self.dropped:
            return
        self.dropped = True
        self.closed = True
        while not self._queue.empty():
            self._queue.get_nowait()
        self._bytes = 0
        loop = asyncio.get_running_loop()
        loop.call_soon(self._abort, code)
        if self.on_drop is not None:
            loop.call_soon(self.on_drop)

    def _abort(self, code: int) -> None:
        if not self._task.done():
            self._task.cancel()
        transport = _transport_of(self.websocket)
        if transport is not None:
            with contextlib.suppress(Exception):
                transport.abort()
        else:  # not under uvicorn: ask politely (cannot block: the writer task is gone)
            self._task = asyncio.create_task(self._close_only(code))

    async def _close_only(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code), self.limits.ws_send_timeout_s)

    async def wait_closed(self, timeout: float = 5.0) -> None:
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
            await asyncio.wait_for(asyncio.shield(self._task), timeout)
        if not self._task.done():
            self._task.cancel()

    async def _writer(self) -> None:
        websocket = self.websocket
        queue = self._queue
        timeout = self.limits.ws_send_timeout_s
        try:
            while True:
                # What was queued meanwhile is sent together, under one time-out (``ws_send_timeout_s`` for
                # the lot, at most ``ws_queue_bytes``): a step's frames (events, state) come in one turn of the
                # loop, and a timer for every frame was a third of a send's cost.
                items = [await queue.get()]
                while not queue.empty() and not isinstance(items[-1], int):
                    items.append(queue.get_nowait())
                end = items[-1] if isinstance(items[-1], int) else None
                texts: list[str] = items[:-1] if end is not None else items  # type: ignore[assignment]
                if texts:
                    self._bytes -= sum(len(text) for text in texts)
                    try:
                        async with asyncio.timeout(timeout):
                            for text in texts:
                                await websocket.send_text(text)
                    except TimeoutError:
                        log.warning("dropping a connection from %s: a write took over %g s", self.address, timeout)
                        self.drop()
                        return
                if end is not None:
                    try:
                        await asyncio.wait_for(websocket.close(end), timeout)
                    except TimeoutError:
                        self.drop(end)
                    except Exception:
                        pass
                    return
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not isinstance(exc, (OSError, RuntimeError)) and type(exc).__name__ != "ClientDisconnected":
                log.warning("a connection from %s failed to send: %r", self.address, exc)
            self.closed = True


class ResumeBudget:
    """The bytes every stream of the server keeps for reconnecting clients, together (``resume_total_bytes``),
    and what one room's streams may keep (``resume_room_bytes``): memory stays bounded however many messages
    pass. A client whose missed messages were let go gets a snapshot instead."""

    def __init__(self, total: int, per_room: int) -> None:
        self.limit = total
        self.per_room = per_room
        self.used = 0


class Stream:
    """The numbered messages of one seat (or of all spectators), kept for clients that reconnect."""

    def __init__(
        self, keep_when_idle: bool = True, budget: ResumeBudget | None = None, room: list[int] | None = None
    ) -> None:
        self.id = secrets.token_hex(8)
        self.seq = 0
        self.keep_when_idle = keep_when_idle
        #: The steady view parts (``Game.steady_view``) as this stream last sent them (see Room._steady).
        self.steady: dict[str, Any] = {}
        #: (seq, when pushed, the message's body as kept: a short one as text, a long one compressed: :func:`_pack`)
        self.buffer: deque[tuple[int, float, str | bytes]] = deque()
        self.conns: set[Connection] = set()
        self.budget = budget
        #: the bytes this room's streams keep (one list shared by them: ``[bytes]``)
        self.room = room if room is not None else [0]
        #: called with each kept message (several processes: a copy in Redis for after a hand-over)
        self.mirror: Callable[[str], None] | None = None

    def _drop_oldest(self) -> None:
        size = len(self.buffer.popleft()[2])
        self.room[0] -= size
        if self.budget is not None:
            self.budget.used -= size

    def _keep(self, seq: int, when: float, encoded: str) -> None:
        kept = _packed(encoded)
        self.buffer.append((seq, when, kept))
        size = len(kept)
        self.room[0] += size
        if self.budget is not None:
            self.budget.used += size

    def clear(self) -> None:
        while self.buffer:
            self._drop_oldest()

    def kept(self) -> list[str]:
        """Every kept message, as it was sent (the long ones decompressed), oldest first."""
        return [_text(item[0], item[2]) for item in self.buffer]

    @property
    def kept_bytes(self) -> int:
        """The bytes this stream's kept messages take (as kept: the long ones compressed)."""
        return sum(len(item[2]) for item in self.buffer)

    def expire(self, now: float | None = None) -> None:
        """Let go of what may no longer be resumed: messages older than the time limit (the last minute while
        a client is connected, five minutes while none is), everything of a stream kept only while watched
        (the spectators') that nobody watches, and the oldest while the room's or the server's streams keep
        more than their budget. Done at every push, and by the server's sweep for streams nobody pushes to."""
        buffer = self.buffer
        if not buffer:
            return
        if not self.conns and not self.keep_when_idle:
            self.clear()
            return
        now = time.monotonic() if now is None else now
        while len(buffer) > STREAM_KEEP:
            self._drop_oldest()
        limit = now - (STREAM_KEEP_S if self.conns else STREAM_KEEP_IDLE_S)
        while buffer and buffer[0][1] < limit:
            self._drop_oldest()
        budget = self.budget
        if budget is not None:
            while len(buffer) > 1 and (self.room[0] > budget.per_room or budget.used > budget.limit):
                self._drop_oldest()

    def push(self, message: dict[str, Any]) -> None:
        self.push_body(body(message))

    def push_body(self, encoded: str) -> None:
        """Push a message given as :func:`body` (encoded once, shared by every stream that sends it)."""
        self.seq += 1
        if not self.conns and not self.keep_when_idle:
            self.clear()  # nobody listens: a spectator who comes later gets a snapshot
            return
        text = f'{{"seq":{self.seq},{encoded}'
        now = time.monotonic()
        self._keep(self.seq, now, encoded)
        self.expire(now)
        if self.mirror is not None:
            self.mirror(text)
        for conn in tuple(self.conns):
            conn.send(text)

    def restore(self, stream_id: str, seq: int, texts: list[str]) -> None:
        """Continue a stream another process numbered: its id, its last number and its kept messages (each
        text starts ``{"seq":N,``)."""
        self.clear()
        self.id = stream_id
        self.seq = seq
        now = time.monotonic()
        kept: list[tuple[int, str]] = []
        expected = seq
        for text in reversed(texts):  # only the unbroken run of messages that ends at ``seq``
            try:
                number = int(text[7 : text.index(",")])
            except ValueError:
                break
            if number > expected:
                continue
            if number != expected:
                break
            kept.append((number, text))
            expected -= 1
        for number, text in reversed(kept[:STREAM_KEEP]):
            self._keep(number, now, text[text.index(",") + 1 :])
        self.expire(now)

    def since(self, stream_id: str | None, last_seq: int) -> list[str] | None:
        """The messages after ``last_seq``, or ``None`` if they are not all kept (the client needs a snapshot)."""
        if stream_id != self.id or last_seq <= 0 or last_seq > self.seq:
            return None
        if last_seq == self.seq:
            return []
        if not self.buffer or self.buffer[0][0] > last_seq + 1:
            return None
        return [_text(seq, kept) for seq, _, kept in self.buffer if seq > last_seq]
