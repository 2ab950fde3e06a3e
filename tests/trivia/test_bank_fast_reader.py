"""The line reader of bank YAML (``mindtable.trivia.fastyaml``) gives exactly what ``yaml.load`` gives, or steps
aside: for generated documents in the subset it reads and near misses of it, for every YAML file shipped in the
repository, and for banks made from the third-party samples. Loading with the reader on and off gives the same
banks, the same problems and the same lines."""

from __future__ import annotations

import datetime
import math
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindtable.trivia import bank, fastyaml
from mindtable.trivia.formats import FORMATS

REPO = Path(__file__).resolve().parents[2]
SHARED_TRIVIA = REPO.parent / "shared" / "data" / "trivia"


def typed(value: Any) -> Any:
    """``value`` with every type spelled out (``1 == 1.0 == True`` in Python, not in a bank) and mapping order
    kept."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def fast(text: str) -> tuple[Any, list[int]] | None:
    """The line reader's data and question lines, or ``None`` when it steps aside."""
    lines: list[int] = []
    try:
        return fastyaml.load(text, bank._resolve_plain, lines), lines
    except fastyaml.Fallback:
        return None


def assert_same_as_pyyaml(text: str) -> bool:
    """The line reader agrees with ``yaml.load`` (and with the event builder's lines); whether it read it."""
    got = fast(text)
    try:
        expected = yaml.load(text, Loader=bank._Loader)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError):
        assert got is None, f"the reader accepted what PyYAML refuses: {text!r}"
        return False
    if got is None:
        return False
    data, lines = got
    assert typed(data) == typed(expected), text
    event_lines: list[int] = []
    try:
        bank._load_from_events(text, event_lines)
    except fastyaml.Fallback:
        return True
    questions = data.get("questions") if isinstance(data, dict) else None
    if isinstance(questions, list) and len(event_lines) == len(questions):
        assert len(lines) == len(questions), text
        for item, line, event_line in zip(questions, lines, event_lines, strict=True):
            if isinstance(item, dict):
                assert line == event_line, text
    return True


# --- generated documents --------------------------------------------------------------------------------------

TRICKY_SCALARS = [
    "",
    " ",
    "text",
    "two words",
    "Name 2 SURNAME2 (an explanation)",
    "Encyclopaedia, volume 3",
    "ends with colon:",
    "a: b",
    "a:b",
    "a #comment",
    "a#b",
    "#only comment",
    "C# and F#",
    "it's",
    'say "hi"',
    "y",
    "n",
    "yes",
    "no",
    "on",
    "off",
    "true",
    "True",
    "TRUE",
    "tRUE",
    "false",
    "null",
    "Null",
    "NULL",
    "~",
    "0",
    "00",
    "012",
    "0o7",
    "0x1F",
    "0b101",
    "1_000",
    "1,000",
    "+1",
    "-1",
    "-",
    "--",
    "---",
    "...",
    "- x",
    "-x",
    ".5",
    "5.",
    "1e3",
    "1.0e+3",
    "6.8523015e+5",
    ".inf",
    "-.inf",
    ".nan",
    ".NaN",
    "190:20:30",
    "1:30",
    "2024-01-05",
    "2024-13-45",
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10 -5",
    "<<",
    "=",
    "?",
    "? x",
    ":x",
    "%x",
    "@x",
    "`x",
    "!x",
    "!!str 5",
    "!!int 5",
    "&a x",
    "*a",
    "|",
    ">",
    "|-",
    "[a, b]",
    "[a, 'b c', \"d\"]",
    "[Dante's Inferno, x]",
    "[]",
    "[ ]",
    "[a,]",
    "[a, [b]]",
    "[1, true, null, ~, 2024-01-01]",
    "[a: b]",
    "{a: 1}",
    "{}",
    "'quoted'",
    "'it''s'",
    "''",
    "'a' b",
    "'a' # c",
    "'unterminated",
    "'#'",
    '"double"',
    '"esc \\n \\t \\x41 \\u00e9 \\U0001F600 \\\\ \\" \\/ \\0 \\e \\N \\_ \\L \\P \\ "',
    '"bad \\q"',
    '"surrogate \\ud800"',
    '""',
    '"a" b',
    '"a" # c',
    "ñandú",
    "Bogotá",
    "日本語",
    "emoji 😀",
    "a\u3000b",
    "\u00a0nbsp",
    "trailing space ",
    "a  b",
    "a\tb",
    "tab\t",
    "cr\r",
    "nel\x85x",
    "ls\u2028x",
    "bom\ufeff",
    "ctrl\x01",
]
KEYS = [
    "id",
    "question",
    "answer",
    "options",
    "items",
    "questions",
    "title",
    "y",
    "n",
    "on",
    "no",
    "true",
    "null",
    "Null",
    "1",
    "1_0",
    "x1",
    "_",
    "año",
    "two words",
    "'quoted'",
    '"dq"',
    "<<",
    "? complex",
    "2024-01-01",
    "-k",
    "k ",
]


