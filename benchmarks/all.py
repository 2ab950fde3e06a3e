"""Every speed target side by side, from one command.

    .venv/bin/python benchmarks/all.py                      # 3 interleaved rounds, prints the table
    .venv/bin/python benchmarks/all.py --write-docs         # ... and puts it into docs/benchmarks.md
    .venv/bin/python benchmarks/all.py --setup-openspiel    # first create OpenSpiel's own venv (once)
    .venv/bin/python benchmarks/all.py --rounds 1 --scale 0.3 --skip banks,judge   # a quick look

Each measure (``benchmarks/measures.py``) runs in its own process on a fixed workload and reports CPU time
(``time.process_time``, the least of three runs of the workload), so other jobs on the machine disturb it less.
Rounds are interleaved: round 1 runs every measure once, then round 2, and so on; a ratio is the median over rounds
of the ratio measured within one round.

* ``engine`` — The Mind through the public API (``new_match``, ``legal_actions``, ``apply``): a random seat takes
  its first legal action; ``bare`` — the same game and player as one plain Python loop; ``openspiel`` — OpenSpiel's
  ``python_kuhn_poker`` (a game implemented in Python), random actions, every ``apply_action`` counted.
* ``bots`` — The Mind, 2 proportional bots through ``core.driver.play_out``; ``neurorace`` — BASIC races to
  level 10, 2 solver bots; ``vector`` — the vectorised The Mind (``simulate_batch``).
* ``banks`` — load 10,000 and 100,000 generated questions; ``judge`` — ordinary judgements per second and the worst
  4 KiB answer; ``quiz`` — each quiz game's bot games per second (a hook: the quiz games are not written yet).

``--baseline REV`` (default: the commit before the speed work) also runs ``engine``, ``bots``, ``neurorace`` and
``vector`` on that version of ``mindtable`` (``git archive REV mindtable`` first on ``PYTHONPATH``), interleaved
with the current code, and reports the speed-up as "× before".

OpenSpiel is never a dependency of mindtable: ``--setup-openspiel`` installs the ``open_spiel`` wheel from PyPI into
``benchmarks/.venv-openspiel`` (ignored by git); without it the OpenSpiel column says so.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OPENSPIEL_VENV = HERE / ".venv-openspiel"
#: The code before the speed work (the move table had landed).
DEFAULT_BASELINE = "4cfddfb"
COMPARED = ("engine", "bots", "neurorace", "vector")
ORDER = ("engine", "rules", "bare", "openspiel", "bots", "neurorace", "vector", "banks", "judge", "quiz")
ONCE = ("banks", "judge", "quiz")
BEGIN, END = "<!-- benchmarks/all.py: begin -->", "<!-- benchmarks/all.py: end -->"


def openspiel_python() -> Path | None:
    python = OPENSPIEL_VENV / "bin" / "python"
    return python if python.exists() else None


def setup_openspiel() -> None:
    print(f"creating {OPENSPIEL_VENV} and installing open_spiel from PyPI ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", str(OPENSPIEL_VENV)], check=True)
    subprocess.run([str(OPENSPIEL_VENV / "bin" / "pip"), "install", "-q", "open_spiel"], check=True)


def extract_baseline(rev: str, into: Path) -> Path:
    """``mindtable`` as it was at ``rev``, unpacked under ``into`` (its parent goes first on PYTHONPATH)."""
    data = subprocess.run(["git", "archive", rev, "mindtable"], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as archive:
        archive.extractall(into, filter="data")
    return into


def run_measure(name: str, scale: float, code: Path | None) -> dict[str, Any]:
    env = dict(os.environ)
    python: Path | str = sys.executable
    if name == "openspiel":
        found = openspiel_python()
        if found is None:
            return {"error": "OpenSpiel not installed: run benchmarks/all.py --setup-openspiel"}
        python = found
        env.pop("PYTHONPATH", None)
    elif code is not None:
        env["PYTHONPATH"] = str(code) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [str(python), str(HERE / "measures.py"), name, "--scale", str(scale)],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"}
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if code is not None and name != "openspiel" and Path(figures["code"]) != code.resolve():
        raise SystemExit(f"the baseline run imported mindtable from {figures['code']}, not {code}")
    return figures


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kb / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{os.cpu_count()} cores ({model}){memory}, {platform.system()}, Python {platform.python_version()}"


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def collect(rounds: int, scale: float, names: list[str], baseline: Path | None) -> dict[str, Any]:
    runs: dict[str, list[dict[str, Any]]] = {}
    for index in range(rounds):
        for name in names:
            if name in ONCE and index > 0:
                continue
            for variant, code in (("now", None), ("before", baseline)):
                if variant == "before" and (code is None or name not in COMPARED):
                    continue
                started = time.perf_counter()
                figures = run_measure(name, scale, code)
                key = name if variant == "now" else f"{name}@before"
                runs.setdefault(key, []).append(figures)
                shown = figures.get("error") or f"{figures.get('rate', 0):,.1f} {figures.get('unit', '')}/s"
                print(f"  round {index + 1} {key:<18} {shown}  ({time.perf_counter() - started:.1f} s)", flush=True)
    return runs


def ratio(runs: dict[str, list[dict[str, Any]]], top: str, bottom: str, field: str = "rate") -> float | None:
    pairs = zip(runs.get(top, []), runs.get(bottom, []), strict=False)
    values = [a[field] / b[field] for a, b in pairs if field in a and field in b and b[field]]
    return median(values)


def rate(runs: dict[str, list[dict[str, Any]]], key: str, field: str = "rate") -> float | None:
    return median([r[field] for r in runs.get(key, []) if field in r])


def fmt(value: float | None, digits: int = 0, suffix: str = "") -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}{suffix}"


def table(runs: dict[str, list[dict[str, Any]]], rounds: int, scale: float, rev: str | None) -> str:
    rows: list[tuple[str, str, str, str]] = []
    before = f"× before ({rev})" if rev else "× before"
    engine, bare = rate(runs, "engine"), rate(runs, "bare")
    spiel = runs.get("openspiel", [{}])[0]
    if "engine" in runs:
        rows.append(
            (
                "The Mind engine, public API (`legal_actions` + `apply`, random seat, first legal action)",
                f"{fmt(engine)} actions/s",
                f"{fmt(ratio(runs, 'engine', 'bare'), 2)}× bare loop; {fmt(ratio(runs, 'engine', 'openspiel'), 2)}× "
                f"OpenSpiel; {fmt(ratio(runs, 'engine', 'engine@before'), 2)}{before}",
                "≥ 0.6× bare, ≥ 1.0× OpenSpiel",
            )
        )
    if "rules" in runs:
        rows.append(
            (
                "the engine measure's games replayed through The Mind's rules alone (`initial_state` and each "
                "move's effect called directly: nothing listed, checked or recorded)",
                f"{fmt(rate(runs, 'rules'))} actions/s",
                f"{fmt(ratio(runs, 'rules', 'bare'), 2)}× bare loop; the engine is "
                f"{fmt(ratio(runs, 'engine', 'rules'), 2)}× its own rules",
                "– (the floor under the engine)",
            )
        )
    if "bare" in runs:
        rows.append(
            ("the same game as a bare Python loop (same player, no checks)", f"{fmt(bare)} actions/s", "1×", "–")
        )
    if "openspiel" in runs:
        if "error" in spiel:
            rows.append(("OpenSpiel `python_kuhn_poker` (random play)", spiel["error"], "–", "–"))
        else:
            rows.append(
                (
                    f"OpenSpiel {spiel.get('version', '')} `python_kuhn_poker` (random play, every `apply_action`)",
                    f"{fmt(rate(runs, 'openspiel'))} actions/s",
                    f"{fmt(rate(runs, 'openspiel', 'player_actions_per_s'))} player actions/s",
                    "–",
                )
            )
    if "vector" in runs:
        plays = rate(runs, "vector", "plays_per_s")
        per_game = median([r["bytes_per_game"] for r in runs["vector"] if "bytes_per_game" in r])
        rows.append(
            (
                "vectorised The Mind (`simulate_batch`, 2 proportional bots, one core)",
                f"{fmt(plays)} card plays/s; {fmt(rate(runs, 'vector'))} games/s",
                f"{fmt(ratio(runs, 'vector', 'vector@before'), 2)}{before}; peak memory "
                f"{fmt(per_game, 0)} bytes per game",
                "≥ 4,000,000 card plays/s",
            )
        )
    if "bots" in runs:
        rows.append(
            (
                "The Mind, 2 proportional bots through `play_out` (virtual clock)",
                f"{fmt(rate(runs, 'bots'))} games/s; {fmt(rate(runs, 'bots', 'actions_per_s'))} actions/s",
                f"{fmt(ratio(runs, 'bots', 'bots@before'), 2)}{before}",
                "≥ 3× before",
            )
        )
    if "neurorace" in runs:
        rows.append(
            (
                "NeuroRace bot races (BASIC to level 10, 2 solver bots)",
                f"{fmt(rate(runs, 'neurorace'), 1)} games/s; {fmt(rate(runs, 'neurorace', 'actions_per_s'))} actions/s",
                f"{fmt(ratio(runs, 'neurorace', 'neurorace@before'), 2)}{before}",
                "≥ 5× before",
            )
        )
    if "banks" in runs:
        b = runs["banks"][0]
        if "error" in b:
            rows.append(("banks", b["error"], "–", "–"))
        else:
            for size in (10_000, 100_000):
                rows.append(
                    (
                        f"load a bank of {size:,} questions ({b[f'{size} MB']:.1f} MB YAML)",
                        f"no cache {b[f'{size} no cache']:.2f} s; first load {b[f'{size} first load']:.2f} s; "
                        f"cached {b[f'{size} cached']:.2f} s",
                        f"{b[f'{size} no cache'] / size * 1e6:.1f} µs per question without cache",
                        "< 1 s" if size == 10_000 else "< 2 s, cache never slower than parsing",
                    )
                )
    if "judge" in runs:
        j = runs["judge"][0]
        if "error" in j:
            rows.append(("judge", j["error"], "–", "–"))
        else:
            rows.append(
                (
                    "judge: ordinary judgements (every given answer a new string)",
                    f"{fmt(j['rate'])} judgements/s",
                    f"worst 4 KiB answer {j['worst_4k_ms']:.2f} ms ({j['worst_4k']})",
                    "≥ 50,000/s; every 4 KiB answer < 5 ms",
                )
            )
    if "quiz" in runs:
        q = runs["quiz"][0]
        for game_id in ("carrera-de-mente", "caida-libre", "eesti-malumang"):
            entry = q.get(game_id, q.get("error", "–"))
            if isinstance(entry, dict):
                shown = f"{entry['games_per_s']:,.1f} bot games/s ({entry['bot']}, {entry['players']} players)"
                note = f"slowest: {entry['slowest']}"
            else:
                shown, note = str(entry), "measured by the hook once the game is written"
            rows.append((f"quiz game `{game_id}`", shown, note, "reported"))
    lines = [
        "| measure | figure | side by side | target |",
        "|---|---|---|---|",
        *(f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows),
    ]
    return "\n".join(lines)


def write_docs(text: str) -> None:
    path = ROOT / "docs" / "benchmarks.md"
    doc = path.read_text(encoding="utf-8")
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"{path} has no {BEGIN} ... {END} section to replace")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    path.write_text(head + BEGIN + "\n" + text + "\n" + END + tail, encoding="utf-8")
    print(f"wrote the table into {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0, help="workload size per measure (1: the documented run)")
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="git revision to compare with ('' for none)")
    parser.add_argument("--skip", default="", help="measures to leave out, comma-separated")
    parser.add_argument("--only", default="", help="measures to run, comma-separated")
    parser.add_argument("--setup-openspiel", action="store_true", help="create benchmarks/.venv-openspiel first")
    parser.add_argument("--write-docs", action="store_true", help="replace the table in docs/benchmarks.md")
    parser.add_argument("--json", type=Path, help="also write every run's figures to this file")
    args = parser.parse_args()
    if args.setup_openspiel:
        setup_openspiel()
    names = [n for n in ORDER if (not args.only or n in args.only.split(",")) and n not in args.skip.split(",")]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "mindtable"], cwd=ROOT, capture_output=True, text=True)
    code = commit.stdout.strip() + (" + uncommitted changes" if dirty.stdout.strip() else "")
    load = os.getloadavg()[0]
    print(f"machine: {machine()}; code: {code}; load average {load:.1f}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        baseline = extract_baseline(args.baseline, Path(tmp)) if args.baseline else None
        started = time.strftime("%Y-%m-%d %H:%M")
        runs = collect(args.rounds, args.scale, names, baseline)
    text = table(runs, args.rounds, args.scale, args.baseline or None)
    note = (
        f"Measured {started} on {machine()}, code {code}; load average {load:.1f} at the start (a shared machine). "
        f"`benchmarks/all.py --rounds {args.rounds} --scale {args.scale:g}`: CPU time, median of {args.rounds} "
        "interleaved rounds; ratios are medians of the ratios within each round."
    )
    print()
    print(note)
    print()
    print(text)
    if args.json:
        args.json.write_text(json.dumps({"note": note, "runs": runs}, indent=1), encoding="utf-8")
    if args.write_docs:
        write_docs(note + "\n\n" + text)


if __name__ == "__main__":
    main()
