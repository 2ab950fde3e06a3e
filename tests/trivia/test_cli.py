"""``mindtable questions …`` through Typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
import typer
from typer.testing import CliRunner

from mindtable.trivia import ENV_VAR, load_bank

runner = CliRunner()


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, questions_cli: ModuleType) -> typer.Typer:
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    main = typer.Typer()

    @main.callback()
    def _root() -> None:
        """test root"""

    questions_cli.register(main)
    return main


def test_validate_the_shipped_banks(app: typer.Typer) -> None:
    result = runner.invoke(app, ["questions", "validate"])
    assert result.exit_code == 0, result.output
    assert "valid: 3 files" in result.output and "0 errors" in result.output


def test_validate_reports_file_line_field_and_fails(app: typer.Typer, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("questions:\n  - id: a\n    question: Hi?\n    answr: A\n", encoding="utf-8")
    result = runner.invoke(app, ["questions", "validate", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:4: questions[0].answr: unknown field 'answr'" in result.output
    assert "invalid" in result.output


def test_validate_finds_duplicates_across_files(app: typer.Typer, tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.yaml").write_text(
            f"questions:\n  - id: {name}1\n    question: What is the capital of Peru?\n    answer: LIMA\n",
            encoding="utf-8",
        )
    result = runner.invoke(app, ["questions", "validate", str(tmp_path)])
    assert result.exit_code == 1
    assert "'b1' is a duplicate of 'a1'" in result.output
    assert runner.invoke(app, ["questions", "validate", str(tmp_path), "--no-duplicates"]).exit_code == 0


def test_validate_unknown_bank_name(app: typer.Typer) -> None:
    result = runner.invoke(app, ["questions", "validate", "no-such-bank"])
    assert result.exit_code == 1 and "no bank called 'no-such-bank'" in result.output


def test_import_reports_unsupported_parts_and_writes_a_valid_bank(app: typer.Typer, tmp_path: Path) -> None:
    source = tmp_path / "quiz.gift"
    source.write_text("Capital of Peru? {=Lima =%50%Cusco}\n\nEssay? {}\n\n2+2 = {#4}\n", encoding="utf-8")
    out = tmp_path / "out" / "quiz.yaml"
    result = runner.invoke(app, ["questions", "import", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "partial-credit answer 'Cusco' (50%) left out" in result.output
    assert "essay question" in result.output
    assert "imported 2 questions" in result.output
    assert [q.kind for q in load_bank(out).questions] == ["text", "number"]
    again = runner.invoke(app, ["questions", "import", str(source), "-o", str(out)])
    assert again.exit_code == 2 and "--force" in again.output
    strict = runner.invoke(app, ["questions", "import", str(source), "-o", str(out), "--force", "--strict"])
    assert strict.exit_code == 1


def test_import_mintaka_in_spanish_needs_the_language_option(app: typer.Typer, tmp_path: Path) -> None:
    source = tmp_path / "m.json"
    source.write_text(
        json.dumps(
            [
                {
                    "id": "1",
                    "question": "Is it?",
                    "translations": {"es": "¿Lo es?"},
                    "answer": {"answerType": "boolean", "answer": [True], "mention": "Yes"},
                    "category": "x",
                    "complexityType": "yesno",
                }
            ]
        ),
        encoding="utf-8",
    )
    out = tmp_path / "m.yaml"
    result = runner.invoke(app, ["questions", "import", str(source), "-o", str(out), "--language", "es"])
    assert result.exit_code == 0, result.output
    assert load_bank(out).questions[0].prompt == "¿Lo es?"
    bad = runner.invoke(app, ["questions", "import", str(source), "-o", str(tmp_path / "n.yaml"), "--encoding", "html"])
    assert bad.exit_code == 2 and "no --encoding option" in bad.output


def test_import_of_an_unknown_format(app: typer.Typer, tmp_path: Path) -> None:
    source = tmp_path / "notes.txt"
    source.write_text("just some notes\n", encoding="utf-8")
    result = runner.invoke(app, ["questions", "import", str(source), "-o", str(tmp_path / "x.yaml")])
    assert result.exit_code == 2 and "cannot tell the format" in result.output


@pytest.mark.parametrize("fmt", ["gift", "opentdb", "opentriviaqa", "mintaka", "csv", "yaml"])
def test_export_every_format_and_import_back(app: typer.Typer, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"en.{fmt}"
    result = runner.invoke(app, ["questions", "export", "en/general", "-f", fmt, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "exported" in result.output
    back = tmp_path / "back.yaml"
    imported = runner.invoke(app, ["questions", "import", str(out), "-f", fmt, "-o", str(back)])
    assert imported.exit_code == 0, imported.output
    assert load_bank(back).questions


def test_export_reports_what_the_format_cannot_hold(app: typer.Typer, tmp_path: Path) -> None:
    out = tmp_path / "en.json"
    result = runner.invoke(
        app, ["questions", "export", "en/general", "-f", "opentdb", "-o", str(out), "--encoding", "base64"]
    )
    assert result.exit_code == 0
    assert "cannot be written to Open Trivia DB: skipped" in result.output
    assert json.loads(out.read_text(encoding="utf-8"))["results"][0]["type"] in ("bXVsdGlwbGU=", "Ym9vbGVhbg==")
    strict = runner.invoke(
        app, ["questions", "export", "en/general", "-f", "opentdb", "-o", str(out), "--force", "--strict"]
    )
    assert strict.exit_code == 1
    assert (
        runner.invoke(app, ["questions", "export", "en/general", "-f", "xml", "-o", str(tmp_path / "x")]).exit_code == 2
    )


def test_stats_tables(app: typer.Typer) -> None:
    result = runner.invoke(app, ["questions", "stats", "--language", "es"])
    assert result.exit_code == 0, result.output
    for title in ("Questions per category", "Questions per language", "Questions per kind", "Questions per difficulty"):
        assert title in result.output
    assert "geography" in result.output and "truefalse" in result.output
    assert "no duplicates" in result.output


def test_stats_lists_near_duplicates(app: typer.Typer, tmp_path: Path) -> None:
    bank = tmp_path / "b.yaml"
    bank.write_text(
        "questions:\n"
        "  - {id: a, question: What is the capital city of Peru?, answer: LIMA}\n"
        "  - {id: b, question: What is the capital of Peru?, answer: Lima}\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["questions", "stats", str(bank)])
    assert result.exit_code == 0
    assert "Duplicates and near-duplicates" in result.output and "near" in result.output


def test_judge_command(app: typer.Typer) -> None:
    ok = runner.invoke(app, ["questions", "judge", "Simón BOLÍVAR", "bolivar", "--language", "es"])
    assert ok.exit_code == 0 and "correct" in ok.output
    strict = runner.invoke(app, ["questions", "judge", "CANBERRA", "Canbera", "--rule", "typos=strict"])
    assert strict.exit_code == 1 and "wrong" in strict.output
    bad = runner.invoke(app, ["questions", "judge", "x", "x", "--rule", "typos=sloppy"])
    assert bad.exit_code == 2 and "typos" in bad.output


def test_path_command_shows_the_search_path(app: typer.Typer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "ours"))
    result = runner.invoke(app, ["questions", "path"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert str(tmp_path / "ours") in lines[0] and "(missing)" in lines[0]
    assert "en/general" in result.output


def test_the_main_app_has_the_questions_group() -> None:
    try:
        from mindtable.cli.app import app as main_app
    except ImportError as exc:  # another command group may be mid-change; this module is tested above
        pytest.skip(f"the main mindtable CLI cannot be imported right now: {exc}")
    result = runner.invoke(main_app, ["questions", "--help"])
    assert result.exit_code == 0 and "validate" in result.output
