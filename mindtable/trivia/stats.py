"""Bank statistics and duplicate / near-duplicate detection.

>>> from mindtable.trivia.model import Question
>>> a = Question(id="a", kind="text", prompt="What is the capital of France?", answer="PARIS")
>>> b = Question(id="b", kind="text", prompt="What's the capital of France?", answer="Paris")
>>> [(d.first.id, d.second.id, d.exact) for d in find_duplicates([a, b])]
[('a', 'b', False)]
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from mindtable.trivia.model import Question, format_number
from mindtable.trivia.text import normalise, strip_brackets


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
    question similarity of ``score`` percent with the same normalised answer, or a very close question), or a
    true/false statement and a question that say the same fact (:func:`find_statement_repeats`; ``score``: the
    weighted share of the statement that the question and its answer say)."""

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
    with its options (:func:`_question_text`). A true/false statement is also compared with every question and
    its answer (:func:`find_statement_repeats`)."""
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
    out += find_statement_repeats(questions)
    return out


# --- a statement and a question that say the same fact -----------------------------------------------------
# Caída Libre's true/false statements assert a fact ("The Four Seasons is by Antonio Vivaldi."); a question and
# its answer ask one ("Which Venetian composer wrote 'The Four Seasons'?" → Antonio VIVALDI). They repeat when
# the answer is in the statement — or, for a false statement, in its note, which gives the true fact ("the
# FEMUR" for "The longest bone is the humerus"), the statement naming something else in the answer's place —
# and the statement's content words are nearly all the question's and its answer's, and say a good share of the
# question's own. Words are compared by their first five letters ("composer" meets "composed"; a plural meets its
# singular), each weighted by how rare it is in the language's content, so "Vivaldi" counts for more than "year".
# The thresholds below were set on the shipped content (2026-12-02): they find the statements that restate a
# question; lower ones mostly find statements on the same subject that say another fact ("Spiders are insects"
# / "What is the fear of spiders called?", "Julius Caesar was murdered in the Colosseum" / Pompey's murder).


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


#: words that name no fact (articles, pronouns, question words, common verbs), as :func:`normalise` writes them
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": _word_set(
        "a an the of in on at to into onto by for from with without and or nor but as is are was were be been "
        "being it its this that these those which what who whom whose how many much when where why name named "
        "did does do done has have had than about after before during also not no only some any there their "
        "they them he she his her him we our you your can could would will shall may might must called known "
        "each every such other same 1"
    ),
    "es": _word_set(
        "el la los las lo un una unos unas de del al a en y e o u ni es son fue fueron era eran ser sido esta "
        "estan estaba estuvo por para con sin que cual cuales quien quienes como cuanto cuanta cuantos cuantas "
        "cuando donde se su sus le les este estos estas ese esa esos esas nombre llama llamado llamada ha "
        "han habia hay hubo tiene tienen tenia no si tambien solo mas muy otro otra otros otras mismo misma "
        "cada 1"
    ),
    "et": _word_set(
        "ja ning ka või on oli olid olnud ei mis mille milles millest mida kes kelle keda kus kust kuhu kui "
        "kuidas mitu mitme mitmes millal miks see selle seda need nende tema ta nad oma 1"
    ),
}

#: the weighted share of a statement's content words that the question and its answer must say
STATEMENT_COVER = 0.8
#: the weighted share of the question's own content words (prompt, or prompt and options) the statement must say
PROMPT_COVER = 0.3
#: the same for a false statement naming something else in the answer's place (it says less of the fact)
SUBSTITUTED_PROMPT_COVER = 0.5


def content_words(text: str, language: str) -> frozenset[str]:
    """The stems (first five letters; numbers whole) of the words of ``text`` that name something, without its
    bracketed explanations, function words (:data:`FUNCTION_WORDS`) and one- or two-letter words.

    >>> sorted(content_words("Which Venetian composer wrote 'The Four Seasons'?", "en"))
    ['4', 'compo', 'seaso', 'venet', 'wrote']
    >>> sorted(content_words("¿Qué compositor veneciano escribió «Las cuatro estaciones»?", "es"))
    ['4', 'compo', 'escri', 'estac', 'venec']
    """
    return frozenset(_content_sequence(text, language))


_CLAUSES = re.compile(r"[,;:!?.]\s+|\s[—–-]\s")


def _content_sequence(text: str, language: str) -> tuple[str, ...]:
    """:func:`content_words` in the order of the text (a word may come twice)."""
    stop = FUNCTION_WORDS.get(language, frozenset())
    out = []
    # clause by clause: the number reader would take "four, two" for one number
    tokens = [t for part in _CLAUSES.split(strip_brackets(text)) for t in normalise(part, language).tokens]
    for token in tokens:
        if token in stop:
            continue
        if any(ch.isdigit() for ch in token):
            out.append(token)
        elif len(token) > 2:
            if len(token) > 3 and token[-1] == "s" and token[-2] != "s" and language != "et":
                token = token[:-1]  # a plural meets its singular ("bats" / "the BAT")
            out.append(token[:5])
    return tuple(out)


def _answer_texts(q: Question) -> list[str]:
    """The forms of ``q``'s answer a statement would name: the printed answer — only its words in capitals when
    it has some ("Pyotr Ilyich TCHAIKOVSKY": the name a player must give) — and every accepted form."""
    printed = _printed_answer(q)
    capitals = [w for w in printed.split() if w.isupper() and sum(ch.isalpha() for ch in w) >= 2]
    return [" ".join(capitals) if capitals else printed, *q.accepted]


def _printed_answer(q: Question) -> str:
    if q.kind in ("choice", "higher"):
        return q.options[q.correct] if q.correct is not None else ""
    return format_number(q.value) if q.kind == "number" else strip_brackets(q.answer)


def _weight(words: Iterable[str], weight: dict[str, float], default: float) -> float:
    return sum(weight.get(w, default) for w in words)


def _unsaid(
    sequence: Sequence[str],
    known: frozenset[str],
    weight: dict[str, float],
    default: float,
    answer: frozenset[str] | None = None,
) -> float:
    """The weight of the statement's words (``sequence``) that ``known`` does not hold. For a false statement
    naming something else where the ``answer`` belongs, without the heaviest run of such words that can stand in
    the answer's place — at most three words, or a number for a number ("... dropped on Nagasaki", "... composed by
    Giuseppe Verdi", "A cube has eight faces")."""
    seen: set[str] = set()
    runs: list[list[str]] = []
    previous_unknown = False
    for w in sequence:
        unknown = w not in known
        if unknown and w not in seen:
            if previous_unknown:
                runs[-1].append(w)
            else:
                runs.append([w])
        seen.add(w)
        previous_unknown = unknown
    total = _weight(seen - known, weight, default)
    if not answer:
        return total
    if all(w[0].isdigit() for w in answer):
        stand_ins = [[w] for run in runs for w in run if w[0].isdigit()]
    else:
        stand_ins = [run for run in runs if len(run) <= 3 and not any(w[0].isdigit() for w in run)]
    return total - max((_weight(run, weight, default) for run in stand_ins), default=0.0)


