"""Benchmark: answers judged per second by ``mindtable.trivia.judge_answer`` (target: 50,000/s on one core).

    python benchmarks/trivia_judge.py [--seconds 3] [--repeats 3] [--seed 1]

Workload: every text answer of the shipped banks (en, es, et) plus printed answers with capitals, brackets and
alternatives, each judged against a mix of given answers — exact, lower case, upper case, with an article, one
typo, two typos, a wrong answer, a number — so every path of the judge runs (exact lookup, normalisation, typo
distance, number parsing, rejection). Scenarios:

* ``repeat`` — the same (answer, given) pairs again and again (all caches warm);
* ``unique`` — every given answer is a new string (the normalisation cache never helps), each accepted answer
  compiled once (a match asks a question and judges the answers given to it);
* ``cold``   — every judgement also compiles its accepted answer (both caches cleared before each one).

Rates use the process's CPU time (``time.process_time``), so other jobs on the machine disturb them less; the
best of ``--repeats`` runs is reported. The judge is single-threaded: one core.
"""

from __future__ import annotations

import argparse
import random
import time

from mindtable.trivia import judge as judge_module
from mindtable.trivia import judge_answer, load_questions, shipped_bank_dir
from mindtable.trivia import text as text_module

Pair = tuple[str, str, str]

EXTRA = [
    ("Simón BOLÍVAR (the Liberator)", "es"),
    ("Gabriel GARCÍA MÁRQUEZ", "es"),
    ("la cordillera de los ANDES", "es"),
    ("SUUR MUNAMÄGI (318 meetrit)", "et"),
    ("Anton Hansen TAMMSAARE", "et"),
    ("8848 m", "en"),
    ("the BLACK Sea", "en"),
    ("Holland / the Netherlands", "en"),
]


def _typo(rng: random.Random, word: str) -> str:
    if len(word) < 2:
        return word + "x"
    i = rng.randrange(len(word) - 1)
    return word[:i] + word[i + 1] + word[i] + word[i + 2 :]


def workload(rng: random.Random) -> list[Pair]:
    answers = [(q.answer, q.language) for q in load_questions(path=[shipped_bank_dir()]) if q.kind == "text"]
    answers += EXTRA
    pairs = []
    for answer, language in answers:
        core = answer.split("(")[0].strip()
        article = {"en": "the ", "es": "el "}.get(language, "")
        variants = [
            core,
            core.lower(),
            core.upper(),
            article + core.lower(),
            _typo(rng, core),
            _typo(rng, _typo(rng, core)),
            "something else entirely",
            "1234",
        ]
        pairs.extend((answer, given, language) for given in variants)
    return pairs


def _clear() -> None:
    judge_module._compile_text.cache_clear()
    text_module._normalise.cache_clear()


def measure(batches: list[list[Pair]], seconds: float, cold: bool) -> float:
    """Judgements per CPU second over ``batches`` (cycled) for about ``seconds``."""
    count = 0
    spent = 0.0
    i = 0
    while spent < seconds:
        batch = batches[i % len(batches)]
        i += 1
        start = time.process_time()
        if cold:
            for accepted, given, language in batch:
                _clear()
                judge_answer(accepted, given, language=language)
        else:
            for accepted, given, language in batch:
                judge_answer(accepted, given, language=language)
        spent += time.process_time() - start
        count += len(batch)
    return count / spent


def main() -> None:
    parser = argparse.ArgumentParser(description="answers judged per second")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per scenario and run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per scenario (the best is reported)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pairs = workload(rng)
    # unique given answers: enough distinct batches that the normalisation cache (65,536 entries) never hits
    unique = [
        [(a, f"{g} {n}" if k % 2 else f"{n} {g}", lang) for k, (a, g, lang) in enumerate(pairs)] for n in range(400)
    ]
    print(f"workload: {len(pairs)} (answer, given) pairs, {len({p[0] for p in pairs})} accepted answers")
    for accepted, given, language in pairs:  # compile every accepted answer once
        judge_answer(accepted, given, language=language)
    results = {}
    for name, batches, cold in (("repeat", [pairs], False), ("unique", unique, False), ("cold", [pairs], True)):
        rates = [measure(batches, args.seconds, cold) for _ in range(args.repeats)]
        results[name] = max(rates)
        runs = ", ".join(f"{r:,.0f}" for r in rates)
        print(f"{name:7s} best {max(rates):>9,.0f} answers/s  (runs: {runs})")
    verdict = "met" if results["unique"] >= 50_000 else "MISSED"
    print(f"target 50,000 answers/s (unique given answers, one core): {verdict}")


if __name__ == "__main__":
    main()
