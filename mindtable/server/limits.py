"""Every limit of the server in one place, per-address accounting, and who the client is behind a proxy.

Each limit has a default (the table in ``docs/server.md``) and can be changed three ways: ``create_app(limits=
Limits(...))``, ``--limit NAME=VALUE`` on ``python -m mindtable.server`` (repeatable), or the environment
variable ``MINDTABLE_LIMIT_<NAME>`` (upper case), which ``mindtable serve`` honours too.

>>> limits = Limits.from_overrides(["ws_connections_per_address=5"], env={"MINDTABLE_LIMIT_MAX_ROOMS": "10"})
>>> limits.ws_connections_per_address, limits.max_rooms, limits.ws_rate_per_s
(5, 10, 20.0)
>>> Limits.from_overrides(["colour=red"])
Traceback (most recent call last):
...
ValueError: unknown limit 'colour'; known limits: ...
"""

from __future__ import annotations

import ipaddress
import math
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

ENV_PREFIX = "MINDTABLE_LIMIT_"
TRUSTED_PROXIES_ENV = "MINDTABLE_TRUSTED_PROXIES"


@dataclass(frozen=True)
class Limits:
    """The server's limits (see ``docs/server.md``, "Limits"). Rates are per second; bursts are bucket sizes."""

    # -- rooms --
    max_rooms: int = 5000
    rooms_per_address: int = 20
    room_creates_per_address_per_s: float = 0.1
    room_creates_burst: int = 10
    rooms_per_network: int = 60
    waiting_room_ttl_s: float = 3 * 3600.0
    unjoined_room_ttl_s: float = 900.0
    rematch_hold_s: float = 120.0
    finished_room_linger_s: float = 60.0
    no_progress_actions_per_seat: int = 20
    bot_room_grace_s: float = 30.0
    # -- uploads (files a group brings) --
    upload_max_bytes: int = 1 << 20
    upload_timeout_s: float = 20.0
    upload_memory_bytes: int = 768 << 20
    uploads_per_address_per_s: float = 0.05
    uploads_burst: int = 10
    upload_ttl_s: float = 3 * 3600.0
    # -- requests before the application sees them (mindtable/server/headers.py) --
    header_timeout_s: float = 10.0
    header_max_bytes: int = 16384
    unfinished_requests_per_address: int = 64
    # -- REST --
    max_body_bytes: int = 65536
    rest_per_address_per_s: float = 10.0
    rest_burst: int = 60
    room_misses_per_address_per_s: float = 0.5
    room_misses_burst: int = 20
    # -- WebSocket --
    ws_connections_per_address: int = 32
    ws_connects_per_address_per_s: float = 1.0
    ws_connects_burst: int = 40
    ws_rate_per_s: float = 20.0
    ws_messages_per_address_per_s: float = 60.0
    ws_messages_burst: int = 120
    ws_refusals_before_close: int = 200
    ws_max_message_bytes: int = 4096
    ws_hello_timeout_s: float = 30.0
    ws_queue_messages: int = 2000
    ws_queue_bytes: int = 1 << 20
    ws_send_timeout_s: float = 10.0
    resume_room_bytes: int = 512 * 1024
    resume_total_bytes: int = 128 << 20

    @classmethod
    def names(cls) -> list[str]:
        return [field.name for field in fields(cls)]

    def with_overrides(self, overrides: Mapping[str, Any]) -> Limits:
        """A copy with ``overrides`` (names to values or strings) applied, each checked."""
        types = {field.name: field.type for field in fields(self)}
        changes: dict[str, Any] = {}
        for name, raw in overrides.items():
            if name not in types:
                raise ValueError(f"unknown limit {name!r}; known limits: {', '.join(self.names())}")
            kind = int if types[name] in (int, "int") else float
            try:
                value = kind(raw)
            except (TypeError, ValueError):
                raise ValueError(f"limit {name} must be a number, got {raw!r}") from None
            if (isinstance(value, float) and not math.isfinite(value)) or value < 0:
                raise ValueError(f"limit {name} must be a finite number >= 0, got {raw!r}")
            changes[name] = value
        return replace(self, **changes)

    @classmethod
    def from_overrides(cls, pairs: Iterable[str] = (), env: Mapping[str, str] | None = None) -> Limits:
        """Defaults, then ``MINDTABLE_LIMIT_*`` variables of ``env`` (default: the process), then ``NAME=VALUE``."""
        env = os.environ if env is None else env
        overrides: dict[str, str] = {}
        for key, value in env.items():
            if key.startswith(ENV_PREFIX):
                overrides[key[len(ENV_PREFIX) :].lower()] = value
        for pair in pairs:
            name, sep, value = pair.partition("=")
            if not sep:
                raise ValueError(f"a limit is given as NAME=VALUE, got {pair!r}")
            overrides[name.strip()] = value.strip()
        return cls().with_overrides(overrides)