def find_statement_repeats(questions: Sequence[Question]) -> list[Duplicate]:
    """True/false statements that say the fact a question asks (see the section comment above), within each
    language; ``score`` is the weighted share of the statement said by the question and its answer.

    >>> from mindtable.trivia.model import Question
    >>> asked = Question(id="q", kind="text", prompt="Who wrote 'The Four Seasons'?", answer="Antonio VIVALDI")
    >>> said = Question(id="s", kind="truefalse", prompt="The Four Seasons is by Antonio Vivaldi.", answer="true")
    >>> other = Question(id="t", kind="truefalse", prompt="Antonio Vivaldi was a priest.", answer="true")
    >>> [(d.first.id, d.second.id) for d in find_statement_repeats([asked, said, other])]
    [('q', 's')]
    """
    out: list[Duplicate] = []
    by_language: dict[str, list[int]] = {}
    for i, q in enumerate(questions):
        by_language.setdefault(q.language, []).append(i)
    for language, indices in by_language.items():
        statements = [i for i in indices if questions[i].kind == "truefalse"]
        if not statements:
            continue
        asking = [i for i in indices if questions[i].kind not in ("truefalse", "list")]
        words = {i: content_words(_question_text(questions[i]), language) for i in indices}
        df: Counter[str] = Counter()
        for ws in words.values():
            df.update(ws)
        n = len(indices) + 1
        idf = {w: math.log(n / c) for w, c in df.items()}
        unseen = math.log(n)
        # each answer form under its rarest word: a statement looks up only the forms it may contain
        index: dict[str, list[tuple[int, frozenset[str]]]] = {}
        answers: dict[int, tuple[frozenset[str], list[frozenset[str]]]] = {}
        for j in asking:
            printed = _printed_answer(questions[j]).replace("(", " ").replace(")", " ")
            union = set(content_words(printed, language))
            forms = []
            for text in _answer_texts(questions[j]):
                form = content_words(text, language)
                if form:
                    union |= form
                    forms.append(form)
                    index.setdefault(max(form, key=lambda w: idf.get(w, unseen)), []).append((j, form))
            answers[j] = (frozenset(union), forms)
        for i in statements:
            s = questions[i]
            said = words[i]
            if not said:
                continue
            sequence = _content_sequence(s.prompt, language)
            told = said | content_words(s.note, language) if s.truth is False else said
            candidates = {j for w in told for j, form in index.get(w, ()) if form <= told}
            said_weight = _weight(said, idf, unseen)
            for j in sorted(candidates):
                q, asked = questions[j], words[j]
                if q.kind == "higher" and not all(content_words(o, language) <= said for o in q.options):
                    continue  # a comparison is said only by a statement comparing the same two
                answer_words, forms = answers[j]
                substituted = s.truth is False and not any(form <= said for form in forms)
                answer = next((form for form in forms if form <= told), None) if substituted else None
                unsaid = _unsaid(sequence, asked | answer_words, idf, unseen, answer)
                cover = 1 - unsaid / said_weight
                if cover < STATEMENT_COVER or not asked:
                    continue
                prompt_cover = _weight(said & asked, idf, unseen) / _weight(asked, idf, unseen)
                if prompt_cover < (SUBSTITUTED_PROMPT_COVER if substituted else PROMPT_COVER):
                    continue
                first, second = (q, s) if j < i else (s, q)
                out.append(Duplicate(first, second, round(100 * cover, 1), False))
    return out
