"""Bank files: the schema, errors with file/line/field, writing banks back, and the search path."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindtable.trivia import (
    ENV_VAR,
    BankError,
    dump_bank,
    find_banks,
    load_bank,
    load_questions,
    parse_bank_text,
    resolve_bank,
    search_path,
    shipped_bank_dir,
    validate_bank,
)

GOOD = """\
title: A small booklet
language: es
category: geography
questions:
  - id: q1
    question: ¿Cuál es la capital de Colombia?
    answer: BOGOTÁ
    options: [Medellín, Bogotá, Cali]
  - id: q2
    question: El Amazonas desemboca en el Atlántico.
    answer: true
  - id: q3
    question: Nombra dos países andinos.
    count: 2
    items: [Perú, Bolivia, Ecuador, Colombia, Chile]
  - id: q4
    question: ¿Cuál es más alto?
    kind: higher
    options: [Aconcagua, Mont Blanc]
    correct: a
  - id: q5
    question: ¿Cuántos metros mide el Aconcagua?
    value: 6961
    tolerance: 10
    unit: metros
  - id: q6
    question: ¿Qué océano baña Chile?
    options: [Atlántico, Pacífico, Índico]
    correct: 2
"""


def write(tmp_path: Path, text: str, name: str = "bank.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_valid_bank_loads_with_defaults_kinds_and_lines(tmp_path: Path) -> None:
    bank = load_bank(write(tmp_path, GOOD))
    kinds = [q.kind for q in bank.questions]
    assert kinds == ["text", "truefalse", "list", "higher", "number", "choice"]
    first = bank.questions[0]
    assert first.language == "es" and first.category == "geography"
    assert first.correct == 1  # the answer names option b
    assert bank.questions[2].count == 2
    assert bank.questions[5].correct == 1
    assert [q.origin.line for q in bank.questions] == [5, 9, 12, 16, 21, 26]
    assert bank.title == "A small booklet"


@pytest.mark.parametrize(
    ("snippet", "line", "field", "message"),
    [
        ("  - id: x\n    questoin: Hi?\n    answer: A\n", 6, "questions[0].questoin", "unknown field 'questoin'"),
        ("  - id: x\n    question: Hi?\n", 5, "questions[0].answer", "needs the answer"),
        ("  - id: x\n    question: Hi?\n    answer: [a, b]\n", 7, "questions[0].answer", "must be a text"),
        (
            "  - id: x\n    question: T?\n    kind: truefalse\n    answer: maybe\n",
            8,
            "questions[0].answer",
            "answer: true",
        ),
        (
            "  - id: x\n    question: Hi?\n    options: [a, b]\n    correct: d\n",
            8,
            "questions[0].correct",
            "no option 'd'",
        ),
        (
            "  - id: x\n    question: Hi?\n    answer: Z\n    options: [a, b]\n",
            8,
            "questions[0].options",
            "none of the options is the answer",
        ),
        ("  - id: x\n    question: Hi?\n    items: [a]\n    count: 3\n", 8, "questions[0].count", "only 1"),
        ("  - id: x\n    question: Hi?\n    value: ten\n", 7, "questions[0].value", "must be a number"),
        ("  - id: x\n    question: Hi?\n    value: 3\n    tolerance: -1\n", 8, "questions[0].tolerance", "at least 0"),
        (
            "  - id: x\n    question: Hi?\n    answer: A\n    difficulty: brutal\n",
            8,
            "questions[0].difficulty",
            "easy, medium, hard",
        ),
        (
            "  - id: x\n    question: Hi?\n    answer: A\n  - id: x\n    question: Ho?\n    answer: B\n",
            8,
            "questions[1].id",
            "duplicate id 'x'",
        ),
        ("  - question: Hi?\n    answer: A\n", 5, "questions[0].id", "every question needs an id"),
        (
            "  - id: x\n    kind: higher\n    question: Hi?\n    options: [a, b, c]\n    correct: a\n",
            8,
            "questions[0].options",
            "exactly two",
        ),
        ("  - just a string\n", 5, "questions[0]", "must be a mapping"),
    ],
)
def test_schema_errors_name_file_line_and_field(
    tmp_path: Path, snippet: str, line: int, field: str, message: str
) -> None:
    path = write(tmp_path, "title: t\nlanguage: en\n\nquestions:\n" + snippet)
    bank, problems = validate_bank(path)
    assert bank is None
    matching = [p for p in problems if p.field == field]
    assert matching, problems
    assert matching[0].file == str(path)
    assert matching[0].line == line
    assert message in matching[0].message
    assert str(path) in str(matching[0]) and f":{line}:" in str(matching[0])


def test_every_problem_is_reported_not_just_the_first(tmp_path: Path) -> None:
    path = write(tmp_path, "questions:\n  - id: a\n    question: x\n  - id: b\n    answer: y\n")
    with pytest.raises(BankError) as caught:
        load_bank(path)
    fields = {p.field for p in caught.value.problems}
    assert fields == {"questions[0].answer", "questions[1].question"}
    assert "and 1 more" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("questions:\n  - id: a\n    question: [unclosed\n", 4, "not valid YAML"),
        ("title: x\n", 1, "questions"),
        ("", 0, "empty"),
        ("- a\n- b\n", 1, "mapping"),
        ("questions: []\ncolour: red\n", 2, "unknown field 'colour'"),
    ],
)
def test_file_level_errors(tmp_path: Path, text: str, line: int, message: str) -> None:
    bank, problems = validate_bank(write(tmp_path, text))
    assert bank is None
    assert problems[0].line == line and message in problems[0].message


def test_missing_and_undecodable_files(tmp_path: Path) -> None:
    assert "not found" in validate_bank(tmp_path / "nope.yaml")[1][0].message
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"questions:\n  - id: a\n    question: caf\xe9\n")
    problem = validate_bank(path)[1][0]
    assert "UTF-8" in problem.message and problem.line == 3


def test_dump_and_load_give_the_same_questions(tmp_path: Path) -> None:
    original = load_bank(write(tmp_path, GOOD)).questions
    text = dump_bank(original, title="again")
    again = load_bank(write(tmp_path, text, "again.yaml")).questions
    assert again == original


def test_shipped_banks_are_valid_and_cover_the_kinds_and_languages() -> None:
    refs = find_banks([shipped_bank_dir()])
    assert {ref.name for ref in refs} >= {"en/general", "es/general", "et/general"}
    questions = load_questions(path=[shipped_bank_dir()])
    assert 60 <= len(questions) <= 150
    assert {q.language for q in questions} == {"en", "es", "et"}
    assert {q.kind for q in questions} >= {"text", "choice", "truefalse", "list", "higher", "number"}
    assert any("(" in q.answer for q in questions)  # bracketed explanations
    assert any(q.options and q.kind == "text" for q in questions)  # free text with options
    for ref in refs:
        bank = load_bank(ref.path)
        assert len({q.id for q in bank.questions}) == len(bank.questions)
        assert text_round_trip(bank.questions)


def text_round_trip(questions: list) -> bool:
    bank, problems = parse_bank_text(dump_bank(questions))
    return not problems and bank is not None and bank.questions == questions


def test_search_path_order_env_user_shipped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    first, second, data_home = tmp_path / "first", tmp_path / "second", tmp_path / "data"
    monkeypatch.setenv(ENV_VAR, f"{first}{__import__('os').pathsep}{second}")
    monkeypatch.setenv("XDG_DATA_HOME", str(data_home))
    path = search_path()
    assert path[:2] == [first, second]
    assert path[2] == data_home / "mindtable" / "questions"
    assert path[-1] == shipped_bank_dir()


def test_a_group_can_play_with_its_own_questions(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    own = tmp_path / "ours"
    (own / "en").mkdir(parents=True)
    write(own / "en", "language: en\nquestions:\n  - id: ours\n    question: Ours?\n    answer: YES\n", "general.yaml")
    write(own, "language: et\nquestions:\n  - id: club\n    question: Kes?\n    answer: MEIE\n", "club.yaml")
    monkeypatch.setenv(ENV_VAR, str(own))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "nothing"))
    refs = {ref.name: ref for ref in find_banks()}
    assert refs["en/general"].root == own  # our file hides the shipped bank of the same name
    assert refs["es/general"].root == shipped_bank_dir()
    assert resolve_bank("club").name == "club.yaml"
    assert [q.id for q in load_questions(names=["en/general"])] == ["ours"]
    assert [q.id for q in load_questions(language="et", names=["club"])] == ["club"]
    with pytest.raises(BankError, match="no bank called 'nope'"):
        resolve_bank("nope")


def test_large_banks_are_cached_and_an_edit_is_always_seen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from mindtable.trivia.bank import CACHE_MIN_BYTES, bank_cache_dir

    monkeypatch.setenv("MINDTABLE_CACHE_DIR", str(tmp_path / "cache"))
    entry = "  - id: q{n}\n    question: Question number {n}, long enough to fill the file?\n    answer: A{n}\n"
    count = CACHE_MIN_BYTES // 60
    text = "questions:\n" + "".join(entry.format(n=n) for n in range(count))
    path = write(tmp_path, text, "big.yaml")
    first = load_bank(path)
    cache = bank_cache_dir()
    assert cache is not None and len(list(cache.glob("*.json"))) == 1
    assert load_bank(path).questions == first.questions
    assert load_bank(path).questions[5].origin.line == first.questions[5].origin.line == 17
    path.write_text(text.replace("answer: A5\n", "answer: CHANGED\n"), encoding="utf-8")
    assert load_bank(path).questions[5].answer == "CHANGED"
    path.write_text(text.replace("answer: A5\n", "answr: A5\n"), encoding="utf-8")
    with pytest.raises(BankError, match="answr"):
        load_bank(path)
    monkeypatch.setenv("MINDTABLE_CACHE_DIR", "off")
    path.write_text(text, encoding="utf-8")
    assert bank_cache_dir() is None and len(load_bank(path).questions) == count


def test_the_parse_cache_is_data_only_and_keyed_by_everything_it_depends_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import json

    from mindtable.trivia import bank as bank_module

    monkeypatch.setenv("MINDTABLE_CACHE_DIR", str(tmp_path / "cache"))
    entry = "  - id: q{n}\n    question: Question number {n}, long enough to fill the file?\n    answer: A{n}\n"
    text = "questions:\n" + "".join(entry.format(n=n) for n in range(bank_module.CACHE_MIN_BYTES // 60))
    path = write(tmp_path, text, "big.yaml")
    load_bank(path)
    (cached,) = (tmp_path / "cache" / "banks").glob("*.json")
    rows = json.loads(cached.read_text(encoding="utf-8"))["questions"]
    assert rows[0][:3] + rows[0][-1:] == ["q0", "text", "Question number 0, long enough to fill the file?", 2]
    # another Python, PyYAML or mindtable version is another entry
    monkeypatch.setattr(bank_module.yaml, "__version__", "0.0-test")
    load_bank(path)
    assert len(list((tmp_path / "cache" / "banks").glob("*.json"))) == 2

    monkeypatch.setattr(bank_module, "_release", lambda: "0.0-test")
    load_bank(path)
    assert len(list((tmp_path / "cache" / "banks").glob("*.json"))) == 3
    # an entry of another shape (hand-edited, an unknown kind) is ignored: the file is parsed again
    for entry_file in (tmp_path / "cache" / "banks").glob("*.json"):
        broken = json.loads(entry_file.read_text(encoding="utf-8"))
        broken["questions"][0][1] = "riddle"
        entry_file.write_text(json.dumps(broken), encoding="utf-8")
    assert load_bank(path).questions[0].kind == "text"
    # a broken entry is ignored (the file is parsed again); nothing in an entry is ever executed
    for entry_file in (tmp_path / "cache" / "banks").glob("*.json"):
        entry_file.write_bytes(b"\x80not json")
    assert len(load_bank(path).questions) == bank_module.CACHE_MIN_BYTES // 60


def test_only_true_and_false_are_booleans(tmp_path: Path) -> None:
    text = (
        "language: es\nquestions:\n"
        "  - {id: a, question: ¿Es Lima la capital de Chile?, answer: no}\n"
        "  - {id: b, question: ¿Es Lima la capital de Perú?, answer: true}\n"
        "  - {id: c, question: Say the word, answer: on}\n"
    )
    questions = load_bank(write(tmp_path, text)).questions
    assert [(q.kind, q.answer) for q in questions] == [("text", "no"), ("truefalse", "true"), ("text", "on")]
    assert load_bank(write(tmp_path, dump_bank(questions), "again.yaml")).questions == questions


TRICKY_YAML = """\
a: &x {k: 1, l: [1, 2.5, -3, 0x1F, 1_000, 1:30, .inf, ~, null, true, False, yes, no, 2024-01-02, '12', "true"]}
b: *x
c: |
  literal
  text
