"""Property tests: any valid question survives bank YAML and CSV round trips unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindtable.trivia import Question, dump_bank, parse_bank_text
from mindtable.trivia.formats import read_csv, read_gift, write_csv, write_gift

TEXT = (
    st.text(
        alphabet=st.characters(categories=["L", "N", "P", "Zs", "S"], exclude_characters="|\u2028\u2029\x85"),
        min_size=1,
        max_size=30,
    )
    .map(lambda s: " ".join(s.split()))
    .filter(bool)
)


@st.composite
def questions(draw: Any) -> Question:
    kind = draw(st.sampled_from(["text", "choice", "truefalse", "list", "higher", "number"]))
    fields: dict[str, Any] = {
        "id": draw(TEXT),
        "kind": kind,
        "prompt": draw(TEXT),
        "category": draw(st.one_of(st.just(""), TEXT)),
        "language": draw(st.sampled_from(["en", "es", "et"])),
        "difficulty": draw(st.sampled_from([None, "easy", "medium", "hard"])),
        "tags": tuple(draw(st.lists(TEXT, max_size=2))),
        "check": draw(st.one_of(st.just(""), TEXT)),
        "note": draw(st.one_of(st.just(""), TEXT)),
    }
    if kind == "text":
        fields["answer"] = draw(TEXT)
        fields["accepted"] = tuple(draw(st.lists(TEXT, max_size=2)))
        fields["rejected"] = tuple(draw(st.lists(TEXT, max_size=2)))
        fields["person"] = draw(st.booleans())
    elif kind in ("choice", "higher"):
        size = 2 if kind == "higher" else draw(st.integers(2, 5))
        options = draw(st.lists(TEXT, min_size=size, max_size=size))
        fields["options"] = tuple(options)
        fields["correct"] = draw(st.integers(0, size - 1))
    elif kind == "truefalse":
        fields["answer"] = draw(st.sampled_from(["true", "false"]))
    elif kind == "list":
        items = draw(st.lists(TEXT, min_size=1, max_size=5))
        fields["items"] = tuple(items)
        fields["count"] = draw(st.integers(1, len(items)))
    else:
        fields["value"] = float(draw(st.integers(-(10**6), 10**6))) / draw(st.sampled_from([1, 4, 100]))
        fields["tolerance"] = draw(st.sampled_from([None, 0.5, 2.0]))
        fields["unit"] = draw(st.sampled_from(["", "m", "años"]))
    return Question(**fields)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(qs=st.lists(questions(), min_size=1, max_size=4, unique_by=lambda q: q.id))
def test_bank_yaml_round_trip(qs: list[Question]) -> None:
    bank, problems = parse_bank_text(dump_bank(qs))
    assert not problems, problems
    assert bank is not None and bank.questions == qs


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(qs=st.lists(questions(), min_size=1, max_size=4, unique_by=lambda q: q.id))
def test_csv_round_trip(tmp_path: Path, qs: list[Question]) -> None:
    path = tmp_path / "rows.csv"
    path.write_text(write_csv(qs).text, encoding="utf-8")
    result = read_csv(path)
    assert not [p for p in result.problems if p.severity == "error"], result.problems
    assert result.questions == qs


GIFT_TEXT = TEXT.filter(lambda s: "->" not in s and "_____" not in s and s != "*")


@st.composite
def gift_questions(draw: Any) -> Question:
    kind = draw(st.sampled_from(["text", "choice", "truefalse", "number"]))
    fields: dict[str, Any] = {
        "id": draw(GIFT_TEXT),
        "kind": kind,
        "prompt": draw(GIFT_TEXT),
        "category": draw(st.one_of(st.just(""), GIFT_TEXT)),
    }
    if kind == "text":
        fields["answer"] = draw(GIFT_TEXT)
        fields["accepted"] = tuple(draw(st.lists(GIFT_TEXT, max_size=2)))
        fields["rejected"] = tuple(draw(st.lists(GIFT_TEXT, max_size=2)))
    elif kind == "choice":
        options = draw(st.lists(GIFT_TEXT, min_size=2, max_size=4))
        fields["options"] = tuple(options)
        fields["correct"] = draw(st.integers(0, len(options) - 1))
    elif kind == "truefalse":
        fields["answer"] = draw(st.sampled_from(["true", "false"]))
    else:
        fields["value"] = float(draw(st.integers(-10_000, 10_000)))
        fields["tolerance"] = draw(st.sampled_from([None, 2.0]))
    return Question(**fields)


@settings(max_examples=150, deadline=None)
@given(qs=st.lists(gift_questions(), min_size=1, max_size=3, unique_by=lambda q: q.id))
def test_gift_round_trip(qs: list[Question]) -> None:
    written = write_gift(qs)
    result = read_gift(written.text.encode("utf-8"))
    assert result.questions == qs, (written.text, result.problems)
