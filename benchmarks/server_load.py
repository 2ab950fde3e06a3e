"""Load benchmark of the mindtable server: many WebSocket players in many rooms of all five games, on loopback.

    .venv/bin/python benchmarks/server_load.py                 # 1,000 players, 250 rooms, 180 s
    .venv/bin/python benchmarks/server_load.py --rooms 25 --duration 15 --games the-mind
    .venv/bin/python benchmarks/server_load.py --processes 2   # two processes: SO_REUSEPORT, PostgreSQL, Redis

Starts the server (``python -m mindtable.server``) in a subprocess on a free 127.0.0.1 port with a fresh
SQLite file, creates the rooms (the games in turn, every seat a human), connects one WebSocket per seat and
lets each client play with a person's pace: the game's bot runs *in the client* (The Mind: ``proportional``
with ``--tempo-ms``; the others: their first bot), sees only its seat's ``state`` frames, and the client sends
its wish after ``Decision.at - clock`` ms, and in turn-based games no sooner than ``--think-ms`` after the
state it answers (people read before they click). When a game ends, every seat asks for a rematch, so all
rooms keep playing until the time is up.

Reported: latency from a client sending an action to each *other* seat of its room receiving that action's
``events`` frame (p50/p99/max), the sender's round trip to ``accepted`` and to its own new ``state`` (per
game too), actions per second, memory per player (``memory_kb_per_player``: the server's RSS over the players;
``memory_kb_per_player_above_idle``: less the RSS of the server before the first room), the server's memory
every 10 s (``memory_mb_per_10s``) and its growth in MB a minute over minutes 2 to 4 of the measuring
(``memory_mb_growth_per_min_2_to_4``, a least-squares slope of those samples: about 0 when memory is flat
once the rooms play; run ``--duration 240`` or more for the whole window), errors
(``error`` frames, unexpected closes, failed HTTP calls; engine rejections of racing actions are counted
apart), the server's CPU (from ``/proc/<pid>/stat``) and memory (``VmRSS``/``VmHWM`` from
``/proc/<pid>/status``), and the load generator's own CPU. Everything stops by itself after
``--duration`` seconds. ``MINDTABLE_BENCH_SERVER="path/to/wrapper.py"`` runs the server through another
script (e.g. a profiler) instead of ``-m mindtable.server``.

Every player of the benchmark connects from 127.0.0.1, one address doing the work of a thousand players, so
the server is started with that address's per-address limits raised (:data:`ONE_ADDRESS_IS_MANY`, passed as
``--limit NAME=VALUE``; the per-connection limits stay at their defaults). ``--limit NAME=VALUE`` on this
script adds or overrides limits, e.g. ``--limit ws_connections_per_address=32`` to see the defaults refuse.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import websockets

import mindtable
from mindtable.core import Observation
from mindtable.server.protocol import fill_same

CLK_TCK = os.sysconf("SC_CLK_TCK")

#: Per-address limits raised for a benchmark whose every player comes from 127.0.0.1 (see docs/server.md).
ONE_ADDRESS_IS_MANY = {
    "rooms_per_address": 100_000,
    "room_creates_burst": 100_000,
    "rest_burst": 100_000,
    "rest_per_address_per_s": 100_000,
    "room_misses_burst": 100_000,
    "ws_connections_per_address": 100_000,
    "ws_connects_burst": 100_000,
    "ws_connects_per_address_per_s": 100_000,
    "ws_messages_burst": 100_000,
    "ws_messages_per_address_per_s": 100_000,
    "unfinished_requests_per_address": 100_000,
    "rooms_per_network": 100_000,
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime


def machine_busy() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs together, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def memory_kb(pid: int) -> dict[str, int]:
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0])
    return found


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Bench:
    def __init__(self, args: argparse.Namespace, base: str) -> None:
        self.args = args
        self.http_base = base
        self.ws_base = base.replace("http://", "ws://")
        self.games = [mindtable.get_game(name) for name in args.games.split(",")]
        self.stop_at = 0.0
        self.new_state: dict[str, list[float]] = {}
        self.memory_samples: list[float] = []
        #: seconds after the measuring began of each memory sample
        self.memory_times: list[float] = []
        self.measuring = False
        self.sent: dict[tuple[str, str], tuple[float, int]] = {}
        self.steps: dict[tuple[str, int], tuple[float, int]] = {}
        self.received: list[tuple[str, int, int, float]] = []
        self.round_trips: list[float] = []
        #: game -> [state frames received while measuring, their bytes]
        self.state_bytes: dict[str, list[int]] = {}
        self.errors: Counter[str] = Counter()
        self.rejections: Counter[str] = Counter()
        self.actions = 0
        self.games_over = 0
        self.connected = 0
        self.http: httpx.AsyncClient | None = None

    async def post(self, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> dict[str, Any]:
        assert self.http is not None
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for attempt in range(3):
            try:
                response = await self.http.post(path, json=body or {}, headers=headers)
                if response.status_code in (200, 201):
                    return dict(response.json())
                self.errors[f"http_{response.status_code}"] += 1
            except httpx.HTTPError as exc:
                self.errors[f"http_{type(exc).__name__}"] += 1
            await asyncio.sleep(0.2 * (attempt + 1))
        raise RuntimeError(f"POST {path} failed")


class Seat:
    """One player: a WebSocket and a client-side bot with the bot's own timing."""

    def __init__(self, bench: Bench, game: Any, code: str, seat: int, token: str) -> None:
        self.bench = bench
        self.game = game
        self.code = code
        self.seat = seat
        self.token = token
        seed = hash((code, seat)) & 0xFFFF
        if game.id == "the-mind":
            self.bot = game.make_bot("proportional", seat=seat, seed=seed, tempo_ms=bench.args.tempo_ms)
        else:
            self.bot = game.make_bot(next(iter(game.bots)), seat=seat, seed=seed)
        #: turn-based games: a person reads the new state before acting
        self.think_ms = 0.0 if game.realtime else bench.args.think_ms
        self.sent_at: dict[int, float] = {}
        self.ws: Any = None
        self.timer: asyncio.TimerHandle | None = None
        self.count = 0
        #: An action is in flight: wait for its answer before planning the next one (as a careful client does).
        self.pending = False
        self.wait_step = 0
        self.latest: dict[str, Any] | None = None

    async def run(self) -> None:
        bench = self.bench
        while time.monotonic() < bench.stop_at:
            try:
                over = await self._play_room()
            except (TimeoutError, websockets.ConnectionClosed, OSError) as exc:
                if time.monotonic() < bench.stop_at:
                    bench.errors[f"ws_{type(exc).__name__}"] += 1
                return
            if not over or time.monotonic() >= bench.stop_at:
                return
            try:
                again = await bench.post(f"/api/rooms/{self.code}/rematch", token=self.token)
            except RuntimeError:
                return
            if again.get("token") is None:
                bench.errors["rematch_without_seat"] += 1
                return
            self.code, self.seat, self.token = again["code"], again["seat"], again["token"]

    async def _play_room(self) -> bool:
        bench = self.bench
        url = f"{bench.ws_base}/ws/{self.code}"
        self.pending, self.wait_step, self.latest = False, 0, None
        async with websockets.connect(url, max_size=2**20, open_timeout=30, ping_interval=None) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "last_seq": 0, "token": self.token}))
            bench.connected += 1
            try:
                while True:
                    remaining = bench.stop_at - time.monotonic()
                    if remaining <= 0:
                        return False
                    try:
                        text = await asyncio.wait_for(ws.recv(), remaining)
                    except TimeoutError:
                        return False
                    now = time.perf_counter()
                    frame = json.loads(text)
                    kind = frame["kind"]
                    if kind == "events":
                        if bench.measuring:
                            bench.received.append((self.code, frame["step"], self.seat, now))
                    elif kind == "state":
                        if bench.measuring:
                            counted = bench.state_bytes.setdefault(self.game.id, [0, 0])
                            counted[0] += 1
                            counted[1] += len(text)
                        # a steady part the stream sent last time (a board, a history) comes as "same"
                        fill_same(frame, self.latest["view"] if self.latest is not None else None)
                        self.latest = frame
                        mine = self.sent_at.pop(frame["step"], None)
                        if mine is not None and bench.measuring:
                            bench.new_state.setdefault(self.game.id, []).append(now - mine)
                        self._plan(frame)
                    elif kind == "accepted":
                        # Plan again once the state of this step arrives (it follows the acknowledgement).
                        self.wait_step = frame["step"]
                        self.pending = False
                        sent = bench.sent.pop((self.code, frame["id"]), None)
                        if sent is not None:
                            bench.steps[(self.code, frame["step"])] = (sent[0], self.seat)
                            self.sent_at[frame["step"]] = sent[0]
                            if len(self.sent_at) > 64:
                                self.sent_at.pop(next(iter(self.sent_at)))
                            if bench.measuring:
                                bench.round_trips.append(now - sent[0])
                                bench.actions += 1
                    elif kind == "rejected":
                        self._answered()
                        bench.sent.pop((self.code, frame["id"]), None)
                        bench.rejections[frame["code"]] += 1
                    elif kind == "error":
                        bench.errors[f"error_{frame['code']}"] += 1
                    elif kind == "over":
                        if self.seat == 0:
                            bench.games_over += 1
                        self._cancel()
                        return True
            finally:
                self._cancel()
                bench.connected -= 1

    def _cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _answered(self) -> None:
        self.pending = False
        if self.latest is not None:
            self._plan(self.latest)

    def _plan(self, state: dict[str, Any]) -> None:
        self._cancel()
        if self.pending or state["step"] < self.wait_step:
            return
        if state["status"] != "playing" or not state["legal"]:
            return
        observation = Observation(seat=self.seat, view=state["view"], legal_actions=state["legal"], now=state["clock"])
        decision = self.bot.decide(observation)
        if decision is None:
            return
        delay = 0 if decision.at is None else max(decision.at - state["clock"], 0)
        delay = max(delay, self.think_ms)
        action = decision.action
        self.timer = asyncio.get_running_loop().call_later(
            delay / 1000, lambda: asyncio.ensure_future(self._send(action))
        )

    async def _send(self, action: dict[str, Any]) -> None:
        self.timer = None
        self.pending = True
        self.count += 1
        ident = f"{self.seat}.{self.count}"
        self.bench.sent[(self.code, ident)] = (time.perf_counter(), self.seat)
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(json.dumps({"type": "action", "id": ident, "action": action}))


