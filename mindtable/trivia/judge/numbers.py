"""Numbers and dates: a given number against the printed one (tolerance, unit, era), a date in any of the
three languages, a year inside a date."""

from __future__ import annotations

import re

from mindtable.trivia.judge.compiling import _Compiled, _Date, _Number
from mindtable.trivia.judge.verdict import Verdict, _verdict
from mindtable.trivia.judge.words import _DATE_FILLERS, _FILLERS, _MONTHS, COUNT_WORDS
from mindtable.trivia.model import format_number
from mindtable.trivia.text import Normal, parse_number

_NUMERIC_DATE = re.compile(r"(?<!\d)(\d{1,4})[./-](\d{1,2})[./-](\d{1,4})(?!\d)")


def _given_date(given: Normal, given_text: str) -> tuple[int | None, int | None, int | None] | None:
    """(year, month, day) of a date in the answer ("20 de octubre de 1956", "July 20, 1969", "20.10.1956",
    "1956-10-20"), else ``None``. Parts not given are ``None``."""
    match = _NUMERIC_DATE.search(given_text)
    if match:
        a, b, c = (int(x) for x in match.groups())
        if len(match.group(1)) == 4:
            return a, b, c
        if len(match.group(3)) == 4:
            if b > 12 >= a:
                return c, a, b  # m/d/yyyy
            return c, b, a
        return None
    month = None
    numbers: list[int] = []
    for token in given.tokens:
        if token in _MONTHS and month is None:
            month = _MONTHS[token]
        elif token.isdigit() and len(token) <= 4:
            numbers.append(int(token))
            if len(numbers) > 2:
                return None  # a date has at most two numbers
        elif token not in _DATE_FILLERS:
            return None
    if month is None or not numbers:
        return None
    day = next((n for n in numbers if 1 <= n <= 31 and len(numbers) == 2), None)
    years = [n for n in numbers if n is not day] if day is not None else numbers
    if len(numbers) == 2 and day is not None and len(years) == 2:
        years = [numbers[1]] if numbers[0] == day else [numbers[0]]
    year = years[0] if years else None
    if len(numbers) == 1 and numbers[0] <= 31:
        return None, month, numbers[0]
    return year, month, day


def _match_date(compiled: _Compiled, spec: _Date, given: Normal, given_text: str) -> Verdict | None:
    asked = f"{spec.year:04d}" + (f"-{spec.month:02d}" if spec.month else "") + (f"-{spec.day:02d}" if spec.day else "")
    tokens = [t for t in given.tokens if t not in _FILLERS]
    if len(tokens) == 1 and tokens[0].isdigit() and not _NUMERIC_DATE.search(given_text):
        if int(tokens[0]) != spec.year:
            return _verdict(
                False, f"the year {tokens[0]} is not {spec.year}", "wrong", "date_mismatch", params={"expected": asked}
            )
        if spec.full_date_asked and spec.day:
            return _verdict(
                False,
                f"the question asks for the date ({asked}), not only the year",
                "wrong",
                "date_mismatch",
                params={"expected": asked},
            )
        return _verdict(
            True,
            f"the year {spec.year} of {asked} is given",
            "number",
            "date_year_only",
            matched=asked,
            alternative="answer",
            params={"expected": asked},
        )
    parts = _given_date(given, given_text)
    if parts is None:
        return None
    year, month, day = parts
    ok = (
        year == spec.year
        and (spec.month is None or month == spec.month)
        and (spec.day is None or day in (spec.day, None))
    )
    if ok and spec.day and day is None and spec.full_date_asked:
        ok = False
    if ok:
        return _verdict(
            True,
            f"the date is {asked}",
            "number",
            "date",
            matched=asked,
            alternative="answer",
            params={"expected": asked},
        )
    return _verdict(False, f"the date given is not {asked}", "wrong", "date_mismatch", params={"expected": asked})


def _year_of_date(spec: _Number, shown: str, given: Normal, given_text: str) -> Verdict | None:
    """When a year is asked and a date with a month is given ("20 July 1969", "April 1939"): right if its year is
    the one asked, else off; ``None`` when the answer is no such date."""
    parts = _given_date(given, given_text)
    if parts is None or parts[0] is None or parts[1] is None:
        return None
    if parts[0] == int(spec.value):
        return _verdict(
            True,
            f"the date given contains the year {shown}",
            "number",
            "date_contains_year",
            matched=shown,
            alternative="answer",
            params={"expected": shown},
        )
    return _verdict(
        False,
        f"the date given is in {parts[0]}, not {shown}",
        "wrong",
        "number_off",
        matched=shown,
        params={"expected": shown, "given": parts[0]},
    )