@st.composite
def line_documents(draw: st.DrawFn) -> str:
    """Documents made of random bank-like lines: most are valid YAML in the subset, many are near misses."""
    out = []
    for _ in range(draw(st.integers(1, 14))):
        indent = draw(st.sampled_from(["", "", "  ", "  ", "    ", " ", "   ", "\t", "      "]))
        shape = draw(st.integers(0, 9))
        value = draw(st.sampled_from(TRICKY_SCALARS))
        key = draw(st.sampled_from(KEYS))
        colon = draw(st.sampled_from([": ", ": ", ":  ", ":", " : "]))
        if shape <= 3:
            out.append(f"{indent}{key}{colon}{value}")
        elif shape == 4:
            out.append(f"{indent}{key}:")
        elif shape == 5:
            out.append(f"{indent}- {value}")
        elif shape == 6:
            out.append(f"{indent}- {key}{colon}{value}")
        elif shape == 7:
            out.append(f"{indent}{draw(st.sampled_from(['-', '- ', '-  ', '- - x', '-x']))}")
        elif shape == 8:
            out.append(draw(st.sampled_from(["", "# comment", "  # indented comment", "   ", "---", "...", "%YAML"])))
        else:
            out.append(f"{indent}{value}")
    return "\n".join(out) + draw(st.sampled_from(["", "\n", "\n\n", " "]))


plain_texts = st.text(alphabet="abcXYZ éñ0123456789.-_:#',\"[]", min_size=1, max_size=12)
raw_scalars = st.one_of(st.sampled_from(TRICKY_SCALARS), plain_texts)
raw_keys = st.one_of(st.sampled_from(KEYS), st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True))


@st.composite
def block_documents(draw: st.DrawFn) -> str:
    """Well-indented block documents (mappings and lists, compact and indentless lists, comments and blank
    lines between) whose keys and scalars are written verbatim: mostly valid YAML, some near misses."""
    step = draw(st.sampled_from([2, 2, 4, 1, 3]))
    indentless = draw(st.booleans())
    out: list[str] = []

    def between() -> None:
        extra = draw(st.sampled_from(["", "", "", "", "# c", "   # c", "  "]))
        if extra:
            out.append(extra)

    def comment() -> str:
        return draw(st.sampled_from(["", "", "", " # c", "  #c", "#c"]))

    def mapping(col: int, depth: int, first_prefix: str | None = None) -> None:
        for i in range(draw(st.integers(1, 4))):
            pad = first_prefix if (i == 0 and first_prefix is not None) else " " * col
            key = draw(raw_keys)
            kind = draw(st.integers(0, 5)) if depth < 3 else 0
            if kind <= 2:
                out.append(f"{pad}{key}: {draw(raw_scalars)}{comment()}")
            elif kind == 3:
                out.append(f"{pad}{key}:{comment()}")
                between()
                mapping(col + step, depth + 1)
            elif kind == 4:
                out.append(f"{pad}{key}:{comment()}")
                between()
                sequence(col if indentless else col + step, depth + 1)
            else:
                out.append(f"{pad}{key}:{draw(st.sampled_from(['', ' ', ' # empty']))}")
            between()

    def sequence(col: int, depth: int) -> None:
        for _ in range(draw(st.integers(1, 4))):
            kind = draw(st.integers(0, 4)) if depth < 3 else 0
            if kind <= 1:
                out.append(f"{' ' * col}- {draw(raw_scalars)}{comment()}")
            elif kind == 2:
                gap = draw(st.sampled_from([1, 1, 3]))
                mapping(col + 1 + gap, depth + 1, first_prefix=" " * col + "-" + " " * gap)
            elif kind == 3:
                out.append(f"{' ' * col}-{comment()}")
                mapping(col + step, depth + 1)
            else:
                out.append(f"{' ' * col}-{draw(st.sampled_from(['', ' ']))}")
            between()

    if draw(st.booleans()):
        mapping(0, 0)
    else:
        sequence(0, 0)
    return "\n".join(out) + "\n"


