"""The judge's verdicts on a few thousand generated answers are held equal to a saved corpus.

The fast paths of the judge (length pre-filters, early stops in number and date matching, bounded distances)
must never change a verdict. The answers are generated from a seed (right answers, case and article changes,
one and two typos, near misses with numbers and letters, known wrong answers, long junk up to 4 KiB) and every
field of every verdict (correct, reason, method, matched, edits, code, params …) is hashed; the hashes were
saved from the judge before the fast paths, and saved again for judge v3, whose only changed verdicts are 14
swapped or doubled letters in names of five and six letters ("Prais", "Pränu", "Syndey", "Romaans": now
``sound_alike``). Regenerate the corpus only when a verdict is meant to change:

    .venv/bin/python tests/trivia/test_judge_corpus.py
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from mindtable.trivia import Question, judge_answer

CORPUS = Path(__file__).with_name("data") / "judge_corpus.json"

ACCEPTED: list[tuple[Any, str, dict[str, Any]]] = [
    ("CANBERRA (the capital of Australia, not Sydney)", "en", {}),
    ("Canberra", "en", {"typos": "strict"}),
    ("Canberra", "en", {"typos": "lenient"}),
    ("1969", "en", {}),
    ("8848 m", "en", {}),
    ("44 BC", "en", {}),
    ("1956-10-20", "en", {}),
    ("Elizabeth II", "en", {}),
    ("World War II", "en", {}),
    ("Vitamin C", "en", {}),
    ("C++", "en", {}),
    ("South Korea", "en", {}),
    ("Martin Luther KING Jr.", "en", {}),
    ("Holland / the Netherlands", "en", {}),
    ("the BLACK Sea", "en", {}),
    ("Romans", "en", {}),
    ("Mississippi", "en", {"accents": "strict"}),
    ("Simón BOLÍVAR (the Liberator)", "es", {}),
    ("Gabriel GARCÍA MÁRQUEZ", "es", {}),
    ("la cordillera de los ANDES", "es", {}),
    ("Ciudad de MÉXICO", "es", {"accents": "ignore"}),
    ("siete", "es", {}),
    ("SUUR MUNAMÄGI (318 meetrit)", "et", {}),
    ("Anton Hansen TAMMSAARE", "et", {}),
    ("Tõde ja õigus", "et", {}),
    ("Pärnu", "et", {}),
    ("Tallinn", "et", {"word_forms": False}),
]
PERSONS = [("Wolfgang Amadeus Mozart", "en"), ("Leonardo da Vinci", "es"), ("Lydia Koidula", "et")]
QUESTIONS = [
    Question(id="n", kind="number", prompt="How many legs has a spider?", language="en", value=8, unit="legs"),
    Question(id="t", kind="number", prompt="How high?", language="en", value=8848, tolerance=50, unit="m"),
    Question(
        id="c",
        kind="choice",
        prompt="Which?",
        language="en",
        options=("Paris", "Lyon", "Marseille"),
        correct=0,
    ),
    Question(
        id="l",
        kind="list",
        prompt="?",
        language="es",
        items=("Romeo y Julieta", "Hamlet", "Del amor y otros demonios", "Canberra"),
        count=3,
    ),
    Question(id="r", kind="text", prompt="Capital?", language="en", answer="Sydney", rejected=("Sidney",)),
]
JUNK = [
    "7",
    "1,",
    "1.",
    "canberra ",
    "the capital of australia not sydney ",
    "a ",
    "xiv ",
    "-+",
    "a",
    "twenty one ",
    "three and a half ",
    "20 July 1969 ",
    "1º ",
    "Romeo y ",
    "Sydney, Canberra and ",
    "Elizabeth ",
    "\ud800",
]
WORDS = ["the", "Sydney", "II", "I", "north", "south", "1969", "BC", "AD", "y", "ja", "de", "C", "12", "siete"]


def _typo(rng: random.Random, text: str) -> str:
    if len(text) < 2:
        return text + "x"
    i = rng.randrange(len(text) - 1)
    kind = rng.randrange(4)
    if kind == 0:
        return text[:i] + text[i + 1] + text[i] + text[i + 2 :]
    if kind == 1:
        return text[:i] + text[i + 1 :]
    if kind == 2:
        return text[:i] + rng.choice("aeiouxyzñõ") + text[i:]
    return text[:i] + rng.choice("aeiouxyz") + text[i + 1 :]


def _givens(rng: random.Random, printed: str) -> list[str]:
    core = printed.split("(")[0].split(" / ")[0].strip()
    out = [
        core,
        core.lower(),
        core.upper(),
        "the " + core.lower(),
        _typo(rng, core),
        _typo(rng, _typo(rng, core)),
        _typo(rng, _typo(rng, _typo(rng, core))),
        f"{core} {rng.choice(WORDS)}",
        f"{rng.choice(WORDS)} {core}",
        core.split()[-1],
        " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 5))),
        str(rng.randrange(-100, 10000)),
        "",
    ]
    for _ in range(4):
        piece = rng.choice(JUNK)
        size = rng.choice((16, 64, 300, 4096))
        out.append((piece * (size // len(piece) + 1))[:size])
    return out


def cases() -> list[tuple[Any, str, str, dict[str, Any], bool]]:
    rng = random.Random(14)
    out: list[tuple[Any, str, str, dict[str, Any], bool]] = []
    for _ in range(9):
        for accepted, language, options in ACCEPTED:
            out.extend((accepted, given, language, options, False) for given in _givens(rng, accepted))
        for accepted, language in PERSONS:
            out.extend((accepted, given, language, {}, True) for given in _givens(rng, accepted))
        for question in QUESTIONS:
            printed = question.answer or (question.items or question.options or ("x",))[0]
            if question.kind == "number":
                printed = str(question.value)
            out.extend((question, given, question.language, {}, False) for given in _givens(rng, printed))
    return out


def _digest(accepted: Any, given: str, language: str, options: dict[str, Any], person: bool) -> str:
    if isinstance(accepted, Question):
        verdict = judge_answer(accepted, given, **options)
    else:
        verdict = judge_answer(accepted, given, language, person=person, **options)
    return hashlib.sha256(repr(verdict).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def test_verdicts_equal_the_saved_corpus() -> None:
    saved = json.loads(CORPUS.read_text(encoding="utf-8"))
    generated = cases()
    assert len(generated) == len(saved) >= 3000
    differ = []
    for case, digest in zip(generated, saved, strict=True):
        if _digest(*case) != digest:
            accepted, given, language, options, person = case
            differ.append((accepted, given[:80], language, options, person))
    assert not differ, f"{len(differ)} verdicts changed, e.g. {differ[:5]}"


if __name__ == "__main__":
    CORPUS.write_text(json.dumps([_digest(*case) for case in cases()], indent=0) + "\n", encoding="utf-8")
