"""The judge's house rules (:data:`JUDGE_OPTIONS`, :class:`HouseRules`), the reason codes and the
:class:`Verdict` every judgement returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from mindtable.core.options import Option, validate_options

TYPO_LEVELS = ("strict", "normal", "lenient")
ACCENT_MODES = ("language", "ignore", "strict")
LIST_EXTRAS = ("wrong", "ignore")

#: the judge's house rules, ready to be embedded in a game's option schema
JUDGE_OPTIONS: tuple[Option, ...] = (
    Option("typos", str, default="normal", choices=TYPO_LEVELS, help="typo tolerance"),
    Option("surname_alone", bool, default=True, help="a surname alone is enough for a person's name"),
    Option("number_tolerance", float, default=0.0, minimum=0, help="absolute tolerance for numbers"),
    Option("number_tolerance_pct", float, default=0.0, minimum=0, maximum=100, help="relative tolerance (%)"),
    Option("articles", bool, default=True, help="ignore leading articles"),
    Option("number_words", bool, default=True, help="number words equal digits"),
    Option("accents", str, default="language", choices=ACCENT_MODES, help="how diacritics are compared"),
    Option(
        "word_forms",
        bool,
        default=True,
        help="a plural (en, es) or a case ending on a one-word answer (et) is the same answer",
    ),
    Option(
        "list_extras",
        str,
        default="wrong",
        choices=LIST_EXTRAS,
        help="a list naming more than asked, one of them wrong: 'wrong' (a guess) or 'ignore' (count what is missing)",
    ),
    Option(
        "keyboard_letters",
        bool,
        default=True,
        help="n for ñ and a, o, u for ä, õ, ö, ü (s, z for š, ž) are the same letter: a keyboard may lack them",
    ),
    Option(
        "class_words",
        bool,
        default=True,
        help="a word for what the answer is (island, lake, river, planet, Mount …) added around it changes nothing",
    ),
)

#: every reason code a verdict can carry (``Verdict.code``), accepted ones first
ACCEPT_CODES = (
    "exact",
    "normalised",
    "capitals_part",
    "full_answer",
    "alternative",
    "surname",
    "explanation",
    "printed_words",
    "abbreviation",
    "numeral",
    "spoken_number",
    "era",
    "typo",
    "sound_alike",
    "keyboard_letters",
    "class_word",
    "fuller_name",
    "other_language",
    "word_form",
    "number_exact",
    "number_within_tolerance",
    "date",
    "date_year_only",
    "date_contains_year",
    "option",
    "truefalse",
    "list_complete",
)
REJECT_CODES = (
    "empty",
    "no_match",
    "surname_not_enough",
    "too_many_edits",
    "numeral_mismatch",
    "letter_mismatch",
    "symbol_mismatch",
    "era_mismatch",
    "entity_changed",
    "rejected_answer",
    "ambiguous",
    "number_off",
    "not_the_unit",
    "date_mismatch",
    "not_truefalse",
    "wrong_statement",
    "wrong_option",
    "list_incomplete",
    "list_extra_wrong",
)


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The agreed exactness of answers (defaults are the judge's defaults, see the module docstring)."""

    typos: str = "normal"
    surname_alone: bool = True
    number_tolerance: float = 0.0
    number_tolerance_pct: float = 0.0
    articles: bool = True
    number_words: bool = True
    accents: str = "language"
    word_forms: bool = True
    list_extras: str = "wrong"
    keyboard_letters: bool = True
    class_words: bool = True
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # every judgement looks its compiled answer up by the house rules: hash the fields once
        object.__setattr__(self, "_hash", hash(tuple(getattr(self, f.name) for f in fields(self) if f.init)))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None = None) -> HouseRules:
        """Validated house rules from a mapping; unknown names and bad values raise ``InvalidOptions``."""
        if not options:
            return DEFAULT_RULES
        return _rules(options)

    def budget(self, length: int) -> int:
        """How many edits a typo may cost for an answer of ``length`` letters."""
        if self.typos == "strict":
            return 0
        if self.typos == "lenient":
            return max(1, length // 5) if length >= 5 else 0
        return length // 7


DEFAULT_RULES = HouseRules()


def _rules(options: Mapping[str, Any]) -> HouseRules:
    items = tuple(sorted(options.items()))
    try:
        return _rules_from_items(items)
    except TypeError:  # an unhashable value: validate without the cache (it names the bad option)
        return _rules_from_items.__wrapped__(items)


@lru_cache(maxsize=256)
def _rules_from_items(items: tuple[tuple[str, Any], ...]) -> HouseRules:
    values = validate_options(JUDGE_OPTIONS, dict(items))
    return HouseRules(**{f.name: values[f.name] for f in fields(HouseRules) if f.init})


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement of one answer. ``bool(verdict)`` is ``verdict.correct``.

    ``method`` is one of ``exact``, ``normalised``, ``typo``, ``number``, ``option``, ``truefalse``, ``list``
    (accepted) or ``wrong``, ``rejected``, ``ambiguous``, ``empty`` (rejected). ``matched`` is the accepted
    alternative that matched, ``alternative`` says which kind of alternative it was (``answer``, ``full``,
    ``accepted``, ``surname``, ``explanation``, ``option``, ``item``). ``code`` names the rule that decided
    (one of :data:`ACCEPT_CODES` or :data:`REJECT_CODES`) and ``params`` its parameters as ``(name, value)``
    pairs (also as a dict: :attr:`details`); ``reason`` says the same in words.
    """

    correct: bool
    reason: str
    method: str
    matched: str | None = None
    alternative: str | None = None
    edits: int = 0
    option: int | None = None
    matched_items: tuple[str, ...] = ()
    missing: int = 0
    code: str = ""
    params: tuple[tuple[str, Any], ...] = ()

    def __bool__(self) -> bool:
        return self.correct

    @property
    def details(self) -> dict[str, Any]:
        """``params`` as a dict."""
        return dict(self.params)


def _verdict(
    correct: bool,
    reason: str,
    method: str,
    code: str,
    *,
    matched: str | None = None,
    alternative: str | None = None,
    edits: int = 0,
    option: int | None = None,
    matched_items: tuple[str, ...] = (),
    missing: int = 0,
    params: Mapping[str, Any] | None = None,
) -> Verdict:
    return Verdict(
        correct,
        reason,
        method,
        matched,
        alternative,
        edits,
        option,
        matched_items,
        missing,
        code,
        tuple(params.items()) if params else (),
    )
