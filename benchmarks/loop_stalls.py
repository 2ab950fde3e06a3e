"""Where the server's event loop stalls: run the server with a watchdog that samples the loop thread's stack
whenever the loop has not ticked for a while, and write what it saw when the server stops.

    MINDTABLE_BENCH_SERVER="$PWD/benchmarks/loop_stalls.py" MINDTABLE_STALLS_OUT=/tmp/stalls.txt \\
        .venv/bin/python benchmarks/server_load.py --rooms 250 --duration 60

The loop schedules a heartbeat every ``MINDTABLE_STALLS_TICK_MS`` (2 ms); a thread looks every millisecond,
and once the last heartbeat is older than ``MINDTABLE_STALLS_MS`` (20 ms) it samples the loop thread's stack
(``sys._current_frames``) each millisecond until the loop ticks again (from ``MINDTABLE_STALLS_SKIP_S`` seconds
after the start on, to leave out the set-up). The report lists how many stalls there
were by length, and the functions and whole stacks (the project's own frames, innermost last) that the samples
found most often, each with the share of stalled time — the code that held the loop while players waited.
Sampling takes the GIL, so a stall inside C code that keeps it is seen at its end (its caller's frame).
"""

from __future__ import annotations

import collections
import os
import sys
import threading
import time
from types import FrameType
from typing import Any

TICK_S = float(os.environ.get("MINDTABLE_STALLS_TICK_MS", "2")) / 1000
STALL_S = float(os.environ.get("MINDTABLE_STALLS_MS", "20")) / 1000
SKIP_S = float(os.environ.get("MINDTABLE_STALLS_SKIP_S", "0"))  # seconds after start not watched (set-up)
OUT = os.environ.get("MINDTABLE_STALLS_OUT", "loop_stalls.txt")  # relative to the server's folder

_last_beat = [time.perf_counter()]
_loop_thread: list[int] = []
_samples: collections.Counter[tuple[str, ...]] = collections.Counter()
_leaves: collections.Counter[str] = collections.Counter()
_stalls: list[float] = []


def _frame_names(frame: FrameType | None) -> tuple[str, ...]:
    names: list[str] = []
    while frame is not None:
        code = frame.f_code
        names.append(f"{code.co_filename.rsplit('/site-packages/', 1)[-1]}:{code.co_name}:{frame.f_lineno}")
        frame = frame.f_back
    return tuple(reversed(names))


def _own(names: tuple[str, ...]) -> tuple[str, ...]:
    mine = tuple(n for n in names if "mindtable/" in n and "benchmarks/" not in n)
    return mine or names[-3:]


def _watch() -> None:
    time.sleep(SKIP_S)
    in_stall_since: float | None = None
    while True:
        time.sleep(0.001)
        now = time.perf_counter()
        late = now - _last_beat[0]
        if late > STALL_S and _loop_thread:
            if in_stall_since is None:
                in_stall_since = _last_beat[0]
            frame = sys._current_frames().get(_loop_thread[0])
            names = _frame_names(frame)
            _samples[_own(names)[-6:]] += 1
            if names:
                _leaves[names[-1]] += 1
        elif in_stall_since is not None:
            _stalls.append(_last_beat[0] - in_stall_since)
            in_stall_since = None


def _report() -> None:
    total = sum(_samples.values()) or 1
    lines = [f"stalls over {STALL_S * 1000:.0f} ms: {len(_stalls)}"]
    for low, high in ((0.02, 0.05), (0.05, 0.1), (0.1, 0.2), (0.2, 0.5), (0.5, 1e9)):
        n = sum(1 for s in _stalls if low <= s < high)
        lines.append(f"  {low * 1000:.0f}-{high * 1000:.0f} ms: {n}")
    lines.append(f"samples (1 ms each) in stalls: {total}")
    lines.append("\ninnermost frames:")
    for name, n in _leaves.most_common(25):
        lines.append(f"  {100 * n / total:5.1f}%  {name}")
    lines.append("\nstacks (the project's frames, innermost last):")
    for names, n in _samples.most_common(25):
        lines.append(f"  {100 * n / total:5.1f}%  " + "\n          ".join(names))
    with open(OUT, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def _install() -> None:
    import asyncio

    import uvicorn

    original = uvicorn.Server._serve

    async def serve(self: Any, sockets: Any = None) -> None:
        _loop_thread.append(threading.get_ident())
        loop = asyncio.get_running_loop()

        def beat() -> None:
            _last_beat[0] = time.perf_counter()
            loop.call_later(TICK_S, beat)

        beat()
        threading.Thread(target=_watch, daemon=True, name="stall-watch").start()
        try:
            await original(self, sockets)
        finally:
            _report()  # here, not at exit: uvicorn raises the stopping signal again once it has shut down

    uvicorn.Server._serve = serve  # type: ignore[method-assign]


if __name__ == "__main__":
    _install()
    from mindtable.server.__main__ import main

    main(sys.argv[1:])
