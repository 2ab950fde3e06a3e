"""The answer judge: decides whether a typed answer matches the accepted answer, and says why.

The books leave exactness to the players, so every agreement is a house rule (see :data:`JUDGE_OPTIONS`):

* ``typos`` — ``"strict"`` (no typo), ``"normal"`` (one edit per 7 letters, the default) or ``"lenient"``
  (one edit per 5 letters, at least one from 5 letters on). Transposed letters count as one edit.
* ``surname_alone`` — for answers that are a person's name, the surname alone is enough (default ``True``);
  off, the whole name is asked for whatever the capitals, and an accepted form that is only the surname is not
  enough either.
* ``number_tolerance`` / ``number_tolerance_pct`` — how far a number may be off (absolute / percent of the
  answer; default 0 = exact). A tolerance printed on the question always applies as well.
* ``articles`` — drop leading articles (en: the/a/an; es: el/la/los/las/un/una/unos/unas/lo) (default ``True``).
* ``number_words`` — "seven" = "7" = "siete" = "seitse" (default ``True``).
* ``accents`` — ``"language"`` (default: Spanish accents are not an error; Estonian õ ä ö ü and Spanish ñ are
  letters, so a difference is a typo), ``"ignore"`` (all diacritics ignored) or ``"strict"`` (every
  diacritic difference is a typo).
* ``word_forms`` — a plural -s/-es more or less (en, es) and a case ending on a one-word answer (et,
  "Tallinnas" for Tallinn) are the same answer (default ``True``).
* ``list_extras`` — a list answer naming more entries than the question asks for, one of them wrong:
  ``"wrong"`` (the default: a guess spread over extra names is no answer, as a quizmaster rules it) or
  ``"ignore"`` (only the items still missing count, as in Caída Libre's Quote 5: "you lose 10 IQ points for each
  element you are missing").
* ``keyboard_letters`` — n for ñ and a, o, u for ä, õ, ö, ü (s, z for š, ž) are the letters a keyboard lacks,
  not errors (default ``True``; off, or with ``accents="strict"`` or ``typos="strict"``, the book's reading).
* ``class_words`` — a word for what the answer is around it ("the island of Crete", "Mount Etna volcano",
  "Saaremaa saar", "tammepuu") changes nothing (default ``True``).

What players actually type is also read when the printed forms refuse an answer: a fuller name than the card's
("Pablo Ruiz y Picasso"), one slip a player makes in a short answer ("Olso", "Mozzart", "Kenia"), Estonian case
endings on every word ("Tartu Ülikoolis"), units and counts ("90 min", "three times") and well-known names in
another language ("Odysseus" for Ulysses).

Some things are never a house rule: a typo never changes a number, a Roman numeral, a single letter, an era or
a sign (``Elizabeth I`` is not ``Elizabeth II``, ``Vitamin C`` is not ``Vitamin A``, ``C`` is not ``C++``,
``44 AD`` is not ``44 BC``), and never turns one answer into another (a known wrong answer, or a different
direction word: ``South Korea`` is not ``North Korea``).

Every verdict has a ``reason`` (for people) and a ``code`` naming the rule that decided, with ``params``.

>>> judge_answer("Simón BOLÍVAR (the Liberator)", "bolivar", language="es").correct
True
>>> v = judge_answer("CANBERRA", "Canbera")
>>> v.correct, v.method, v.edits, v.code
(True, 'typo', 1, 'typo')
>>> judge_answer("PARIS", "Pariss", typos="strict").correct
False
>>> judge_answer("Pärnu", "Parnu", language="et").code
'keyboard_letters'
>>> judge_answer("Pärnu", "Parnu", language="et", keyboard_letters=False).reason
'"Parnu" is 1 edit from "Pärnu" (õ, ä, ö, ü are letters of their own); the tolerance for 5 letters is 0'
>>> judge_answer("Elizabeth II", "Elizabeth I").code
'numeral_mismatch'
>>> judge_answer("Elizabeth II", "Elizabeth the Second").code
'spoken_number'

The package, by sub-domain: :mod:`.verdict` (house rules, reason codes, verdicts), :mod:`.words` (word lists
as data), :mod:`.compiling` (printed answers compiled into alternatives), :mod:`.matching` (text, word forms
and typos), :mod:`.numbers` (numbers and dates) and :mod:`.lists` (true/false, options, lists); the entry
points are here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mindtable.core.errors import InvalidOptions
from mindtable.trivia.judge.compiling import _compile_question, _compile_text, _norm, _question_key, answer_keys
from mindtable.trivia.judge.lists import _judge_list, _judge_truefalse, _option_letter
from mindtable.trivia.judge.matching import _match
from mindtable.trivia.judge.verdict import (
    ACCENT_MODES,
    ACCEPT_CODES,
    DEFAULT_RULES,
    JUDGE_OPTIONS,
    LIST_EXTRAS,
    REJECT_CODES,
    TYPO_LEVELS,
    HouseRules,
    Verdict,
    _rules,
    _verdict,
)
from mindtable.trivia.judge.words import CONTRAST_WORDS
from mindtable.trivia.model import OPTION_LETTERS, Question
from mindtable.trivia.text import strip_brackets

__all__ = [
    "ACCENT_MODES",
    "ACCEPT_CODES",
    "CONTRAST_WORDS",
    "DEFAULT_RULES",
    "JUDGE_OPTIONS",
    "LIST_EXTRAS",
    "REJECT_CODES",
    "TYPO_LEVELS",
    "HouseRules",
    "Judge",
    "Verdict",
    "answer_keys",
    "judge_answer",
]


def _judge_question(question: Question, given: Any, language: str, rules: HouseRules) -> Verdict:
    if question.kind == "truefalse":
        if isinstance(given, bool):
            given = "true" if given else "false"
        return _judge_truefalse(question, str(given), language, rules)
    compiled = _compile_question(_question_key(question), language, rules)
    if question.kind == "list":
        return _judge_list(question, given, compiled)
    text = str(given)
    if question.options and question.correct is not None:
        index = (
            given
            if isinstance(given, int) and not isinstance(given, bool)
            else _option_letter(text, len(question.options))
        )
        if index is not None:
            letter = OPTION_LETTERS[index] if 0 <= index < len(question.options) else "?"
            if index == question.correct:
                return _verdict(
                    True,
                    f"option {letter}) is the correct option",
                    "option",
                    "option",
                    matched=question.options[index],
                    alternative="option",
                    option=index,
                    params={"option": letter},
                )
            shown = question.options[index] if 0 <= index < len(question.options) else "no such option"
            right = OPTION_LETTERS[question.correct]
            return _verdict(
                False,
                f"option {letter}) {shown} is wrong; the answer is {right})",
                "wrong",
                "wrong_option",
                option=index,
                params={"option": letter, "correct": right},
            )
    verdict = _match(compiled, _norm(strip_brackets(text), language, rules), text)
    if verdict.correct and question.kind in ("choice", "higher") and question.correct is not None:
        return Verdict(
            verdict.correct,
            verdict.reason,
            verdict.method,
            verdict.matched,
            verdict.alternative,
            verdict.edits,
            option=question.correct,
            code=verdict.code,
            params=verdict.params,
        )
    return verdict


def judge_answer(
    accepted: str | Sequence[str] | Question,
    given: Any,
    language: str | None = None,
    *,
    person: bool = False,
    rejected: Sequence[str] = (),
    **house_rules: Any,
) -> Verdict:
    """Judge the answer ``given`` against ``accepted``.

    ``accepted`` is the answer as printed (capitals part, bracketed explanation, alternatives separated by
    `` / `` or ``;``), a sequence of alternatives, or a :class:`Question` (options, true/false, lists and
    numbers are then judged by kind; the question's language is the default). ``person`` marks a person's
    name (for ``surname_alone``) and ``rejected`` lists known wrong answers a typo must never turn into.
    ``house_rules`` are the options in :data:`JUDGE_OPTIONS`; unknown ones raise ``InvalidOptions``.
    """
    rules = _rules(house_rules) if house_rules else DEFAULT_RULES
    if isinstance(accepted, Question):
        return _judge_question(accepted, given, language or accepted.language, rules)
    language = language or "en"
    if isinstance(accepted, str):
        alternatives: tuple[str, ...] = (accepted,)
    elif isinstance(accepted, Sequence):
        alternatives = tuple(str(a) for a in accepted)
    else:
        raise InvalidOptions(f"accepted must be a text, a list of texts or a Question, not {type(accepted).__name__}")
    compiled = _compile_text(alternatives, tuple(rejected), language, rules, person)
    text = given if isinstance(given, str) else str(given)
    return _match(compiled, _norm(strip_brackets(text), language, rules), text)


class Judge:
    """A judge bound to a language and house rules, for callers that judge many answers.

    >>> Judge("es").judge("Ciudad de MÉXICO", "mexico").correct
    True
    """

    def __init__(self, language: str = "en", **house_rules: Any) -> None:
        self.language = language
        self.rules = HouseRules.from_options(house_rules)

    def judge(self, accepted: str | Sequence[str] | Question, given: Any, **kwargs: Any) -> Verdict:
        if isinstance(accepted, Question):
            return _judge_question(accepted, given, accepted.language or self.language, self.rules)
        alternatives = (accepted,) if isinstance(accepted, str) else tuple(accepted)
        compiled = _compile_text(
            alternatives, tuple(kwargs.get("rejected", ())), self.language, self.rules, bool(kwargs.get("person"))
        )
        text = given if isinstance(given, str) else str(given)
        return _match(compiled, _norm(strip_brackets(text), self.language, self.rules), text)