class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` kept (``rate`` 0: only the burst, ever)."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.tokens = self.burst
        self.stamp = time.monotonic()

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def retry_after(self) -> float:
        """Seconds until the next token (rounded up to whole seconds for ``Retry-After``)."""
        if self.tokens >= 1 or self.rate <= 0:
            return 1.0
        return max(1.0, math.ceil((1 - self.tokens) / self.rate))

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


class AddressBook:
    """Per-address buckets and counters. Idle entries are dropped by :meth:`sweep`."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self.connections: dict[str, int] = {}
        #: Several processes: the budgets kept in Redis (:class:`mindtable.server.cluster.SharedBook`), used
        #: by the ``*_async`` methods for every kind but ``message`` (a connection's messages are all served
        #: by one process, the room's owner).
        self.shared: Any = None

    def _rates(self, kind: str) -> tuple[float, float]:
        lim = self.limits
        return {
            "rest": (lim.rest_per_address_per_s, lim.rest_burst),
            "miss": (lim.room_misses_per_address_per_s, lim.room_misses_burst),
            "create": (lim.room_creates_per_address_per_s, lim.room_creates_burst),
            "upload": (lim.uploads_per_address_per_s, lim.uploads_burst),
            "connect": (lim.ws_connects_per_address_per_s, lim.ws_connects_burst),
            "message": (lim.ws_messages_per_address_per_s, lim.ws_messages_burst),
        }[kind]

    def bucket(self, kind: str, address: str) -> Bucket:
        key = (kind, address)
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(*self._rates(kind))
        return bucket

    def take(self, kind: str, address: str) -> bool:
        """Take a token from ``address``'s bucket; room creation and uploads also take one from the bucket
        of the address's network (/24, /64), which holds three times the address's burst."""
        if kind in _BY_NETWORK:
            network = network_of(address)
            if network != address:
                bucket = self.buckets.get((kind, network))
                if bucket is None:
                    rate, burst = self._rates(kind)
                    bucket = self.buckets[(kind, network)] = Bucket(rate * 3, burst * 3)
                if not self.bucket(kind, address).take():
                    return False
                return bucket.take()
        return self.bucket(kind, address).take()

    def has(self, kind: str, address: str) -> bool:
        """Whether a token is available, without taking it."""
        bucket = self.buckets.get((kind, address))
        if bucket is None:
            return True
        now = time.monotonic()
        return bucket.tokens + (now - bucket.stamp) * bucket.rate >= 1

    def open_connection(self, address: str) -> bool:
        count = self.connections.get(address, 0)
        if count >= self.limits.ws_connections_per_address:
            return False
        self.connections[address] = count + 1
        return True

    def close_connection(self, address: str) -> None:
        count = self.connections.get(address, 0) - 1
        if count <= 0:
            self.connections.pop(address, None)
        else:
            self.connections[address] = count

    async def take_async(self, kind: str, address: str) -> bool:
        """:meth:`take`, from the deployment's shared budgets when there are several processes."""
        shared = self.shared
        if shared is None or kind == "message":
            return self.take(kind, address)
        rate, burst = self._rates(kind)
        if kind in _BY_NETWORK:
            network = network_of(address)
            if network != address:
                if not await shared.take(kind, address, rate, burst):
                    return False
                return bool(await shared.take(kind, network, rate * 3, burst * 3))
        return bool(await shared.take(kind, address, rate, burst))

    async def has_async(self, kind: str, address: str) -> bool:
        """:meth:`has`, from the shared budgets when there are several processes."""
        if self.shared is None or kind == "message":
            return self.has(kind, address)
        rate, burst = self._rates(kind)
        return bool(await self.shared.has(kind, address, rate, burst))

    async def open_connection_async(self, address: str) -> bool:
        """:meth:`open_connection`, counted across processes when there are several."""
        if self.shared is None:
            return self.open_connection(address)
        return bool(await self.shared.open_connection(address, self.limits.ws_connections_per_address))

    def close_connection_async(self, address: str) -> None:
        """Undo :meth:`open_connection_async` (in the background when shared)."""
        if self.shared is None:
            self.close_connection(address)
        else:
            self.shared.close_connection(address)

    def sweep(self) -> None:
        """Forget buckets that have refilled (an address that went quiet costs nothing)."""
        now = time.monotonic()
        for key in [key for key, bucket in self.buckets.items() if bucket.full(now)]:
            del self.buckets[key]


Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: Buckets that are also kept per network (many addresses of one network are one client for these).
_BY_NETWORK = frozenset(("create", "upload"))


def network_of(address: str) -> str:
    """The network an address is counted with: its /24 (IPv4) or /64 (IPv6); anything else is itself.

    >>> network_of("203.0.113.77"), network_of("2001:db8:1:2:3:4:5:6"), network_of("testclient")
    ('203.0.113.0/24', '2001:db8:1:2::/64', 'testclient')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    prefix = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def parse_networks(text: str | Iterable[str] | None) -> list[Network]:
    """Trusted proxies: addresses or networks, comma-separated (``"127.0.0.1, 10.0.0.0/8"``).

    >>> [str(n) for n in parse_networks("127.0.0.1, 10.0.0.0/8")]
    ['127.0.0.1/32', '10.0.0.0/8']
    """
    if text is None:
        return []
    items = text.split(",") if isinstance(text, str) else list(text)
    networks: list[Network] = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"trusted proxy {item!r} is not an IP address or network (e.g. 10.0.0.0/8)") from None
    return networks


def _trusted(address: str, networks: list[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(scope: Mapping[str, Any], trusted: list[Network]) -> str:
    """The client's address: the peer, or, when the peer is a trusted proxy, the right-most address of
    ``X-Forwarded-For`` that is not itself a trusted proxy.

    >>> scope = {"client": ("10.0.0.2", 5000), "headers": [(b"x-forwarded-for", b"1.2.3.4, 10.0.0.3")]}
    >>> client_address(scope, parse_networks("10.0.0.0/8"))
    '1.2.3.4'
    >>> client_address(scope, [])
    '10.0.0.2'
    """
    client = scope.get("client")
    peer = str(client[0]) if client else "unknown"
    if not trusted or not _trusted(peer, trusted):
        return peer
    forwarded: list[str] = []
    for name, value in scope.get("headers", ()):
        if name == b"x-forwarded-for":
            forwarded.extend(part.strip() for part in value.decode("latin-1").split(","))
    for address in reversed(forwarded):
        if not address:
            continue
        if not _trusted(address, trusted):
            return address[:64]
    return peer