scalars = st.one_of(
    st.sampled_from(TRICKY_SCALARS),
    st.text(max_size=30),
    st.text(alphabet="ab -:#'\"\\[],{}&*!|>%@`?~.0123456789eE+_xXoOtTfFnNyY\n", max_size=14),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.dates(),
)
keys = st.one_of(st.sampled_from(KEYS), st.text(max_size=10), st.integers(-5, 100), st.booleans())
data_trees = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=5), st.dictionaries(keys, children, max_size=5)),
    max_leaves=25,
)
dump_styles = st.fixed_dictionaries(
    {
        "default_flow_style": st.sampled_from([False, False, None, True]),
        "width": st.sampled_from([100, 100, 20, 1000]),
        "indent": st.sampled_from([2, 2, 4, 3]),
        "allow_unicode": st.booleans(),
        "default_style": st.sampled_from([None, None, None, "'", '"']),
        "sort_keys": st.booleans(),
    }
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_documents())
def test_random_lines_read_as_pyyaml_reads_them(text: str) -> None:
    assert_same_as_pyyaml(text)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(block_documents())
def test_block_documents_read_as_pyyaml_reads_them(text: str) -> None:
    assert_same_as_pyyaml(text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data_trees, dump_styles)
def test_dumped_data_reads_as_pyyaml_reads_it(data: Any, style: dict[str, Any]) -> None:
    assert_same_as_pyyaml(yaml.dump(data, Dumper=bank._Dumper, **style))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.dictionaries(st.sampled_from(KEYS[:8]), scalars, min_size=1, max_size=6), max_size=6), dump_styles)
def test_dumped_question_lists_read_with_their_lines(items: list[dict[str, Any]], style: dict[str, Any]) -> None:
    text = yaml.dump({"title": "t", "questions": items}, Dumper=bank._Dumper, **style)
    assert_same_as_pyyaml(text)
    assert_same_as_pyyaml("# a comment\n" + text.replace("\n- ", "\n  # between\n- "))