async def setup(bench: Bench) -> list[Seat]:
    args = bench.args
    seats: list[Seat] = []
    semaphore = asyncio.Semaphore(32)

    async def room(game: Any) -> None:
        players = max(game.min_players, min(args.players, game.max_players))
        async with semaphore:
            created = await bench.post(
                "/api/rooms",
                {"game": game.id, "players": players, "name": "P0", "public": False, "grace_s": 600},
            )
            seats.append(Seat(bench, game, created["code"], 0, created["token"]))
            for index in range(1, players):
                joined = await bench.post(f"/api/rooms/{created['code']}/join", {"name": f"P{index}"})
                seats.append(Seat(bench, game, created["code"], joined["seat"], joined["token"]))

    await asyncio.gather(*(room(bench.games[i % len(bench.games)]) for i in range(args.rooms)))
    return seats


def growth_per_minute(
    times: list[float], values: list[float], start_s: float = 60.0, end_s: float = 240.0
) -> dict[str, Any]:
    """The least-squares slope of the memory samples taken from ``start_s`` to ``end_s`` of the measuring (minutes 2
    to 4), in MB per minute: 0 when memory is flat once the rooms play; ``None`` with fewer than 3 samples there."""
    points = [(t, v) for t, v in zip(times, values, strict=True) if start_s - 1 <= t <= end_s + 1]
    window = [round(points[0][0]), round(points[-1][0])] if points else None
    if len(points) < 3:
        return {"memory_mb_growth_per_min_2_to_4": None, "memory_growth_window_s": window}
    mean_t = statistics.fmean(t for t, _ in points)
    mean_v = statistics.fmean(v for _, v in points)
    slope = sum((t - mean_t) * (v - mean_v) for t, v in points) / sum((t - mean_t) ** 2 for t, _ in points)
    return {"memory_mb_growth_per_min_2_to_4": round(slope * 60, 2), "memory_growth_window_s": window}


