"""Where the server's memory goes under load: run the server with ``tracemalloc`` on, take snapshots at given
seconds after it starts, count its rooms every 10 s, and write what grew between the snapshots when it stops.

    MINDTABLE_BENCH_SERVER="$PWD/benchmarks/memory_trace.py" MINDTABLE_TRACE_OUT=/tmp/memory.txt \\
        .venv/bin/python benchmarks/server_load.py --rooms 50 --duration 200

``MINDTABLE_TRACE_AT`` (``60,180``): the seconds after start of the snapshots; the report compares the first
with the last, by file and line (``MINDTABLE_TRACE_FRAMES`` frames of each allocation kept, 1 by default:
tracemalloc slows every allocation, the more frames the more). It is written at the last snapshot (comparing
takes a while, longer than a stopping server is given) and again every 10 s after. Every 10 s a line says how
many rooms the server holds (by status), how many of them someone is connected to and how many bytes its
streams keep for reconnecting clients (``ResumeBudget.used``). The snapshots themselves take memory: the
server's RSS in such a run is no figure. ``MINDTABLE_TRACE_OUT`` is relative to the server's folder unless
absolute.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import traceback
import tracemalloc
from collections import Counter
from typing import Any

AT = [float(v) for v in os.environ.get("MINDTABLE_TRACE_AT", "60,180").split(",") if v.strip()]
FRAMES = int(os.environ.get("MINDTABLE_TRACE_FRAMES", "1"))
OUT = os.environ.get("MINDTABLE_TRACE_OUT", "memory_trace.txt")
TOP = 30

_managers: list[Any] = []
_snapshots: list[tuple[float, tracemalloc.Snapshot]] = []
_counts: list[str] = []
_done: list[bool] = []
_diff: list[str] = []
_started = time.monotonic()


def _census() -> str:
    rooms: dict[str, Any] = {}
    used = 0
    for manager in _managers:
        rooms.update(manager.rooms)
        used += manager.resume_budget.used
    by_status = Counter(room.status for room in rooms.values())
    attached = sum(1 for room in rooms.values() if room.spectators.conns or any(s.conns for s in room.seats))
    current, peak = tracemalloc.get_traced_memory()
    return (
        f"t={time.monotonic() - _started:6.1f}s rooms={len(rooms)} {dict(sorted(by_status.items()))} "
        f"attached={attached} resume_bytes={used} traced={current / 2**20:.1f}MB peak={peak / 2**20:.1f}MB"
    )


def _watch() -> None:
    try:
        _watching()
    except BaseException:  # said where it is read, not lost in the server's log
        with open(OUT, "a", encoding="utf-8") as out:
            out.write("the memory watcher failed:\n" + traceback.format_exc())
        raise


def _watching() -> None:
    pending = sorted(AT)
    next_count = 10.0
    while True:
        time.sleep(0.5)
        elapsed = time.monotonic() - _started
        counted = elapsed >= next_count
        if counted:
            _counts.append(_census())
            next_count = elapsed + 10
        if pending and elapsed >= pending[0]:
            pending.pop(0)
            _snapshots.append((elapsed, tracemalloc.take_snapshot()))
            if not pending:
                _report()  # now, not at the end: comparing takes a while, and a stopping server is given 15 s
                del _snapshots[:-1]  # a snapshot holds every trace: let the others go
                _done.append(True)
        elif _done and counted:
            _report()


def _report() -> None:
    lines = ["rooms held every 10 s:", *(f"  {line}" for line in _counts)]
    if len(_snapshots) >= 2 and not _diff:
        (t0, first), (t1, last) = _snapshots[0], _snapshots[-1]
        keep = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen *>")]
        first, last = first.filter_traces(keep), last.filter_traces(keep)
        diff = last.compare_to(first, "lineno")
        grown = sum(stat.size_diff for stat in diff)
        lines.append(f"\ngrowth {t0:.0f} s -> {t1:.0f} s: {grown / 2**20:+.1f} MB traced; top {TOP} by size_diff:")
        for stat in diff[:TOP]:
            frame = stat.traceback[0]
            where = f"{frame.filename.rsplit('/site-packages/', 1)[-1]}:{frame.lineno}"
            grew = f"{stat.size_diff / 1024:+9.0f} KiB ({stat.count_diff:+7d} blocks)"
            lines.append(f"  {grew} now {stat.size / 1024:8.0f} KiB  {where}")
        lines.append(f"\nlargest at {t1:.0f} s:")
        for held in last.statistics("lineno")[:TOP]:
            frame = held.traceback[0]
            where = f"{frame.filename.rsplit('/site-packages/', 1)[-1]}:{frame.lineno}"
            lines.append(f"  {held.size / 1024:9.0f} KiB ({held.count:7d} blocks)  {where}")
        _diff.extend(lines[len(_counts) + 1 :])
    else:
        lines.extend(_diff)
    with open(OUT, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def _install() -> None:
    import uvicorn

    from mindtable.server.manager import RoomManager

    made = RoomManager.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        _managers.append(self)

    RoomManager.__init__ = init  # type: ignore[method-assign]
    original = uvicorn.Server._serve

    async def serve(self: Any, sockets: Any = None) -> None:
        threading.Thread(target=_watch, daemon=True, name="memory-watch").start()
        try:
            await original(self, sockets)
        finally:
            _report()  # here, not at exit: uvicorn raises the stopping signal again once it has shut down

    uvicorn.Server._serve = serve  # type: ignore[method-assign]


if __name__ == "__main__":
    _install()
    from mindtable.server.__main__ import main

    tracemalloc.start(FRAMES)  # after the imports: they are no growth, and tracing them slows the start a lot
    main(sys.argv[1:])
