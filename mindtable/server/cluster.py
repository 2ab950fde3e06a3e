"""Several server processes behind one address, sharing one PostgreSQL database and one Redis.

* **Ownership.** Each room has one owner process at a time, which holds it in memory and alone writes its
  actions. Ownership is a lease in Redis (``owner:<code>`` = the process's node id, expiring after
  ``lease_s``), renewed by the owner every third of it. A process killed with SIGKILL stops renewing: once its
  leases expire, the other processes take its unfinished rooms over from the database's action log (the
  log is the truth; nothing acknowledged is only in memory), resume their timers and bots, and continue their
  message streams from the copy kept in Redis, so reconnecting clients get the messages they missed.
* **Forwarding.** A request may reach any process (a reverse proxy or ``SO_REUSEPORT`` picks one). A request
  for a room another process owns is forwarded to it over Redis pub/sub: a WebSocket is relayed frame by
  frame (the owner serves it as if it were its own: same handler, same limits), a REST call as one request
  and one answer. Clients see one server; nothing in the protocol changes. (Redirecting instead would need
  every process to have an address of its own that clients can reach, which ``SO_REUSEPORT`` does not give,
  and a client that follows redirects.)
* **Fencing.** An owner that lost its lease (paused, cut off from Redis) stops acting at once: it acts only
  while its last renewal is younger than the lease less a margin, and the database's primary key on
  (room, action index) refuses a second writer's action of the same index in any case.
* **Shared limits.** Per-address and per-network budgets (room creation, uploads, room-code lookups,
  REST calls, new connections), open connections per address and room counts are kept in Redis
  (:class:`SharedBook`), so a client does not get one budget per process.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import random
import secrets
import threading
import time
from typing import TYPE_CHECKING, Any

from mindtable.server import storage as db
from mindtable.server.redis_link import Redis, RedisError, Subscriber

if TYPE_CHECKING:
    from mindtable.server.manager import RoomManager
    from mindtable.server.room import Room
    from mindtable.server.streams import Stream

log = logging.getLogger("mindtable.server.cluster")

#: Default lease of a room (and of a process's liveness key), in seconds.
LEASE_S = 3.0
#: An owner acts on its rooms only while its last renewal is younger than the lease less this.
SAFETY_S = 0.5
#: How long the process that forwards a request waits for the owner's first answer.
FORWARD_TIMEOUT_S = 10.0
#: Kept messages of a stream in Redis: at most this many, and for this long without a new one.
MIRROR_KEEP = 1024
MIRROR_TTL_S = 300

_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local owner = redis.call('GET', key)
  if owner == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif not owner and ARGV[3] == '1' then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    lost[#lost + 1] = i
  end
end
return lost
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)


class Cluster:
    """This process's part in a deployment of several (``mindtable serve --redis URL``)."""

    def __init__(self, url: str, *, lease_s: float = LEASE_S, node: str | None = None) -> None:
        self.url = url
        self.redis = Redis(url)
        self.prefix = self.redis.prefix
        self.node = node or secrets.token_hex(6)
        self.lease_s = lease_s
        self.lease_ms = int(lease_s * 1000)
        self.manager: RoomManager | None = None
        #: the ASGI application that serves requests forwarded to this process
        self.app: Any = None
        #: codes of the rooms this process holds the lease of
        self.owned: set[str] = set()
        #: this process's leases are good until then (monotonic clock), as of the last renewal
        self.valid_until = 0.0
        self.relays_out: dict[str, _EdgeRelay] = {}
        self.relays_in: dict[str, _OwnerRelay] = {}
        self.http_waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.subscriber: Subscriber | None = None
        self.renewer: _Renewer | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._last_reconcile = 0.0
        self.book = SharedBook(self)
        #: messages to copy to Redis at the end of this turn of the event loop, per (room, seat), and each
        #: stream's id, number and step after them, per room
        self._mirror: dict[tuple[str, int], list[str]] = {}
        self._mirror_meta: dict[str, dict[str, str]] = {}
        #: rooms taken over from another process (for logs and tests)
        self.taken_over = 0

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    def channel(self, node: str) -> str:
        return self.key("to", node)

    # -- life cycle -----------------------------------------------------------------------------------
    async def start(self) -> None:
        await self.redis.call("PING")
        await self._heartbeat()
        self.subscriber = Subscriber(self.url, [self.channel(self.node)], self._on_message, self._on_lost)
        await self.subscriber.start()
        self.renewer = _Renewer(self, asyncio.get_running_loop())
        self.renewer.start()
        self._ticker = asyncio.create_task(self._tick_loop())
        log.info("process %s joined the deployment (Redis %s:%d, lease %.1f s)", self.node, *self._where())

    def _where(self) -> tuple[str, int, float]:
        return self.redis.host, self.redis.port, self.lease_s

    async def stop(self) -> None:
        """Leave: hand every room back at once (another process takes them without waiting for the lease)."""
        if self._ticker is not None:
            self._ticker.cancel()
        if self.renewer is not None:
            await asyncio.to_thread(self.renewer.stop)
        for edge in list(self.relays_out.values()):
            edge.finish(1012)
        for owned in list(self.relays_in.values()):
            owned.disconnect(1001)
        if self._mirror or self._mirror_meta:
            # Copies of stream messages still waiting for this turn of the loop go first, on the same connection:
            # the process that takes a room over must find every message its clients have seen.
            self._flush_mirror()
        with contextlib.suppress(Exception):
            commands: list[tuple[Any, ...]] = [
                ("EVAL", _RELEASE, 1, self.key("owner", code), self.node) for code in self.owned
            ]
            commands.append(("DEL", self.key("node", self.node), self.key("lobby", self.node)))
            commands.append(("SREM", self.key("nodes"), self.node))
            await self.redis.pipeline(*commands)
        self.owned.clear()
        if self.subscriber is not None:
            await self.subscriber.stop()
        for task in list(self.tasks):
            task.cancel()
        await self.redis.close()

    def _spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def _heartbeat(self) -> None:
        info = json.dumps({"pid": os.getpid(), "since": time.time()})
        await self.redis.pipeline(
            ("SET", self.key("node", self.node), info, "PX", self.lease_ms),
            ("SADD", self.key("nodes"), self.node),
        )

    async def _tick_loop(self) -> None:
        interval = self.lease_s / 3
        while True:
            started = time.monotonic()
            try:
                await self._tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("the lobby, relays or take-overs could not be kept up (%r)", exc)
            await asyncio.sleep(max(0.05, interval - (time.monotonic() - started)))

    async def _tick(self) -> None:
        """What the event loop does every third of the lease: publish the lobby, end relays whose other
        process died, take orphaned rooms over (the leases themselves are renewed by :class:`_Renewer`)."""
        sent = time.monotonic()
        lobby = json.dumps(self.manager.public_rooms() if self.manager is not None else [])
        await self.redis.pipeline(
            ("SADD", self.key("nodes"), self.node),
            ("SET", self.key("lobby", self.node), lobby, "PX", self.lease_ms * 2),
        )
        await self._check_peers()
        if self.manager is not None and self.manager.started:
            await self._claim_orphans()
            if sent - self._last_reconcile > 15:
                self._last_reconcile = sent
                await self._reconcile()

    def _lost(self, codes: list[str]) -> None:
        """Leases the renewal found run out or held by another process (called on the event loop)."""
        for code in codes:
            if code not in self.owned:
                continue
            log.warning("room %s: its lease ran out or passed to another process; forgetting it here", code)
            self.owned.discard(code)
            if self.manager is not None:
                self.manager.forget(code, close_code=1012)

    # -- leases ---------------------------------------------------------------------------------------
    def holds(self, code: str) -> bool:
        """Whether this process may act on the room now (its lease is held and fresh)."""
        return code in self.owned and time.monotonic() < self.valid_until

    async def acquire(self, code: str) -> bool:
        if code in self.owned:
            return True
        got = await self.redis.call("SET", self.key("owner", code), self.node, "NX", "PX", self.lease_ms)
        if got is None:
            return False
        self.owned.add(code)
        if time.monotonic() >= self.valid_until:
            self.valid_until = time.monotonic() + self.lease_s - SAFETY_S
        return True

    async def adopt(self, code: str) -> None:
        """A room this process just created: its lease, and it is listed among the unfinished rooms."""
        if not await self.acquire(code):
            raise RuntimeError(f"room {code} was created here but another process holds its lease")
        await self.redis.call("SADD", self.key("rooms"), code)

    async def creating(self, holders: list[str | None], delta: int) -> list[int]:
        """Rooms being created now, everywhere, per holder (``None``: all; a creator's and a network's hash):
        changed by ``delta``; their counts after the change."""
        keys = [self.key("creating", holder or "*") for holder in holders]
        replies = await self.redis.pipeline(
            *(("INCRBY", key, delta) for key in keys), *(("PEXPIRE", key, 60_000) for key in keys)
        )
        return [int(reply) for reply in replies[: len(keys)]]

    def release(self, code: str) -> None:
        if code in self.owned:
            self.owned.discard(code)
            self._spawn(self.redis.eval(_RELEASE, [self.key("owner", code)], [self.node]))

    def room_over(self, code: str, players: int = 0) -> None:
        """A room that finished or was deleted needs no owner to keep it going, nor its kept streams (a late
        client of a finished room gets a snapshot with the result)."""
        self._spawn(self.redis.call("SREM", self.key("rooms"), code))
        if players:
            self.forget_streams(code, players)

    async def claim(self, code: str) -> str | None:
        """Where the room ``code`` lives: ``None`` if here (its lease taken now if nobody held it), else the
        node id of its owner."""
        if code in self.owned:
            return None
        for _ in range(3):
            owner = _text(await self.redis.call("GET", self.key("owner", code)))
            if owner == self.node:
                self.owned.add(code)
                return None
            if owner is not None:
                return owner
            if await self.acquire(code):
                return None
        raise RuntimeError(f"room {code}: its lease changes hands too often")

    async def _claim_orphans(self) -> None:
        """Take over unfinished rooms nobody holds (their process died), a few at a time."""
        assert self.manager is not None
        codes = [_text(code) for code in await self.redis.call("SMEMBERS", self.key("rooms"))]
        free = [code for code in codes if code and code not in self.owned]
        if not free:
            return
        owners = await self.redis.call("MGET", *(self.key("owner", code) for code in free))
        orphans = [code for code, owner in zip(free, owners, strict=True) if owner is None]
        random.shuffle(orphans)
        for code in orphans[:50]:
            if not await self.acquire(code):
                continue
            try:
                kept = await self.manager.take_over(code)
            except Exception:
                log.exception("room %s could not be taken over", code)
                kept = False
            if kept:
                self.taken_over += 1
            else:
                self.release(code)
                await self.redis.call("SREM", self.key("rooms"), code)

    async def _reconcile(self) -> None:
        """Every unfinished room of the database is listed in Redis (a process may die between the two)."""
        assert self.manager is not None
        codes = await self.manager.storage.run(db.unfinished_codes)
        if codes:
            await self.redis.call("SADD", self.key("rooms"), *codes)

    # -- the public lobby -----------------------------------------------------------------------------
    async def public_rooms(self, mine: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Every process's public rooms (the others' as they published them, a second or so ago)."""
        nodes = [_text(n) for n in await self.redis.call("SMEMBERS", self.key("nodes"))]
        others = [n for n in nodes if n and n != self.node]
        listed = list(mine)
        if not others:
            return listed
        seen = {room["code"] for room in mine}
        lists = await self.redis.call("MGET", *(self.key("lobby", n) for n in others))
        gone = []
        for node, text in zip(others, lists, strict=True):
            if text is None:
                gone.append(node)
                continue
            for room in json.loads(text):
                if room.get("code") not in seen:
                    seen.add(room["code"])
                    listed.append(room)
        if gone:
            alive = await self.redis.pipeline(*(("EXISTS", self.key("node", n)) for n in gone))
            dead = [n for n, ok in zip(gone, alive, strict=True) if not ok]
            if dead:
                self._spawn(self.redis.call("SREM", self.key("nodes"), *dead))
        return listed

    # -- message streams kept in Redis ------------------------------------------------------------------
    def mirror(self, room: Room, seat: int, stream: Stream, text: str) -> None:
        """Keep a copy of a seat stream's message in Redis (for its clients after a hand-over). The copies
        made during one turn of the event loop go to Redis together (one write, one command per stream)."""
        pending = self._mirror
        if not pending:
            asyncio.get_running_loop().call_soon(self._flush_mirror)
        entry = pending.get((room.code, seat))
        if entry is None:
            entry = pending[(room.code, seat)] = []
        entry.append(text)
        self._mirror_meta.setdefault(room.code, {})[str(seat)] = f"{stream.id}:{stream.seq}:{room.steps}"

    async def restore_streams(self, room: Room) -> dict[int, int] | None:
        """Continue a taken-over room's seat streams where its last owner left them: the same stream ids and
        numbers, with the messages kept in Redis. Returns, per seat, the step its kept messages reached
        (``None``: none were kept; the streams start afresh and clients get a snapshot)."""
        code = room.code
        meta = await self.redis.call("HGETALL", self.key("sid", code))
        if not meta:
            return None
        fields = {_text(meta[i]): _text(meta[i + 1]) for i in range(0, len(meta), 2)}
        seats = [seat for seat in range(room.players) if str(seat) in fields]
        lists = await self.redis.pipeline(*(("LRANGE", self.key("m", code, str(seat)), 0, -1) for seat in seats))
        reached: dict[int, int] = {}
        for seat, texts in zip(seats, lists, strict=True):
            stream_id, seq, step = str(fields[str(seat)]).split(":")
            if isinstance(texts, RedisError):
                continue
            room.streams[seat].restore(stream_id, int(seq), [t.decode() for t in texts])
            reached[seat] = int(step)
        return reached or None

    def _flush_mirror(self) -> None:
        pending, meta = self._mirror, self._mirror_meta
        self._mirror, self._mirror_meta = {}, {}
        ttl = MIRROR_TTL_S * 1000
        commands: list[tuple[Any, ...]] = []
        for (code, seat), texts in pending.items():
            kept = self.key("m", code, str(seat))
            commands += [("RPUSH", kept, *texts), ("LTRIM", kept, -MIRROR_KEEP, -1), ("PEXPIRE", kept, ttl)]
        for code, fields in meta.items():
            sid = self.key("sid", code)
            commands += [("HSET", sid, *(part for item in fields.items() for part in item)), ("PEXPIRE", sid, ttl)]
        self.redis.fire(*commands)

    def forget_streams(self, code: str, players: int) -> None:
        for seat in range(players):
            self._mirror.pop((code, seat), None)
        self._mirror_meta.pop(code, None)
        keys = [self.key("m", code, str(seat)) for seat in range(players)]
        self.redis.fire(("DEL", self.key("sid", code), *keys))

    # -- forwarding -----------------------------------------------------------------------------------
    def _publish(self, node: str, message: dict[str, Any]) -> Any:
        return self.redis.call("PUBLISH", self.channel(node), json.dumps(message, separators=(",", ":")))

    def _on_message(self, _channel: str, data: bytes) -> None:
        message = json.loads(data)
        kind = message.get("t")
        if kind == "ws":
            relay = _OwnerRelay(self, message)
            self.relays_in[relay.id] = relay
            relay.task = self._spawn(relay.run())
        elif kind in ("in", "bye"):
            owner_side = self.relays_in.get(message["c"])
            if owner_side is not None:
                owner_side.incoming(message)
        elif kind in ("acc", "out", "close"):
            edge_side = self.relays_out.get(message["c"])
            if edge_side is not None:
                edge_side.incoming(message)
        elif kind == "http":
            self._spawn(self._serve_http(message))
        elif kind == "resp":
            future = self.http_waiting.pop(message["r"], None)
            if future is not None and not future.done():
                future.set_result(message)

    async def _on_lost(self) -> None:
        """The subscription broke: messages may be lost, so every relayed connection ends (clients
        reconnect and resume)."""
        for edge in list(self.relays_out.values()):
            edge.finish(1012)
        for owned in list(self.relays_in.values()):
            owned.disconnect(1006)

    async def _check_peers(self) -> None:
        """Relayed connections whose other process died are ended (their clients reconnect)."""
        peers = {relay.peer for relay in self.relays_out.values()} | {r.peer for r in self.relays_in.values()}
        if not peers:
            return
        ordered = sorted(peers)
        alive = await self.redis.pipeline(*(("EXISTS", self.key("node", peer)) for peer in ordered))
        dead = {peer for peer, ok in zip(ordered, alive, strict=True) if not ok}
        for edge in list(self.relays_out.values()):
            if edge.peer in dead:
                edge.finish(1012)
        for owned in list(self.relays_in.values()):
            if owned.peer in dead:
                owned.disconnect(1006)

    async def forward_http(self, owner: str, scope: dict[str, Any], body: bytes, send: Any) -> None:
        """Serve a REST call at the room's owner and send its answer back to the client."""
        request_id = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.http_waiting[request_id] = future
        message = {
            "t": "http",
            "r": request_id,
            "e": self.node,
            "scope": _scope_out(scope),
            "body": base64.b64encode(body).decode(),
        }
        try:
            receivers = await self._publish(owner, message)
            if not receivers:
                raise TimeoutError
            answer = await asyncio.wait_for(future, FORWARD_TIMEOUT_S)
        except (TimeoutError, ConnectionError):
            self.http_waiting.pop(request_id, None)
            detail = {"code": "room_moving", "message": "the room is moving to another process; try again"}
            await _send_json(send, 503, {"detail": detail}, {"retry-after": "1"})
            return
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["headers"]]
        await send({"type": "http.response.start", "status": answer["status"], "headers": headers})
        await send({"type": "http.response.body", "body": base64.b64decode(answer["body"])})

    async def _serve_http(self, message: dict[str, Any]) -> None:
        scope = _scope_in(message["scope"], "http")
        body = base64.b64decode(message["body"])
        status = 500
        headers: list[tuple[str, str]] = []
        chunks: list[bytes] = []
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.Event().wait()  # the client never disconnects mid-way
            return {"type": "http.disconnect"}

        async def send(event: dict[str, Any]) -> None:
            nonlocal status
            if event["type"] == "http.response.start":
                status = event["status"]
                headers.extend((k.decode("latin-1"), v.decode("latin-1")) for k, v in event.get("headers", ()))
            elif event["type"] == "http.response.body":
                chunks.append(event.get("body", b""))

        try:
            await self.app(scope, receive, send)
        except Exception:
            log.exception("a forwarded request failed")
            status, headers, chunks = 500, [("content-type", "application/json")], [b'{"detail":"server error"}']
        answer = {
            "t": "resp",
            "r": message["r"],
            "status": status,
            "headers": headers,
            "body": base64.b64encode(b"".join(chunks)).decode(),
        }
        await self._publish(message["e"], answer)

    async def relay_websocket(self, owner: str, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Relay a client's WebSocket to the room's owner, frame by frame, until either side closes."""
        relay = _EdgeRelay(self, owner, send, scope)
        self.relays_out[relay.id] = relay
        try:
            await relay.run(receive)
        finally:
            self.relays_out.pop(relay.id, None)


class _Renewer(threading.Thread):
    """Renews this process's leases (and its liveness key) every third of the lease, from a thread of its own
    with its own connection to Redis: a busy or stalled event loop (a long replay, a starved machine) does not
    let the leases run out. The rooms act only while the last renewal is fresh (``Cluster.holds``)."""

    def __init__(self, cluster: Cluster, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(name="mindtable-leases", daemon=True)
        self.cluster = cluster
        self.loop = loop
        self.stopping = threading.Event()

    def run(self) -> None:
        asyncio.run(self._main())

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=5)

    async def _main(self) -> None:
        cluster = self.cluster
        redis = Redis(cluster.url)
        interval = cluster.lease_s / 3
        failing = False
        try:
            while not self.stopping.is_set():
                sent = time.monotonic()
                codes = list(cluster.owned)  # a copy made at once (under the GIL)
                keys = [cluster.key("owner", code) for code in codes]
                # A lease found missing is taken again only if it cannot have run out yet (Redis lost it:
                # restarted, failed over); after a longer gap another process may have had the room meanwhile.
                fresh = "1" if sent < cluster.valid_until + SAFETY_S else "0"
                try:
                    replies = await redis.pipeline(
                        ("EVAL", _RENEW, len(keys), *keys, cluster.node, cluster.lease_ms, fresh),
                        ("SET", cluster.key("node", cluster.node), str(os.getpid()), "PX", cluster.lease_ms),
                    )
                    if isinstance(replies[0], RedisError):
                        raise replies[0]
                except Exception as exc:
                    if not failing:
                        log.warning("the leases cannot be renewed (%r); rooms stop acting until they are", exc)
                    failing = True
                else:
                    failing = False
                    cluster.valid_until = sent + cluster.lease_s - SAFETY_S
                    lost = [codes[int(index) - 1] for index in replies[0]]
                    if lost:
                        self.loop.call_soon_threadsafe(cluster._lost, lost)
                await asyncio.sleep(max(0.05, interval - (time.monotonic() - sent)))
        finally:
            await redis.close()


def _scope_out(scope: dict[str, Any]) -> dict[str, Any]:
    return {
        "method": scope.get("method"),
        "path": scope["path"],
        "query": scope.get("query_string", b"").decode("latin-1"),
        "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope.get("headers", ())],
        "address": scope.get("mindtable.address"),
        "scheme": scope.get("scheme", "http"),
    }


def _scope_in(data: dict[str, Any], kind: str) -> dict[str, Any]:
    address = data.get("address") or "unknown"
    scope: dict[str, Any] = {
        "type": kind,
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "scheme": data.get("scheme", "http"),
        "path": data["path"],
        "raw_path": data["path"].encode(),
        "query_string": data["query"].encode("latin-1"),
        "root_path": "",
        "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in data["headers"]],
        "client": (address, 0),
        "server": None,
        "mindtable.relayed": True,
        "mindtable.address": address,
    }
    if kind == "http":
        scope["method"] = data["method"]
    else:
        scope["subprotocols"] = []
    return scope


async def _send_json(send: Any, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
    data = json.dumps(body).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    raw += [(k.encode(), v.encode()) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": data})


class _EdgeRelay:
    """The process a client reached: its WebSocket, relayed to the owner of the room."""

    def __init__(self, cluster: Cluster, owner: str, send: Any, scope: dict[str, Any]) -> None:
        self.cluster = cluster
        self.id = secrets.token_hex(8)
        self.peer = owner
        self.send = send
        self.scope = scope
        self.accepted = False
        self.done = asyncio.Event()
        self.close_code = 1000
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._bytes = 0

    def incoming(self, message: dict[str, Any]) -> None:
        limits = self.cluster.manager.limits if self.cluster.manager is not None else None
        if message["t"] == "out" and limits is not None:
            self._bytes += len(message.get("x") or "")
            if self._queue.qsize() >= limits.ws_queue_messages or self._bytes > limits.ws_queue_bytes:
                log.warning("dropping a relayed connection that does not read its messages")
                self.finish(1013)
                return
        self._queue.put_nowait(message)

    def finish(self, code: int) -> None:
        self._queue.put_nowait({"t": "close", "code": code})

    async def run(self, receive: Any) -> None:
        first = await receive()
        if first["type"] != "websocket.connect":
            return
        cluster = self.cluster
        opened = {"t": "ws", "c": self.id, "e": cluster.node, "scope": _scope_out(self.scope)}
        if not await cluster._publish(self.peer, opened):
            await self.send({"type": "websocket.close", "code": 1013})
            return
        pump = asyncio.create_task(self._pump(receive))
        try:
            await self._deliver()
        finally:
            pump.cancel()
            with contextlib.suppress(BaseException):
                await pump

    async def _deliver(self) -> None:
        timeout = FORWARD_TIMEOUT_S
        while True:
            try:
                message = await asyncio.wait_for(self._queue.get(), None if self.accepted else timeout)
            except TimeoutError:
                message = {"t": "close", "code": 1013}
            if message is None:
                return
            kind = message["t"]
            try:
                if kind == "acc":
                    self.accepted = True
                    await self.send({"type": "websocket.accept"})
                elif kind == "out":
                    text = message["x"]
                    self._bytes -= len(text)
                    await self.send({"type": "websocket.send", "text": text})
                elif kind == "close":
                    code = int(message.get("code") or 1000)
                    if not self.accepted:
                        await self.send({"type": "websocket.accept"})
                    await self.send({"type": "websocket.close", "code": code})
                    with contextlib.suppress(Exception):
                        await self.cluster._publish(self.peer, {"t": "bye", "c": self.id, "code": code})
                    return
            except Exception:  # the client went away
                with contextlib.suppress(Exception):
                    await self.cluster._publish(self.peer, {"t": "bye", "c": self.id, "code": 1006})
                return

    async def _pump(self, receive: Any) -> None:
        while True:
            event = await receive()
            if event["type"] == "websocket.disconnect":
                await self.cluster._publish(self.peer, {"t": "bye", "c": self.id, "code": event.get("code", 1000)})
                self._queue.put_nowait(None)
                return
            if event["type"] == "websocket.receive":
                message: dict[str, Any] = {"t": "in", "c": self.id}
                if event.get("text") is not None:
                    message["x"] = event["text"]
                else:
                    message["b"] = base64.b64encode(event.get("bytes") or b"").decode()
                if not await self.cluster._publish(self.peer, message):
                    self._queue.put_nowait({"t": "close", "code": 1012})
                    return


class _OwnerRelay:
    """The owner's end of a relayed WebSocket: served by the application like a connection of its own."""

    def __init__(self, cluster: Cluster, message: dict[str, Any]) -> None:
        self.cluster = cluster
        self.id = message["c"]
        self.peer = message["e"]
        self.scope = _scope_in(message["scope"], "websocket")
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._queue.put_nowait({"type": "websocket.connect"})
        self.closed = False
        self.task: asyncio.Task[Any] | None = None

    def incoming(self, message: dict[str, Any]) -> None:
        if message["t"] == "bye":
            self.disconnect(int(message.get("code") or 1000))
        elif "x" in message:
            self._queue.put_nowait({"type": "websocket.receive", "text": message["x"]})
        else:
            self._queue.put_nowait({"type": "websocket.receive", "bytes": base64.b64decode(message.get("b", ""))})

    def disconnect(self, code: int) -> None:
        self._queue.put_nowait({"type": "websocket.disconnect", "code": code})

    async def receive(self) -> dict[str, Any]:
        return await self._queue.get()

    async def send(self, event: dict[str, Any]) -> None:
        if self.closed:
            raise OSError("the relayed connection is closed")
        kind = event["type"]
        if kind == "websocket.accept":
            message: dict[str, Any] = {"t": "acc", "c": self.id}
        elif kind == "websocket.send":
            text = event.get("text")
            if text is None:
                text = (event.get("bytes") or b"").decode("utf-8", "replace")
            message = {"t": "out", "c": self.id, "x": text}
        elif kind == "websocket.close":
            self.closed = True
            message = {"t": "close", "c": self.id, "code": event.get("code", 1000)}
        else:
            return
        if not await self.cluster._publish(self.peer, message):
            self.closed = True
            self.disconnect(1006)
            raise OSError("the process relaying this connection is gone")

    async def run(self) -> None:
        try:
            await self.cluster.app(self.scope, self.receive, self.send)
        except Exception:
            log.debug("a relayed connection ended with an error", exc_info=True)
        finally:
            self.cluster.relays_in.pop(self.id, None)
            if not self.closed:
                self.closed = True
                with contextlib.suppress(Exception):
                    await self.cluster._publish(self.peer, {"t": "close", "c": self.id, "code": 1011})


_BUCKET = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(state[1]) or burst
local stamp = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
local ok = 0
if tokens >= 1 then
  if ARGV[3] == '1' then tokens = tokens - 1 end
  ok = 1
end
if ARGV[3] == '1' then
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
  local ttl = 60000
  if rate > 0 then ttl = math.ceil((burst - tokens) / rate * 1000) + 1000 end
  redis.call('PEXPIRE', KEYS[1], math.min(ttl, 86400000))
end
return ok
"""

#: Open connections of one address: a hash node -> count; the counts of processes that died do not count.
_OPEN = """
local fields = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #fields, 2 do
  if fields[i] == ARGV[1] or redis.call('EXISTS', ARGV[3] .. fields[i]) == 1 then
    total = total + tonumber(fields[i + 1])
  else
    redis.call('HDEL', KEYS[1], fields[i])
  end
end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], 86400000)
return 1
"""

_CLOSE = """
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return left
"""


class SharedBook:
    """The per-address and per-network budgets of :class:`~mindtable.server.limits.AddressBook`, kept in Redis
    so that every process of a deployment draws from the same ones (see ``AddressBook.shared``)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    def _key(self, kind: str, address: str) -> str:
        return self.cluster.key("b", kind, address)

    async def take(self, kind: str, address: str, rate: float, burst: float) -> bool:
        return bool(await self.cluster.redis.eval(_BUCKET, [self._key(kind, address)], [rate, max(burst, 1.0), "1"]))

    async def has(self, kind: str, address: str, rate: float, burst: float) -> bool:
        return bool(await self.cluster.redis.eval(_BUCKET, [self._key(kind, address)], [rate, max(burst, 1.0), "0"]))

    async def open_connection(self, address: str, limit: int) -> bool:
        cluster = self.cluster
        key = cluster.key("c", address)
        return bool(await cluster.redis.eval(_OPEN, [key], [cluster.node, limit, cluster.key("node", "")]))

    def close_connection(self, address: str) -> None:
        cluster = self.cluster
        cluster._spawn(cluster.redis.eval(_CLOSE, [cluster.key("c", address)], [cluster.node]))