d: >
  folded
  text
e: !!str 123
f: !!int "42"
g: [a, {b: c}, [d, e]]
h:
i: ""
base: &base {x: 1}
merged:
  <<: *base
  y: 2
"""


@pytest.mark.parametrize(
    "text",
    [
        TRICKY_YAML,
        "",
        "# only a comment\n",
        "- a\n- b\n",
        "--- a\n--- b\n",
        "a: *nope\n",
        "? [a, b]\n: c\n",
        "a: [1, 2\n",
        "a: !custom x\n",
    ],
)
def test_the_fast_yaml_loader_gives_what_pyyaml_gives(text: str) -> None:
    import yaml

    from mindtable.trivia.bank import _load_yaml, _Loader

    def load(function: object) -> object:
        try:
            return function(text)  # type: ignore[operator]
        except yaml.YAMLError as exc:
            return type(exc).__name__

    assert load(_load_yaml) == load(lambda t: yaml.load(t, Loader=_Loader))


def test_the_fast_yaml_loader_on_the_shipped_banks() -> None:
    import yaml

    from mindtable.trivia.bank import _load_from_events, _Loader

    for path in shipped_bank_dir().rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        assert _load_from_events(text) == yaml.load(text, Loader=_Loader)


def test_a_number_question_with_options_knows_its_right_option() -> None:
    from mindtable.trivia.bank import parse_bank_text
    from mindtable.trivia.judge import judge_answer

    text = (
        "language: en\nquestions:\n  - id: q1\n    question: In which year did the Wright brothers first fly?\n"
        "    value: 1903\n    options: ['1899', '1903', '1911']\n"
    )
    question = parse_bank_text(text, "wright.yaml")[0].questions[0]
    assert question.kind == "number" and question.correct == 1
    assert judge_answer(question, "1903").correct and not judge_answer(question, "1911").correct


def test_a_cached_bank_gives_the_same_questions_and_origins_as_a_parsed_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from mindtable.trivia.bank import CACHE_MIN_BYTES

    entry = (
        "  - id: t{n}\n    question: Is {n} a number worth asking about in a long quiz?\n    answer: true\n"
        "  - id: c{n}\n    question: Pick one of these, please, for question {n}\n    options: [Ab, Cd]\n"
        "    correct: b\n    tags: [x, y]\n    extra: {{page: {n}}}\n"
        "  - id: n{n}\n    question: How many, for question {n}?\n    value: 12.5\n    tolerance: 1\n    unit: m\n"
        "  - id: l{n}\n    question: Name two\n    items: [a, b, c]\n    count: 2\n    difficulty: hard\n"
    )
    text = "title: Mixed\nlanguage: es\nquestions:\n" + "".join(
        entry.format(n=n) for n in range(CACHE_MIN_BYTES // 300)
    )
    path = write(tmp_path, text, "mixed.yaml")
    monkeypatch.setenv("MINDTABLE_CACHE_DIR", "off")
    parsed = load_bank(path)
    monkeypatch.setenv("MINDTABLE_CACHE_DIR", str(tmp_path / "cache"))
    load_bank(path)  # fills the cache
    assert len(list((tmp_path / "cache" / "banks").glob("*.json"))) == 1
    cached = load_bank(path)
    assert (cached.title, cached.language, cached.questions) == (parsed.title, "es", parsed.questions)
    assert [q.origin for q in cached.questions] == [q.origin for q in parsed.questions]
    assert [q.origin.line for q in parsed.questions[:3]] == [4, 7, 13]
    number, choice = cached.questions[2], cached.questions[1]
    assert (number.value, number.tolerance, type(number.value)) == (12.5, 1.0, float)
    assert (choice.correct, choice.tags, dict(choice.extra)) == (1, ("x", "y"), {"page": 0})


def test_build_question_gives_what_the_constructor_gives() -> None:
    from mindtable.trivia.model import QUESTION_ATTRIBUTES, Origin, Question, build_question

    q = Question("q1", "choice", "Pick", options=("a", "b"), correct=1, tags=("t",), extra={"k": 1})
    values = [getattr(q, name) for name in QUESTION_ATTRIBUTES]
    values[QUESTION_ATTRIBUTES.index("options")] = ["a", "b"]  # lists from JSON become tuples
    built = build_question(*values[:-1], Origin("f.yaml", 9))
    assert built == q and built.options == ("a", "b") and built.origin == Origin("f.yaml", 9)
    assert hash(built) == hash(q)
    with pytest.raises(AttributeError):
        built.answer = "changed"  # type: ignore[misc]