def total_cpu(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


def total_memory_kb(pids: list[int]) -> dict[str, int]:
    """``VmRSS``/``VmHWM`` (and the rest) of the server processes, added up."""
    summed: Counter[str] = Counter()
    for pid in pids:
        summed.update(memory_kb(pid))
    return dict(summed)


async def run(args: argparse.Namespace, base: str, pids: list[int]) -> dict[str, Any]:
    bench = Bench(args, base)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=64)) as http:
        bench.http = http
        started = time.monotonic()
        idle_kb = total_memory_kb(pids).get("VmRSS", 0)  # the server before any room
        seats = await setup(bench)
        bench.stop_at = time.monotonic() + args.duration + args.warmup + 60
        tasks = [asyncio.ensure_future(seat.run()) for seat in seats]
        while bench.connected < len(seats) and time.monotonic() - started < 120:
            await asyncio.sleep(0.1)
        connect_s = time.monotonic() - started
        await asyncio.sleep(args.warmup)
        bench.measuring = True
        server_cpu0, client_cpu0, t0 = total_cpu(pids), time.process_time(), time.monotonic()
        per_process0 = [cpu_seconds(pid) for pid in pids]
        machine0 = machine_busy()
        peak_connected = bench.connected
        end = t0 + args.duration
        next_sample = t0
        while time.monotonic() < end:
            await asyncio.sleep(0.5)
            peak_connected = max(peak_connected, bench.connected)
            if time.monotonic() >= next_sample:
                bench.memory_samples.append(total_memory_kb(pids).get("VmRSS", 0) / 1024)
                bench.memory_times.append(time.monotonic() - t0)
                next_sample += 10
        elapsed = time.monotonic() - t0
        server_cpu = total_cpu(pids) - server_cpu0
        per_process = [cpu_seconds(pid) - before for pid, before in zip(pids, per_process0, strict=True)]
        client_cpu = time.process_time() - client_cpu0
        machine = machine_busy()
        machine_cpu = (machine[0] - machine0[0]) / max(machine[1] - machine0[1], 1)
        memory = total_memory_kb(pids)
        bench.measuring = False
        bench.stop_at = time.monotonic()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    latencies = []
    buckets: dict[int, list[float]] = {}
    first = min((received for _, _, _, received in bench.received), default=0.0)
    for code, step, seat, received in bench.received:
        sent = bench.steps.get((code, step))
        if sent is not None and sent[1] != seat:
            latencies.append((received - sent[0]) * 1000)
            buckets.setdefault(int((received - first) // 10), []).append(latencies[-1])
    rtts = [value * 1000 for value in bench.round_trips]
    states = {game: [v * 1000 for v in values] for game, values in bench.new_state.items()}
    every_state = [v for values in states.values() for v in values]
    return {
        "players": len(seats),
        "rooms": args.rooms,
        "connected_at_start": peak_connected,
        "setup_s": round(connect_s, 1),
        "measured_s": round(elapsed, 1),
        "actions": bench.actions,
        "actions_per_s": round(bench.actions / elapsed, 1),
        "deliveries": len(latencies),
        "latency_ms": {
            "p50": round(percentile(latencies, 0.50), 2),
            "p99": round(percentile(latencies, 0.99), 2),
            "max": round(max(latencies, default=float("nan")), 2),
            "mean": round(statistics.fmean(latencies), 2) if latencies else None,
        },
        "p99_ms_per_10s": [round(percentile(buckets[key], 0.99), 1) for key in sorted(buckets)],
        "accepted_round_trip_ms": {"p50": round(percentile(rtts, 0.5), 2), "p99": round(percentile(rtts, 0.99), 2)},
        "new_state_ms": {
            "p50": round(percentile(every_state, 0.5), 2),
            "p99": round(percentile(every_state, 0.99), 2),
            **{
                game: {"p50": round(percentile(v, 0.5), 1), "p99": round(percentile(v, 0.99), 1), "n": len(v)}
                for game, v in states.items()
            },
        },
        "state_frame_bytes_mean": {game: round(b / max(n, 1)) for game, (n, b) in sorted(bench.state_bytes.items())},
        "memory_mb_per_10s": [round(v, 1) for v in bench.memory_samples],
        "memory_kb_per_player": round(memory.get("VmRSS", 0) / max(len(seats), 1), 1),
        "memory_kb_per_player_above_idle": round((memory.get("VmRSS", 0) - idle_kb) / max(len(seats), 1), 1),
        "server_idle_mb": round(idle_kb / 1024, 1),
        **growth_per_minute(bench.memory_times, bench.memory_samples),
        "games_finished": bench.games_over,
        "errors": dict(bench.errors),
        "rejections": dict(bench.rejections),
        "processes": len(pids),
        "server_cpu_percent": round(100 * server_cpu / elapsed, 1),
        "server_cpu_percent_per_process": [round(100 * cpu / elapsed, 1) for cpu in per_process],
        "server_memory_mb": {k: round(v / 1024, 1) for k, v in memory.items()},
        "load_generator_cpu_percent": round(100 * client_cpu / elapsed, 1),
        "machine": {
            "cpus": os.cpu_count(),
            "busy_percent_all_cpus": round(100 * machine_cpu, 1),
            "loadavg_1min_at_end": float(Path("/proc/loadavg").read_text().split()[0]),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--players", type=int, default=4, help="players per room (2 to 4)")
    parser.add_argument("--duration", type=float, default=180.0, help="measured seconds")
    parser.add_argument(
        "--games",
        default="the-mind,neurorace,carrera-de-mente,caida-libre,eesti-malumang",
        help="comma-separated game ids; rooms take them in turn",
    )
    parser.add_argument("--think-ms", type=float, default=1500.0, help="turn-based games: ms a player reads first")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play before measuring")
    parser.add_argument("--tempo-ms", type=float, default=250.0, help="the client bots' ms per step of card gap")
    parser.add_argument(
        "--db",
        default=None,
        help="database URL (default: a fresh SQLite file in a temp folder; 'postgres', and the default with "
        "--processes > 1: a fresh schema in MINDTABLE_BENCH_PG, postgresql://postgres@127.0.0.1:5432/test)",
    )
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="scheduling priority change for the server and this load generator (negative needs root): "
        "on a machine shared with other jobs, e.g. -10 gives them their CPU share promptly",
    )
    parser.add_argument("--show-log", action="store_true", help="print the server's log at the end")
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a server limit on top of the raised per-address ones (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON only")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes (more than 1: they share one port with SO_REUSEPORT, a PostgreSQL database "
        "and Redis; see docs/server.md, 'More than one process')",
    )
    parser.add_argument(
        "--redis",
        default=None,
        help="the Redis URL of the processes (default with --processes > 1: redis://127.0.0.1:6379/0 with a "
        "prefix of its own); given with --processes 1, one process runs as one of a deployment",
    )
    args = parser.parse_args()
    if args.processes > 1 or args.db == "postgres" or args.redis:
        with contextlib.ExitStack() as stack:
            if args.db in (None, "postgres"):
                args.db = stack.enter_context(fresh_postgres_schema())
            if args.processes > 1 and not args.redis:
                args.redis = f"redis://127.0.0.1:6379/0?prefix=mindtable-bench-{os.getpid()}:"
            bench_main(args)
        return
    bench_main(args)


@contextlib.contextmanager
def fresh_postgres_schema() -> Any:
    """A schema of its own in ``MINDTABLE_BENCH_PG`` (default: the local ``test`` database), dropped after."""
    import secrets

    import sqlalchemy as sa

    url = os.environ.get("MINDTABLE_BENCH_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
    engine = sa.create_engine(url)
    schema = f"mt_bench_{secrets.token_hex(4)}"
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{url}?options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


def bench_main(args: argparse.Namespace) -> None:

    if args.nice:
        os.setpriority(os.PRIO_PROCESS, 0, os.getpriority(os.PRIO_PROCESS, 0) + args.nice)
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="mindtable-bench-") as folder:
        db = args.db or str(Path(folder) / "bench.sqlite3")
        log = open(Path(folder) / "server.log", "wb")  # noqa: SIM115
        shared = ["--redis", args.redis, "--reuse-port"] if args.redis else []
        servers = []
        for _ in range(args.processes):
            servers.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        *os.environ.get("MINDTABLE_BENCH_SERVER", "-m mindtable.server").split(),
                        "--host",
                        "127.0.0.1",
                        "--port",
                        str(port),
                        "--db",
                        db,
                        "--log-level",
                        "warning",
                        *[f"--limit={name}={value}" for name, value in ONE_ADDRESS_IS_MANY.items()],
                        *[f"--limit={pair}" for pair in args.limit],
                        *shared,
                    ],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    cwd=folder,
                )
            )
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 90  # a loaded machine, a profiling wrapper: a slow start
            while True:
                try:
                    if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or any(s.poll() is not None for s in servers):
                    raise SystemExit("the server did not start")
                time.sleep(0.1)
            time.sleep(2 if args.processes > 1 else 0)  # every process listening
            try:
                import uvloop

                runner: Any = uvloop.run
            except ImportError:
                runner = asyncio.run
            report = runner(run(args, base, [s.pid for s in servers]))
        finally:
            for each in servers:
                each.send_signal(signal.SIGTERM)
            for each in servers:
                try:
                    each.wait(15)
                except subprocess.TimeoutExpired:
                    each.kill()
            log.close()
            server_log = (Path(folder) / "server.log").read_text(errors="replace")
        report["server_tracebacks"] = server_log.count("Traceback")
        if args.show_log:
            print(server_log)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"mindtable server load: {report['players']} players in {report['rooms']} rooms of {args.games}, "
        f"{report['measured_s']} s measured (setup {report['setup_s']} s)"
    )
    for key, value in report.items():
        print(f"  {key}: {value}")


if __name__ == "__main__":
    main()
