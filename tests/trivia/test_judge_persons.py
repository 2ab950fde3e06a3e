"""House rule ``surname_alone`` over every person answer the three quiz games ship.

The Eesti book: players agree "whether a surname alone is enough for a name"; Carrera: "whether, when a name is
asked for, the surname alone is enough". With the rule on (every game's default) the surname is a right answer;
off, the judge asks for the whole name wherever the answer is a person (``person: true``), whatever the card
prints in capitals, and an accepted form that is only the surname is not enough either. The cards are read
through each game's own loader, so cards other helpers add later are covered too.

The surname is read from the card as a player would, independently of the judge: the words printed in capitals
at the end of the name ("Jaan KROSS", "Juan Martín DEL POTRO"), else the last word with its particles ("Leonardo
da Vinci"). Names of one word, regnal names ("Gustav II Adolf") and names with an epithet instead of a surname
("WILLIAM the Conqueror", "The WRIGHT brothers") have no surname to give alone and are left out.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from rapidfuzz.distance import Indel

from mindtable.games.caida_libre import rules as caida
from mindtable.games.carrera_de_mente import content as carrera
from mindtable.games.eesti_malumang import rules as eesti
from mindtable.trivia import Question, judge_answer
from mindtable.trivia.model import question_from_dict
from mindtable.trivia.text import strip_brackets

_ROMAN = re.compile(r"^(?=[IVXLCDM])M{0,4}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$")
_PARTICLES = {"da", "de", "del", "della", "der", "di", "dos", "du", "la", "le", "van", "von", "y", "ten", "ter", "zu"}
_ARTICLES = {"the", "el", "la", "los", "las"}
_TITLES = {"don", "doña", "sir", "saint", "san", "santa", "pope", "king", "queen", "papa", "rey", "reina", "dr", "dr."}


def _person_questions() -> Iterator[tuple[str, Question]]:
    for language in eesti.LANGUAGES:
        for card in eesti.content_cards(language).values():
            for q in card["questions"]:
                if q.get("person"):
                    yield f"eesti-{language}-{q['id']}", question_from_dict(q)
    for language in caida.LANGUAGES:
        for card in caida.deal_cards(language, "all").values():
            for q in card["questions"]:
                if q.get("person"):
                    yield f"caida-{language}-{q['id']}", question_from_dict(q)
    for language in carrera.LANGUAGES:
        for booklet in carrera.read_booklets(language, "")["booklets"].values():
            for _number, questions in booklet:
                for q in questions:
                    if q.get("person"):
                        yield f"carrera-{language}-{q['id']}", question_from_dict(q)


def _letters(word: str) -> str:
    return "".join(c for c in word if c.isalpha())


def _capitals(word: str) -> bool:
    letters = _letters(word)
    return len(letters) >= 2 and letters.isupper()


def _spoken(word: str) -> str:
    """A word as a player types it: ``KROSS`` → ``Kross``, ``SAINT-EXUPÉRY`` → ``Saint-Exupéry``."""
    return "-".join(part[:1] + part[1:].lower() for part in word.split("-")) if _capitals(word) else word


def surname_and_name(q: Question) -> tuple[str, str] | None:
    """The surname as printed on the card and the whole name, as a player types them; ``None`` when the answer
    has no surname to give alone."""
    words = strip_brackets(q.answer).split(" / ")[0].split()
    mixed = any(_capitals(w) for w in words) and not all(_capitals(w) or len(_letters(w)) < 2 for w in words)
    while len(words) > 1 and words[0].casefold() in _ARTICLES | _TITLES:
        words = words[1:]  # "EL GRECO" is one name; "Don DIEGO DE LA VEGA" has a title before the name
    if len(words) < 2 or any(_ROMAN.match(_letters(w)) and not re.fullmatch(r"\w\.", w) for w in words):
        return None
    marked = [i for i, w in enumerate(words) if _capitals(w)]
    if mixed and len(marked) == len(words):
        return None  # the card asks for the whole name in capitals: no surname alone even with the rule on
    if marked and len(marked) < len(words):
        start = marked[0]
        if marked != list(range(start, start + len(marked))):
            return None
        end = marked[-1] + 1
        if end < len(words):  # "LEONARDO da Vinci": the particle and what follows are the surname
            if words[end].casefold() not in _PARTICLES:
                return None  # an epithet or a group: "WILLIAM the Conqueror", "The WRIGHT brothers"
            start = end
            end = len(words)
        surname = words[start:end]
    else:
        start = len(words) - 1
        while start > 1 and words[start - 1].casefold() in _PARTICLES:
            start -= 1
        surname = words[start:]
    return " ".join(_spoken(w) for w in surname), " ".join(_spoken(w) for w in words)


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if c.isalpha())


PERSONS = [(name, q) for name, q in _person_questions()]
#: (card id, question, surname, whole name) of every person answer that has a surname to give alone.
CHECKED = [(name, q, *found) for name, q in PERSONS if (found := surname_and_name(q)) is not None]


def test_every_game_ships_person_answers_with_surnames_to_check() -> None:
    games = {name.split("-")[0] for name, _ in PERSONS}
    assert games == {"eesti", "caida", "carrera"}
    estonian = [c for c in CHECKED if c[0].startswith("eesti-et-")]
    assert len(estonian) >= 120 and len(CHECKED) >= 0.9 * sum(len(q.answer.split()) > 1 for _, q in PERSONS) - 30


def _surname_problems(question: Question, surname: str, name: str) -> Iterator[str]:
    on = judge_answer(question, surname, surname_alone=True)
    if not on.correct:
        yield f"{surname!r} for {question.answer!r}: {on.reason}"
    off = judge_answer(question, surname, surname_alone=False)
    if off.correct:
        yield f"{surname!r} for {question.answer!r} with surname_alone off: {off.reason}"
    whole = judge_answer(question, name, surname_alone=False)
    if not whole.correct:
        yield f"{name!r} for {question.answer!r} with surname_alone off: {whole.reason}"
    # an accepted form that is only (a word of) the surname is not enough either ("Kross", "Bioy", "Pats")
    surname_words = {_fold(w) for w in re.split(r"[\s-]+", surname)} | {_fold(surname)}
    for form in question.accepted:
        if _fold(form) in surname_words:
            refused = judge_answer(question, form, surname_alone=False)
            if refused.correct:
                yield f"accepted form {form!r} of {question.answer!r}: {refused.reason}"


def test_the_surname_alone_is_enough_only_when_the_players_agree() -> None:
    problems = [f"{name}: {p}" for name, q, surname, whole in CHECKED for p in _surname_problems(q, surname, whole)]
    assert problems == [], f"{len(problems)} problems, the first: {problems[:20]}"


def _whole_name_problems(question: Question) -> Iterator[str]:
    # names of one word ("MICHELANGELO"), regnal names, epithets and groups included: off never refuses the name
    # as printed, nor an accepted form that is a name of its own rather than the surname
    printed = " ".join(_spoken(w) for w in strip_brackets(question.answer).split(" / ")[0].split())
    for surname_alone in (True, False):
        verdict = judge_answer(question, printed, surname_alone=surname_alone)
        if not verdict.correct:
            yield f"{printed!r} for {question.answer!r} (surname_alone={surname_alone}): {verdict.reason}"
    words = [_fold(w) for w in re.split(r"[\s()\-]+", question.answer) if w]
    first = strip_brackets(question.answer).split()[0]
    for form in question.accepted:
        if len(form.split()) > 1:
            continue
        # a name of its own, like no word printed ("Michelangelo", "Gabo", "Charlot"; not "Roentgen" for RÖNTGEN)
        own = all(Indel.normalized_similarity(_fold(form), w) < 0.6 for w in words)
        if own or (_capitals(first) and _fold(form) == _fold(first)):  # "Leonardo" for LEONARDO da Vinci
            verdict = judge_answer(question, form, surname_alone=False)
            if not verdict.correct:
                yield f"accepted form {form!r} of {question.answer!r}: {verdict.reason}"


def test_the_whole_printed_name_is_right_with_the_rule_on_or_off() -> None:
    problems = [f"{name}: {p}" for name, q in PERSONS for p in _whole_name_problems(q)]
    assert problems == [], f"{len(problems)} problems, the first: {problems[:20]}"
