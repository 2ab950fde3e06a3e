"""Benchmark: load (parse + validate) a 10,000-question bank file (target: under 1 s) and a 100,000-question one
(target: under 2 s, loading is linear), with a bank cache that is never slower than parsing.

    python benchmarks/trivia_load.py [--questions 10000] [--repeats 5] [--seed 1]
    python benchmarks/trivia_load.py --questions 100000 --repeats 3

The bank is generated in a temporary folder: a mix of every kind (free text with capitals and brackets,
options, true/false, lists, which-is-higher, numbers) in en, es and et, with categories, difficulties and tags,
like a hand-written bank. Reported: the file size, whether PyYAML's C LibYAML loader is used, and the best and
median wall-clock and CPU times of ``load_bank`` (YAML parsing, schema validation, question objects, lines —
or reading the bank cache):

* ``no cache``   — the bank cache switched off (``MINDTABLE_CACHE_DIR=off``);
* ``first load`` — the bank cache is empty (what a new or edited bank costs, writing the cache included);
* ``cached``     — the validated questions come from the bank cache (every later load of an unchanged file):
  one ``json.loads`` and the question objects, no parsing and no validation again.

The bank cache lives in a temporary folder here (``MINDTABLE_CACHE_DIR``), never in the user's cache.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from mindtable.trivia import load_bank

WORDS = [
    "river",
    "mountain",
    "city",
    "painter",
    "composer",
    "planet",
    "element",
    "battle",
    "treaty",
    "island",
    "desert",
    "novel",
    "king",
    "queen",
]
CATEGORIES = ["geography", "history", "science", "arts", "sport", "varia"]


def question(rng: random.Random, n: int) -> dict[str, Any]:
    topic = " ".join(rng.choice(WORDS) for _ in range(3))
    base: dict[str, Any] = {
        "id": f"q{n:05d}",
        "question": f"Question {n}: which {topic} is meant here, and why?",
        "category": rng.choice(CATEGORIES),
        "language": rng.choice(["en", "es", "et"]),
    }
    if rng.random() < 0.5:
        base["difficulty"] = rng.choice(["easy", "medium", "hard"])
    if rng.random() < 0.3:
        base["tags"] = rng.sample(WORDS, 2)
    kind = rng.randrange(6)
    if kind == 0:
        base["answer"] = f"Name {n} SURNAME{n} (an explanation of {topic})"
        base["accept"] = [f"Surname{n}"]
        base["check"] = "Encyclopaedia, volume 3"
    elif kind == 1:
        base["answer"] = f"OPTION{n}"
        base["options"] = [f"Wrong{n}a", f"Option{n}", f"Wrong{n}b"]
    elif kind == 2:
        base["answer"] = rng.random() < 0.5
    elif kind == 3:
        base["items"] = [f"item{n}-{i}" for i in range(6)]
        base["count"] = 5
    elif kind == 4:
        base["kind"] = "higher"
        base["options"] = [f"first{n}", f"second{n}"]
        base["correct"] = rng.choice("ab")
    else:
        base["value"] = rng.randrange(10_000)
        base["tolerance"] = rng.randrange(5)
        base["unit"] = "m"
    return base


def main() -> None:
    parser = argparse.ArgumentParser(description="load a large bank file")
    parser.add_argument("--questions", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    data = {"title": "Benchmark bank", "questions": [question(rng, n) for n in range(args.questions)]}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.yaml"
        path.write_text(yaml.dump(data, allow_unicode=True, sort_keys=False, width=100), encoding="utf-8")
        size = path.stat().st_size
        parser_name = "LibYAML (C)" if yaml.__with_libyaml__ else "pure Python"
        print(f"bank: {args.questions:,} questions, {size / 1e6:.2f} MB; YAML parser: {parser_name}")
        results = {}
        for name in ("no cache", "first load", "cached"):
            walls, cpus = [], []
            for n in range(args.repeats):
                cache = Path(tmp) / ("cache-warm" if name == "cached" else f"cache-{n}")
                os.environ["MINDTABLE_CACHE_DIR"] = "off" if name == "no cache" else str(cache)
                if name == "cached":
                    load_bank(path)  # fill the cache
                w0, c0 = time.perf_counter(), time.process_time()
                bank = load_bank(path)
                walls.append(time.perf_counter() - w0)
                cpus.append(time.process_time() - c0)
                assert len(bank.questions) == args.questions
            results[name] = min(walls)
            print(
                f"{name:10s} wall best {min(walls):.3f} s, median {statistics.median(walls):.3f} s; "
                f"CPU best {min(cpus):.3f} s, median {statistics.median(cpus):.3f} s"
            )
    limit = 1.0 if args.questions <= 10_000 else 2.0 * args.questions / 100_000
    for name, best in results.items():
        print(f"target < {limit:g} s, {name}: {'met' if best < limit else 'MISSED'}")
    faster = results["cached"] <= results["no cache"]
    print(f"target cache never slower than parsing: {'met' if faster else 'MISSED'}")


if __name__ == "__main__":
    main()
