"""Importers and exporters: the real third-party files in ../shared/data/trivia, encodings, round trips."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from mindtable.trivia import Question, find_duplicates, judge_answer, load_bank, shipped_bank_dir
from mindtable.trivia.formats import (
    detect_format,
    export_questions,
    import_questions,
    read_csv,
    read_gift,
    read_mintaka,
    read_opentdb,
    read_opentriviaqa,
    write_csv,
    write_gift,
    write_mintaka,
    write_opentdb,
    write_opentriviaqa,
)

OTQA_FILES = {"brain-teasers": (207, 16), "entertainment": (280, 51), "video-games": (599, 111), "geography": (842, 59)}


def round_trip(
    tmp_path: Path, questions: list[Question], fmt: str, name: str, **read_options: object
) -> list[Question]:
    result = export_questions(questions, fmt, **({"encoding": "html"} if fmt == "opentdb" else {}))
    path = tmp_path / name
    path.write_text(result.text, encoding="utf-8")
    return import_questions(path, fmt, **read_options).questions


# --- Open Trivia DB -------------------------------------------------------------------------------------


@pytest.mark.shared_data
def test_opentdb_real_file(shared: Path, tmp_path: Path) -> None:
    result = read_opentdb(shared / "opentdb" / "opentdb_first1000.json")
    questions = result.questions
    assert len(questions) == 1000 and not result.problems
    assert Counter(q.kind for q in questions) == {"choice": 850, "truefalse": 150}
    assert Counter(q.difficulty for q in questions) == {"easy": 349, "medium": 456, "hard": 195}
    assert len({q.category for q in questions}) == 24
    assert "Science & Nature" in {q.category for q in questions}
    texts = [q.prompt for q in questions] + [o for q in questions for o in q.options]
    assert not any("&quot;" in t or "&#039;" in t or "&amp;" in t for t in texts)
    assert not any("\u00ad" in t or "\u200e" in t or t != t.strip() or "  " in t for t in texts)
    assert any('"Panic! At the Disco"' in q.prompt for q in questions)
    choice = [q for q in questions if q.kind == "choice"]
    assert all(len(q.options) == 4 and q.correct is not None for q in choice)
    assert len({q.correct for q in choice}) == 4  # the right answer is not always in the same place
    repeated = [d for d in find_duplicates(questions) if d.first.prompt == d.second.prompt]
    assert len(repeated) == 1  # SOURCE.md: "One question text appears twice."
    assert round_trip(tmp_path, questions, "opentdb", "o.json") == questions


@pytest.mark.parametrize("encoding", ["html", "url3986", "base64", "none"])
def test_opentdb_encodings_round_trip_and_are_detected(tmp_path: Path, encoding: str) -> None:
    questions = [
        Question(
            id="opentdb-0001",
            kind="choice",
            prompt='Who wrote "Cien años de soledad" & more?',
            options=("García Márquez", "Borges", "Cortázar", "Neruda"),
            correct=0,
            category="Art & Books",
            difficulty="hard",
        ),
        Question(
            id="opentdb-0002",
            kind="truefalse",
            prompt="50% of 10 is 5 — ¿sí?",
            answer="true",
            category="Math",
            difficulty="easy",
        ),
    ]
    text = write_opentdb(questions, encoding=encoding).text
    if encoding == "base64":
        assert "Y2hvaWNl" not in text and "bXVsdGlwbGU=" in text
    if encoding == "url3986":
        assert "%20" in text
    path = tmp_path / "x.json"
    path.write_text(text, encoding="utf-8")
    again = read_opentdb(path).questions  # auto-detected
    assert [(q.kind, q.prompt, q.options and q.options[q.correct or 0], q.category) for q in again] == [
        ("choice", questions[0].prompt, "García Márquez", "Art & Books"),
        ("truefalse", questions[1].prompt, (), "Math"),
    ]
    assert read_opentdb(path, encoding=encoding).questions == again


def test_opentdb_reports_what_it_cannot_read(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            {
                "response_code": 0,
                "results": [
                    {
                        "type": "essay",
                        "difficulty": "easy",
                        "category": "x",
                        "question": "Why?",
                        "correct_answer": "Because",
                        "incorrect_answers": [],
                    },
                    {"type": "boolean", "difficulty": "easy", "category": "x", "question": "Q?"},
                ],
            }
        )
    )
    result = read_opentdb(path)
    assert not result.questions
    assert [p.field for p in result.problems] == ["results[0]", "results[1]"]
    assert "essay" in result.problems[0].message and "correct_answer" in result.problems[1].message
    assert read_opentdb(b"{not json").problems[0].severity == "error"


def test_opentdb_export_reports_questions_it_cannot_hold() -> None:
    free_text = Question(id="t", kind="text", prompt="Capital of Peru?", answer="LIMA")
    result = write_opentdb([free_text])
    assert json.loads(result.text)["results"] == []
    assert "skipped" in result.problems[0].message


# --- OpenTriviaQA ---------------------------------------------------------------------------------------


@pytest.mark.shared_data
@pytest.mark.parametrize("name", sorted(OTQA_FILES))
def test_opentriviaqa_real_files(shared: Path, tmp_path: Path, name: str) -> None:
    path = shared / "opentriviaqa" / name
    result = read_opentriviaqa(path)
    count, true_false = OTQA_FILES[name]
    assert len(result.questions) == count
    assert sum(q.kind == "truefalse" for q in result.questions) == true_false
    assert all(q.category == name for q in result.questions)
    assert all(q.kind in ("choice", "truefalse") for q in result.questions)
    assert not any("\r" in q.prompt or q.prompt != q.prompt.strip() for q in result.questions)
    if name == "video-games":
        assert [p.line for p in result.problems] == [1199, 1206]
        assert all("Windows-1252" in p.message for p in result.problems)
        assert any("“Nightsabre Panthers”" in q.prompt for q in result.questions)
    else:
        assert not result.problems
    again = round_trip(tmp_path, result.questions, "opentriviaqa", name, category=name, prefix=name)
    assert again == result.questions


@pytest.mark.shared_data
def test_opentriviaqa_multiline_questions_are_not_options(shared: Path) -> None:
    questions = read_opentriviaqa(shared / "opentriviaqa" / "brain-teasers").questions
    multi = [q for q in questions if "\n" in q.prompt]
    assert len(multi) == 24
    assert any(line.startswith("A visitor") for q in multi for line in q.prompt.split("\n")[1:])
    assert any("\u0430" in q.prompt for q in questions)  # the Cyrillic homoglyph is kept as written


def test_opentriviaqa_reports_broken_blocks() -> None:
    result = read_opentriviaqa(b"\n#Q No answer here\nA one\n\n#Q Fine?\n^ Yes\nA Yes\nB No\n")
    assert [q.prompt for q in result.questions] == ["Fine?"]
    assert result.problems[0].line == 2 and "'^'" in result.problems[0].message


# --- Moodle GIFT ----------------------------------------------------------------------------------------


@pytest.mark.shared_data
def test_gift_examples(shared: Path, tmp_path: Path) -> None:
    result = read_gift(shared / "gift" / "examples.txt")
    questions = result.questions
    skipped = [p for p in result.problems if "skipped" in p.message]
    assert len(questions) + len(skipped) == 43  # every block is imported or reported
    assert {p.severity for p in result.problems} == {"unsupported"}
    assert sum("matching" in p.message for p in skipped) == 3
    by_prompt = {q.prompt: q for q in questions}
    tomb = by_prompt["Grant is _____ in Grant's tomb."]
    assert tomb.kind == "choice" and tomb.options[tomb.correct or 0] == "entombed"
    born = next(q for q in questions if q.kind == "number" and q.tolerance == 1)
    assert born.value == 1822
    pi = [q for q in questions if q.kind == "number" and q.value == pytest.approx(3.1415)]
    assert len(pi) == 2 and all(q.tolerance == pytest.approx(0.0005) for q in pi)
    assert judge_answer(pi[0], "3.141").correct and not judge_answer(pi[0], "3.14").correct
    two = by_prompt["Two plus two equals"]
    assert two.answer == "four" and two.accepted == ("4",)
    control = next(q for q in questions if q.id == "GIFT Control Characters")
    assert control.options == ("~", "=", "#", "{", "}", "\\") and control.correct == 5
    assert next(q for q in questions if q.id == "Kanji Origins").answer == "China"
    assert any("partial credit" in p.message and "half credit answer" in p.message for p in result.problems)
    assert any("[markdown]" in p.message for p in result.problems)
    assert round_trip(tmp_path, questions, "gift", "g.gift") == questions


@pytest.mark.shared_data
def test_gift_moodle_fixture(shared: Path, tmp_path: Path) -> None:
    result = read_gift(shared / "gift" / "questions.gift.txt")
    ids = [q.id for q in result.questions]
    assert ids[:4] == ["Q2", "Q5", "Shortanswer", "Q1"]
    assert len(ids) == 6 and len(set(ids)) == 6  # the repeated title '2-08 TSL' does not give a repeated id
    messages = " | ".join(f"{p.line}: {p.message}" for p in result.problems)
    for expected in ("2: essay", "5: matching", "22: multiple-answer", "'Cat' (50%)", "catch-all", "'\";'"):
        assert expected in messages
    short = next(q for q in result.questions if q.id == "Shortanswer")
    assert short.answer == "Frog" and not short.accepted
    q1 = next(q for q in result.questions if q.id == "Q1")
    assert q1.truth is False and "Hitchiker" in q1.note
    q5 = next(q for q in result.questions if q.id == "Q5")
    assert (q5.value, q5.tolerance) == (3, 2)
    assert round_trip(tmp_path, result.questions, "gift", "f.gift") == result.questions


def test_gift_writes_everything_it_can_and_reports_the_rest(tmp_path: Path) -> None:
    questions = [
        Question(
            id="a",
            kind="text",
            prompt="Capital: of {Peru}?",
            answer="LIMA",
            accepted=("Lima city",),
            rejected=("Cusco",),
            category="geo",
        ),
        Question(id="b", kind="number", prompt="Height?", value=6961, tolerance_pct=1, unit="m", category="geo"),
        Question(id="c", kind="list", prompt="Name two.", items=("x", "y"), count=2),
        Question(
            id="d", kind="choice", prompt="The _____ is the largest ocean.", options=("Pacific", "Atlantic"), correct=0
        ),
    ]
    result = write_gift(questions)
    assert "\\{Peru\\}" in result.text and "=%0%Cusco" in result.text and "$CATEGORY: geo" in result.text
    assert "The {=Pacific ~Atlantic} is the largest ocean." in result.text
    messages = [p.message for p in result.problems]
    assert any("skipped" in m for m in messages) and any("unit" in m for m in messages)
    path = tmp_path / "w.gift"
    path.write_text(result.text, encoding="utf-8")
    again = {q.id: q for q in read_gift(path).questions}
    assert again["a"] == questions[0]
    assert again["d"] == questions[3]
    assert again["b"].tolerance == pytest.approx(69.61)


# --- Mintaka --------------------------------------------------------------------------------------------


@pytest.mark.shared_data
@pytest.mark.parametrize("language", ["en", "es"])
def test_mintaka_real_file(shared: Path, tmp_path: Path, language: str) -> None:
    path = shared / "mintaka" / "mintaka_dev_v1.0_first300.json"
    result = read_mintaka(path, language=language)
    questions = result.questions
    assert len(questions) == 300
    assert all(q.language == language for q in questions)
    assert sum(q.kind == "truefalse" for q in questions) == 58
    first = questions[0]
    if language == "es":
        assert first.prompt == "¿Cuál es el cuarto libro de la saga Crepúsculo?"
    else:
        assert first.prompt == "What is the fourth book in the Twilight series?"
    assert first.answer == "Breaking Dawn" and judge_answer(first, "breaking dawn").correct
    assert [p.field for p in result.problems if p.field] == ["[297] id c5fafd00"]
    assert "mention" in result.problems[0].message
    english = [p for p in result.problems if "English answer names" in p.message]
    assert len(english) == (1 if language == "es" else 0)
    numbers = [q for q in questions if q.kind == "number"]
    assert numbers and all(q.value is not None for q in numbers)
    lists = [q for q in questions if q.kind == "list"]
    assert lists and all(q.count == len(q.items) == len(set(q.items)) for q in lists)
    # "how many" questions are numbers (Mintaka lists the things counted): all 35 of them
    counting = [q for q in questions if q.extra["mintaka"]["complexityType"] == "count"]
    assert len(counting) == 35 and all(q.kind == "number" for q in counting)
    by_id = {q.id: q for q in questions}
    bruce = next(q for q in counting if "Bruce Willis" in q.extra["mintaka"]["question"])
    assert bruce.value == 117 and judge_answer(bruce, "117").correct
    # dates: the ISO answer accepts the date written out in the question's language, and the year
    born = next(q for q in questions if q.answer == "1956-10-20")
    written = "20 de octubre de 1956" if language == "es" else "20 October 1956"
    assert judge_answer(born, written).correct and judge_answer(born, "1956").correct
    assert not judge_answer(born, written.replace("20", "21", 1)).correct
    if language == "es":
        assert by_id[first.id].note.startswith("The answers are Mintaka's English names")
    assert round_trip(tmp_path, questions, "mintaka", "m.json", language=language) == questions
    exported = json.loads(write_mintaka(questions).text)
    original = json.loads(path.read_text(encoding="utf-8"))
    assert exported == original  # the records come back exactly


def test_mintaka_answers_are_one_answer_each_and_repeated_items_count_once() -> None:
    records = [
        {
            "id": "a1",
            "question": "Which two countries share the Torne river?",
            "answer": {
                "answerType": "entity",
                "answer": [{"name": "Q1", "label": "Sweden / Finland"}],
                "mention": None,
            },
            "complexityType": "generic",
        },
        {
            "id": "a2",
            "question": "Which bands did X play in?",
            "answer": {
                "answerType": "entity",
                "answer": [{"label": "Alpha|Beta"}, {"label": "Gamma"}, {"label": "Gamma"}],
                "mention": None,
            },
            "complexityType": "generic",
        },
    ]
    result = read_mintaka(json.dumps(records))
    torne, bands = result.questions
    assert torne.kind == "text" and not judge_answer(torne, "Sweden").correct
    assert judge_answer(torne, "Sweden / Finland").correct and judge_answer(torne, "Sweden Finland").correct
    assert bands.kind == "list" and bands.items == ("Alpha/Beta", "Gamma") and bands.count == 2
    assert not judge_answer(bands, "Alpha, Gamma").correct and judge_answer(bands, "Alpha Beta, Gamma").correct
    assert [p.message for p in result.problems] == ["1 repeated answer item(s) named once"]


def test_mintaka_writes_questions_from_other_sources() -> None:
    q = Question(id="x", kind="number", prompt="How many?", value=3, category="music")
    record = json.loads(write_mintaka([q]).text)[0]
    assert record["answer"] == {"answerType": "numerical", "answer": [3], "mention": "3"}


# --- CSV ------------------------------------------------------------------------------------------------


def test_csv_rows_with_problems_reported_per_line(tmp_path: Path) -> None:
    path = tmp_path / "sheet.csv"
    path.write_text(
        "Question;Answer;options;correct;colour\n"
        "¿Capital de Perú?;LIMA;;;red\n"
        "¿Verdad?;true;;;\n"
        "¿Cuál?;;Lima | Quito;b;\n"
        "Sin respuesta;;;;\n",
        encoding="utf-8",
    )
    result = read_csv(path, language="es")
    assert [q.kind for q in result.questions] == ["text", "truefalse", "choice"]
    assert result.questions[2].correct == 1 and result.questions[0].language == "es"
    assert [(p.line, p.severity) for p in result.problems] == [(1, "unsupported"), (5, "error")]
    assert "colour" in result.problems[0].message and result.problems[1].field == "answer"


def test_csv_round_trip_of_the_shipped_banks(tmp_path: Path) -> None:
    for ref in sorted(shipped_bank_dir().rglob("*.yaml")):
        questions = load_bank(ref).questions
        text = write_csv(questions).text
        path = tmp_path / (ref.parent.name + ".csv")
        path.write_text(text, encoding="utf-8")
        assert read_csv(path).questions == questions


def test_detect_format(tmp_path: Path) -> None:
    samples = {
        "a.json": '{"results": []}',
        "b.json": '[{"id": "1", "question": "q", "translations": {}}]',
        "c.txt": "\n#Q Hi?\n^ A\nA A\nB B\n",
        "d.txt": "Hi? {=yes}\n",
        "e.csv": "question,answer\n",
        "f.yaml": "questions: []\n",
    }
    found = {}
    for name, text in samples.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        found[name] = detect_format(tmp_path / name)
    assert found == {
        "a.json": "opentdb",
        "b.json": "mintaka",
        "c.txt": "opentriviaqa",
        "d.txt": "gift",
        "e.csv": "csv",
        "f.yaml": "yaml",
    }


def test_unknown_format_or_option_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown format"):
        export_questions([], "xml")
    with pytest.raises(ValueError, match="no option 'colour'"):
        import_questions(tmp_path / "x.csv", "csv", colour="red")


def test_writers_accept_an_empty_list() -> None:
    for writer in (write_csv, write_gift, write_mintaka, write_opentdb, write_opentriviaqa):
        assert writer([]).problems == []
