"""How long an SQLite commit of a few action rows takes (WAL, ``synchronous=NORMAL``, as the server's storage),
with SQLite's automatic checkpoint inside the commits, and with the checkpoint moved to another connection.

    .venv/bin/python benchmarks/sqlite_commits.py [--commits 6000] [--gap-ms 2] [--folder /tmp]

``auto``: SQLite's default — the commit that takes the log past 1,000 pages copies it into the database file
and ``fsync``\\ s it, and that commit (so every action waiting for it) waits as long. ``background``: automatic
checkpoints off; a thread with its own connection runs ``PRAGMA wal_checkpoint(PASSIVE)`` every 0.5 s, and once
the log passes ``--restart-frames`` frames the writer finishes the checkpoint itself after a commit (a
checkpoint beside a busy writer never finds the whole log copied, so the log would never restart). Reports
the commits' p50 / p99 / p99.9 / longest (the writer's finishing checkpoint counted in its commit), how many
took over 5 ms, and the log's size at the end (docs/benchmarks/server.md, "The database").
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import threading
import time

ROW = '{"type":"answer","seat":1,"at":123456,"text":"' + "x" * 120 + '"}'


def run(mode: str, commits: int, gap_s: float, folder: str | None, restart_frames: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(dir=folder) as where:
        path = os.path.join(where, "commits.sqlite3")
        writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("PRAGMA synchronous=NORMAL")
        writer.execute("CREATE TABLE actions (room_id INTEGER, idx INTEGER, action TEXT, PRIMARY KEY (room_id, idx))")
        stop = threading.Event()
        finish = threading.Event()
        background: list[float] = []
        thread = None
        if mode == "background":
            writer.execute("PRAGMA wal_autocheckpoint=0")

            def checkpoints() -> None:
                other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
                while not stop.wait(0.5):
                    started = time.perf_counter()
                    _busy, log, _done = other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()[0]
                    background.append(time.perf_counter() - started)
                    if log > restart_frames:
                        finish.set()
                other.close()

            thread = threading.Thread(target=checkpoints, daemon=True)
            thread.start()
        times = []
        for n in range(commits):
            started = time.perf_counter()
            writer.execute("BEGIN")
            writer.executemany("INSERT INTO actions VALUES (?, ?, ?)", [(n % 250, 2 * n + k, ROW) for k in range(2)])
            writer.execute("COMMIT")
            if finish.is_set():
                finish.clear()
                writer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            times.append(time.perf_counter() - started)
            time.sleep(gap_s)
        stop.set()
        if thread is not None:
            thread.join()
        log_mb = os.path.getsize(path + "-wal") / 1e6
        writer.close()
    times.sort()

    def at(q: float) -> float:
        return round(times[min(len(times) - 1, int(q * len(times)))] * 1000, 2)

    return {
        "p50_ms": at(0.5),
        "p99_ms": at(0.99),
        "p999_ms": at(0.999),
        "max_ms": round(times[-1] * 1000, 1),
        "over_5ms": sum(t > 0.005 for t in times),
        "log_mb": round(log_mb, 1),
        "background_checkpoint_max_ms": round(max(background, default=0.0) * 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=6000)
    parser.add_argument("--gap-ms", type=float, default=2.0)
    parser.add_argument("--folder", default=None, help="where the database is made (the disk measured)")
    parser.add_argument("--restart-frames", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    for _ in range(args.rounds):
        for mode in ("auto", "background"):
            print(mode, run(mode, args.commits, args.gap_ms / 1000, args.folder, args.restart_frames))


if __name__ == "__main__":
    main()