def test_the_reader_reads_what_bank_files_are_made_of() -> None:
    """The common bank shapes take the fast way (a change that sent them all to PyYAML would go unnoticed
    otherwise): yaml.dump output, hand-written indented lists, flow lists, comments, quotes, numbers."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from trivia_load import question  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    rng = random.Random(3)
    data = {"title": "Bench", "questions": [question(rng, n) for n in range(300)]}
    assert assert_same_as_pyyaml(yaml.dump(data, allow_unicode=True, sort_keys=False, width=100))
    # long texts folded onto several lines, plain and quoted
    assert assert_same_as_pyyaml(yaml.dump(data, allow_unicode=True, sort_keys=False, width=30))
    hand = (
        "# A hand-written bank\n"
        "title: Cultura general   # the title\n"
        "language: es\n"
        "questions:\n"
        "  # --- geography ---\n"
        "  - id: es-geo-001\n"
        "    question: ¿Cuál es la capital de Colombia?\n"
        "    answer: BOGOTÁ\n"
        "    accept: [Santa Fe de Bogotá, 'Bogotá D.C.']\n"
        "    options: [Medellín, Bogotá, Cali]\n"
        '    check: Encyclopaedia Britannica, "Bogotá"\n'
        "\n"
        "  - id: 2\n"
        "    question: 'Is it: true?'\n"
        "    answer: true\n"
        "    value: 1_000\n"
        "    tolerance: .5\n"
        "    extra:\n"
        "      y: on\n"
        "      when: 2024-01-05\n"
        "    tags:\n"
        "    - a\n"
        '    - "b\\tc"\n'
    )
    assert assert_same_as_pyyaml(hand)


def test_maybe_not_text_covers_every_resolver() -> None:
    """A plain scalar starting with any other character is text for the loader's resolvers (the indicators,
    "!&*" of the reserved yaml tag among them, never start a plain scalar the reader takes)."""
    firsts = {first for first, resolvers in bank._Loader.yaml_implicit_resolvers.items() if resolvers}
    assert None not in firsts
    assert firsts <= fastyaml.MAYBE_NOT_TEXT | fastyaml._INDICATORS | {""}  # "": the empty value, None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: 1\nb:\n- x\n- y\nc: z\n", {"a": 1, "b": ["x", "y"], "c": "z"}),
        ("- a:\n  - x\n- b\n", [{"a": ["x"]}, "b"]),
        ("-\n  a: 1\n-\n- c\n", [{"a": 1}, None, "c"]),
        ("a: 'it''s' # c\nb: \"x\\u00e9\"\n", {"a": "it's", "b": "xé"}),
        ("y: on\nno: yes\ntrue: null\n", {"y": "on", "no": "yes", True: None}),
        ("a: [1, 'b', \"c\", d e]\n", {"a": [1, "b", "c", "d e"]}),
        ("a: b\n  c\n\n\n   d  \ne: f\n", {"a": "b c\n\nd", "e": "f"}),
        ("- x\n  y\n- a: b\n   c\n", ["x y", {"a": "b c"}]),
        ("a: 'b''  \n\n  # c '' d  \n  e' # f\ng: 'h\n   i'\n", {"a": "b'\n# c ' d e", "g": "h i"}),
        ("- 'x\n  y'\n- z\n", ["x y", "z"]),
        ("a: 12\n  b\nc: 2001-12-14\n  21:59:43.10 -5\nd: null\n  x\n", None),
    ],
)
def test_examples(text: str, expected: Any) -> None:
    got = fast(text)
    assert got is not None
    loaded = yaml.load(text, Loader=bank._Loader)
    assert typed(got[0]) == typed(loaded)
    if expected is not None:
        assert typed(got[0]) == typed(expected)


@pytest.mark.parametrize(
    "text",
    [
        "a: b\n  c: d\n",  # a plain text going on to a line that holds a mapping
        "a: b\n  # c\n  d\n",  # a comment ends a plain text
        "a: b # c\n  d\n",
        "a: 'b\nc'\n",  # a quoted text going on to a line not indented under its key
        "a: 'b\n  c' d\n",
        "a: 'b\n",
        "a: |\n  x\n",
        "a: &x 1\nb: *x\n",
        "a:\tb\n",
        "a: b\r\n",
        "---\na: 1\n",
        "a: {b: 1}\n",
        "'a': 1\n",
        "a: 1\n b: 2\n",
        "<<: {a: 1}\n",
        "a: <<\n",
        "a: 2024-13-45\n",
        "# only a comment\n",
        "",
    ],
)
def test_the_reader_steps_aside(text: str) -> None:
    assert fast(text) is None


# --- real files: the reader on and off ---------------------------------------------------------------------------


def _shipped_yaml() -> Iterator[Path]:
    for suffix in ("*.yaml", "*.yml"):
        yield from sorted((REPO / "mindtable").rglob(suffix))
        yield from sorted((REPO / "tests").rglob(suffix))


def _load_both(monkeypatch: pytest.MonkeyPatch, text: str, file: str) -> None:
    results = []
    for on in (True, False):
        monkeypatch.setattr(bank, "FAST_READER", on)
        lines: list[int] = []
        try:
            data: Any = typed(bank._load_yaml(text, lines))
        except yaml.YAMLError as exc:
            data = ("error", str(exc))
        results.append((data, lines, bank.parse_bank_text(text, file)))
    assert results[0] == results[1], file


@pytest.mark.parametrize("path", list(_shipped_yaml()), ids=lambda p: str(p.relative_to(REPO)))
def test_shipped_files_load_the_same_with_the_reader_on_and_off(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert_same_as_pyyaml(text)
    _load_both(monkeypatch, text, str(path))
    # and a broken copy: the same problems, at the same lines
    broken = text.replace("answer:", "answer: [", 1).replace("id:", "id: '", 2)
    _load_both(monkeypatch, broken, str(path))


def test_banks_from_the_shared_samples_load_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    if not SHARED_TRIVIA.is_dir():
        pytest.skip(f"third-party trivia files not found at {SHARED_TRIVIA}")
    sources = {
        "opentdb": SHARED_TRIVIA / "opentdb" / "opentdb_first1000.json",
        "mintaka": SHARED_TRIVIA / "mintaka" / "mintaka_dev_v1.0_first300.json",
        "gift": SHARED_TRIVIA / "gift" / "examples.txt",
    }
    sources.update({f"opentriviaqa-{p.name}": p for p in sorted((SHARED_TRIVIA / "opentriviaqa").iterdir())})
    done = 0
    for name, path in sources.items():
        if not path.is_file():
            continue
        result = FORMATS[name.split("-")[0]].reader(path)
        if not result.questions:
            continue
        text = bank.dump_bank(result.questions, title=name)
        _load_both(monkeypatch, text, name)
        monkeypatch.setattr(bank, "FAST_READER", True)
        loaded, problems = bank.parse_bank_text(text, name)
        assert loaded is not None, problems
        assert [q.id for q in loaded.questions] == [q.id for q in result.questions]
        done += 1
    assert done


def test_dates_and_numbers_keep_their_types() -> None:
    got = fast("a: 2024-01-05\nb: 1_000\nc: 0o17\nd: .5\ne: 012\nf: 0x1F\n")
    assert got is not None
    assert got[0] == {"a": datetime.date(2024, 1, 5), "b": 1000, "c": "0o17", "d": 0.5, "e": 10, "f": 31}
