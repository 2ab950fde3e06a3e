"""The trivia layer shared by the quiz games: questions, bank files, importers and the answer judge.

>>> from mindtable.trivia import judge_answer
>>> verdict = judge_answer("Gabriel GARCÍA MÁRQUEZ", "Garcia Marquez", language="es")
>>> verdict.correct, verdict.reason
(True, 'matches "GARCÍA MÁRQUEZ" after normalising case, accents, punctuation, spacing, articles and numbers')
"""

from mindtable.trivia.bank import (
    ENV_VAR,
    Bank,
    BankError,
    BankRef,
    Problem,
    dump_bank,
    find_banks,
    load_bank,
    load_questions,
    parse_bank_text,
    resolve_bank,
    search_path,
    shipped_bank_dir,
    user_bank_dir,
    validate_bank,
)
from mindtable.trivia.judge import JUDGE_OPTIONS, HouseRules, Judge, Verdict, judge_answer
from mindtable.trivia.model import DIFFICULTIES, KINDS, Origin, Question
from mindtable.trivia.stats import BankStats, Duplicate, bank_stats, find_duplicates

__all__ = [
    "DIFFICULTIES",
    "ENV_VAR",
    "JUDGE_OPTIONS",
    "KINDS",
    "Bank",
    "BankError",
    "BankRef",
    "BankStats",
    "Duplicate",
    "HouseRules",
    "Judge",
    "Origin",
    "Problem",
    "Question",
    "Verdict",
    "bank_stats",
    "dump_bank",
    "find_banks",
    "find_duplicates",
    "judge_answer",
    "load_bank",
    "load_questions",
    "parse_bank_text",
    "resolve_bank",
    "search_path",
    "shipped_bank_dir",
    "user_bank_dir",
    "validate_bank",
]
