"""Bank statistics and duplicate / near-duplicate detection.

>>> from mindtable.trivia.model import Question
>>> a = Question(id="a", kind="text", prompt="What is the capital of France?", answer="PARIS")
>>> b = Question(id="b", kind="text", prompt="What's the capital of France?", answer="Paris")
>>> [(d.first.id, d.second.id, d.exact) for d in find_duplicates([a, b])]
[('a', 'b', False)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from mindtable.trivia.model import Question
from mindtable.trivia.text import normalise


@dataclass(frozen=True, slots=True)
class BankStats:
    total: int
    by_category: Counter[str]
    by_language: Counter[str]
    by_kind: Counter[str]
    by_difficulty: Counter[str]


def bank_stats(questions: Iterable[Question]) -> BankStats:
    """Counts per category, language, kind and difficulty (``-`` for none)."""
    qs = list(questions)
    return BankStats(
        total=len(qs),
        by_category=Counter(q.category or "-" for q in qs),
        by_language=Counter(q.language or "-" for q in qs),
        by_kind=Counter(q.kind for q in qs),
        by_difficulty=Counter(q.difficulty or "-" for q in qs),
    )


@dataclass(frozen=True, slots=True)
class Duplicate:
    """Two questions that ask the same thing: ``exact`` (same normalised question and answer) or near (a
    question similarity of ``score`` percent with the same normalised answer, or a very close question)."""

    first: Question
    second: Question
    score: float
    exact: bool


#: ``token_set_ratio`` at or above which two prompts with the same answer ask the same thing in other words.
SUBSET_THRESHOLD = 90.0


def _answer_key(q: Question) -> str:
    return normalise(q.display_answer or q.answer, q.language).compact


def _question_text(q: Question) -> str:
    """What a question asks, for comparing: its prompt — and for a "which is higher" question its two options
    too, since a shared prompt ("Which happened first?", "Which country is larger?") asks nothing by itself."""
    if q.kind == "higher" and q.options:
        return f"{q.prompt} {' / '.join(sorted(q.options))}"
    return q.prompt


def _rewording(a: str, b: str) -> bool:
    """One prompt says the other in fewer or more words: at most one word of four letters or more of the shorter
    side is missing from the other (the handball and the water polo questions differ in two words each way)."""
    if _contrasting(a, b):
        return False
    words_a, words_b = set(a.split()), set(b.split())
    only_a = [w for w in words_a - words_b if len(w) >= 4]
    only_b = [w for w in words_b - words_a if len(w) >= 4]
    return min(len(only_a), len(only_b)) <= 1


def _contrasting(a: str, b: str) -> bool:
    """Two near-identical prompts that differ in a number ("the 100-kroon note" / "the 500-kroon note", "the
    largest island" / "the second-largest": the judge's normalising writes ordinals as figures) ask two things."""
    diff = set(a.split()) ^ set(b.split())
    return any(any(ch.isdigit() for ch in token) for token in diff)


def find_duplicates(questions: Sequence[Question], threshold: float = 88.0) -> list[Duplicate]:
    """Exact and near duplicates within each language. Near: question similarity ≥ ``threshold`` (rapidfuzz
    ``token_sort_ratio`` on normalised text) and the same answer, or ≥ 97 whatever the answer — unless the two
    prompts differ in a number (then they ask two things); or the same answer and a ``token_set_ratio`` ≥
    :data:`SUBSET_THRESHOLD` (a shortened or lengthened rewording). A "which is higher" question is compared
    with its options (:func:`_question_text`)."""
    out: list[Duplicate] = []
    by_language: dict[str, list[Question]] = {}
    for q in questions:
        by_language.setdefault(q.language, []).append(q)
    for language, qs in by_language.items():
        keys = [normalise(_question_text(q), language).key for q in qs]
        # token_sort_ratio = ratio of the texts with their words sorted: sort once, not per comparison
        sorted_keys = [" ".join(sorted(key.split())) for key in keys]
        answers = [_answer_key(q) for q in qs]
        seen: set[tuple[int, int]] = set()
        exact_index: dict[tuple[str, str], int] = {}
        for i, (key, answer) in enumerate(zip(keys, answers, strict=True)):
            first = exact_index.setdefault((key, answer), i)
            if first != i:
                out.append(Duplicate(qs[first], qs[i], 100.0, True))
                seen.add((first, i))
        chunk = 512
        for start in range(0, len(qs), chunk):
            rows = sorted_keys[start : start + chunk]
            matrix = process.cdist(rows, sorted_keys, scorer=fuzz.ratio, score_cutoff=threshold, workers=-1)
            for r, row in enumerate(matrix):
                i = start + r
                for j in row.nonzero()[0]:
                    j = int(j)
                    if j <= i or (i, j) in seen:
                        continue
                    score = float(row[j])
                    if answers[i] == answers[j] or (score >= 97 and not _contrasting(keys[i], keys[j])):
                        seen.add((i, j))
                        exact = keys[i] == keys[j] and answers[i] == answers[j]
                        out.append(Duplicate(qs[i], qs[j], score, exact))
        # A shortened rewording ("How many rings are there on the Olympic flag?" / "How many interlocking rings
        # are there on the Olympic flag?"): the same answer, and one prompt's words nearly all in the other's.
        by_answer: dict[str, list[int]] = {}
        for i, q in enumerate(qs):
            if q.kind != "truefalse" and answers[i]:
                by_answer.setdefault(answers[i], []).append(i)
        for group in by_answer.values():
            for a, i in enumerate(group):
                for j in group[a + 1 :]:
                    if (i, j) in seen or (j, i) in seen:
                        continue
                    score = fuzz.token_set_ratio(sorted_keys[i], sorted_keys[j])
                    if score >= SUBSET_THRESHOLD and _rewording(keys[i], keys[j]):
                        seen.add((i, j))
                        out.append(Duplicate(qs[i], qs[j], float(score), False))
    return out