_GLUED_UNIT = re.compile(r"^(-?\d+(?:\.\d+)?)([^\W\d_]+)$")


def _match_number(compiled: _Compiled, spec: _Number, given: Normal, given_text: str) -> Verdict | None:
    tokens = []
    for token in given.tokens:  # a number glued to the unit asked for is the number and its unit: "50m", "5kg"
        glued = _GLUED_UNIT.match(token) if spec.unit_tokens else None
        if glued is not None and glued.group(2) in spec.unit_tokens:
            tokens += [glued.group(1), glued.group(2)]
        else:
            tokens.append(token)
    era = ""
    if "bc" in tokens[1:]:
        era = "bc"
        tokens = [t for t in tokens if t != "bc"]
    found: list[tuple[int, float]] = []
    for i, t in enumerate(tokens):
        v = parse_number(t)
        if v is not None:
            found.append((i, v))
            if len(found) > 1:
                break  # only one number, or more than one, matters
    shown = format_number(spec.value) + (" BC" if spec.era else "")
    year_asked = spec.value.is_integer() and 1 <= spec.value <= 9999 and not spec.era
    if len(found) != 1:
        return _year_of_date(spec, shown, given, given_text) if len(found) > 1 and year_asked else None
    index, value = found[0]
    rest = [t for i, t in enumerate(tokens) if i != index]
    unknown = [
        t for t in rest if t not in spec.unit_tokens and t not in _FILLERS and not (spec.counted and t in COUNT_WORDS)
    ]
    if unknown:  # a day of a month: the month in another form ("10 of Nov", "10. novembril" for 10 NOVEMBER)
        months = {_MONTHS[u] for u in spec.unit_tokens if u in _MONTHS}
        unknown = [t for t in unknown if not (t == "of" and months) and _MONTHS.get(t, 0) not in months]
    if unknown and year_asked and not spec.unit_tokens:
        in_a_date = _year_of_date(spec, shown, given, given_text)  # "April 1939" for 1939
        if in_a_date is not None:
            return in_a_date
    rules = compiled.rules
    tolerance = max(
        spec.tolerance,
        rules.number_tolerance,
        abs(spec.value) * rules.number_tolerance_pct / 100.0,
        abs(spec.value) * spec.tolerance_pct / 100.0,
    )
    off = abs(value - spec.value)
    if unknown:
        return _verdict(
            False,
            f'the number {format_number(value)} is followed by "{" ".join(unknown)}", which is not the unit',
            "wrong",
            "not_the_unit",
            matched=shown,
            params={"expected": shown, "words": " ".join(unknown)},
        )
    if era != spec.era:
        return _verdict(
            False,
            f"{format_number(value)} {'BC' if era else 'AD'} is not {shown}: the era differs",
            "wrong",
            "era_mismatch",
            matched=shown,
            params={"expected": "BC" if spec.era else "AD", "given": "BC" if era else "AD"},
        )
    close = 1e-9 * max(1.0, abs(spec.value))
    if off <= close:
        unit_note = " (unit ignored)" if spec.unit_tokens and not rest else ""
        return _verdict(
            True,
            f"the number {shown} is exact{unit_note}",
            "number",
            "number_exact",
            matched=shown,
            alternative="answer",
            params={"expected": shown},
        )
    if off <= tolerance + close:
        return _verdict(
            True,
            f"{format_number(value)} is within the tolerance ±{format_number(tolerance)} of {shown}",
            "number",
            "number_within_tolerance",
            matched=shown,
            alternative="answer",
            params={"expected": shown, "given": format_number(value), "tolerance": format_number(tolerance)},
        )
    tol = f"±{format_number(tolerance)}" if tolerance else "none: the number must be exact"
    return _verdict(
        False,
        f"{format_number(value)} is off by {format_number(off)} from {shown} (tolerance {tol})",
        "wrong",
        "number_off",
        matched=shown,
        params={"expected": shown, "given": format_number(value), "tolerance": format_number(tolerance)},
    )
