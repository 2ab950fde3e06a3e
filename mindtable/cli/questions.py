"""``mindtable questions``: validate, import, export and study question banks.

Problems are printed one per line as ``severity file:line: field: message``. Exit codes: 0 = fine (warnings
and unsupported parts may have been reported), 1 = errors (or, with ``--strict``, any problem), 2 = bad usage.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from mindtable.trivia.bank import (
    BANK_SUFFIXES,
    BankError,
    Problem,
    dump_bank,
    find_banks,
    resolve_bank,
    search_path,
    validate_bank,
)
from mindtable.trivia.formats import FORMATS, detect_format, export_questions, import_questions
from mindtable.trivia.judge import JUDGE_OPTIONS, judge_answer
from mindtable.trivia.model import Question
from mindtable.trivia.sets import QuestionSet, fit, quiz_profiles, validate_set
from mindtable.trivia.stats import bank_stats, find_duplicates

questions_app = typer.Typer(
    name="questions",
    help="Validate, import, export and study question banks.",
    no_args_is_help=True,
)

_SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "unsupported": "magenta"}


def _console() -> Console:
    return Console(highlight=False, soft_wrap=True)


def _print_problems(console: Console, problems: Sequence[Problem]) -> None:
    for p in problems:
        style = _SEVERITY_STYLE.get(p.severity, "")
        console.print(f"[{style}]{p.severity}[/] {escape(str(p))}")


def _exit_code(problems: Sequence[Problem], strict: bool) -> int:
    if any(p.severity == "error" for p in problems):
        return 1
    return 1 if strict and problems else 0


def _bank_files(targets: Sequence[str]) -> tuple[list[Path], list[Problem]]:
    """Files named by ``targets`` (files, directories or bank names); all banks on the search path if none."""
    if not targets:
        return [ref.path for ref in find_banks()], []
    files: list[Path] = []
    problems: list[Problem] = []
    for target in targets:
        path = Path(target)
        if path.is_dir():
            files.extend(sorted(f for s in BANK_SUFFIXES for f in path.rglob(f"*{s}")))
        elif path.is_file():
            files.append(path)
        else:
            try:
                files.append(resolve_bank(target))
            except BankError as exc:
                problems.extend(exc.problems)
    return files, problems


_SET_FILE = re.compile(r"^(?:booklet|cards)[ \t]*:", re.MULTILINE)


def _is_set_file(file: Path) -> bool:
    """Whether ``file`` is a booklet or a card set (``mindtable.trivia.sets``) rather than a plain bank."""
    try:
        return bool(_SET_FILE.search(file.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError):
        return False


def _load(targets: Sequence[str]) -> tuple[list[Question], list[Problem], int]:
    files, problems = _bank_files(targets)
    questions: list[Question] = []
    for file in files:
        if _is_set_file(file):
            qset, found = validate_set(file)
            problems.extend(found)
            if qset is not None:
                questions.extend(qset.questions)
            continue
        bank, found = validate_bank(file)
        problems.extend(found)
        if bank is not None:
            questions.extend(bank.questions)
    return questions, problems, len(files)


def _duplicate_problems(questions: Sequence[Question]) -> list[Problem]:
    out = []
    for d in find_duplicates(questions):
        where = d.second.origin
        what = "duplicate of" if d.exact else f"near-duplicate ({d.score:.0f}%) of"
        message = f"question {d.second.id!r} is a {what} {d.first.id!r} ({d.first.origin})"
        out.append(Problem(where.file, where.line, "", message, "error" if d.exact else "warning"))
    return out


@questions_app.command("validate")
def validate_command(
    banks: Annotated[list[str] | None, typer.Argument(help="bank files, folders or names (default: all)")] = None,
    duplicates: Annotated[bool, typer.Option(help="also look for duplicates and near-duplicates")] = True,
    strict: Annotated[bool, typer.Option(help="fail on warnings too")] = False,
) -> None:
    """Check bank files against the schema; every problem names the file, line and field."""
    console = _console()
    questions, problems, n_files = _load(banks or [])
    if duplicates:
        problems.extend(_duplicate_problems(questions))
    _print_problems(console, problems)
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    verdict = "[bold red]invalid[/]" if errors else "[green]valid[/]"
    console.print(f"{verdict}: {n_files} files, {len(questions)} questions, {errors} errors, {warnings} warnings")
    raise typer.Exit(_exit_code(problems, strict))


@questions_app.command("import")
def import_command(
    source: Annotated[Path, typer.Argument(help="the file to import", exists=True, dir_okay=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="the bank file to write (.yaml)")],
    fmt: Annotated[str | None, typer.Option("--format", "-f", help=f"one of {', '.join(FORMATS)}")] = None,
    language: Annotated[str | None, typer.Option(help="language of the questions (Mintaka: which one)")] = None,
    category: Annotated[str | None, typer.Option(help="category for every question")] = None,
    encoding: Annotated[str | None, typer.Option(help="Open Trivia DB: auto, html, url3986, base64")] = None,
    title: Annotated[str, typer.Option(help="title of the bank")] = "",
    strict: Annotated[bool, typer.Option(help="fail when any part could not be imported")] = False,
    force: Annotated[bool, typer.Option(help="overwrite the output file")] = False,
) -> None:
    """Import a third-party file into a mindtable bank file, reporting every part that was left out."""
    console = _console()
    name = fmt or detect_format(source)
    if name is None or name not in FORMATS:
        console.print(f"[red]error[/] cannot tell the format of {source}; use --format ({', '.join(FORMATS)})")
        raise typer.Exit(2)
    if output.exists() and not force:
        console.print(f"[red]error[/] {output} exists; use --force to overwrite it")
        raise typer.Exit(2)
    options: dict[str, Any] = {}
    for key, value in (("language", language), ("category", category), ("encoding", encoding)):
        if value is not None:
            if key not in FORMATS[name].reader_options:
                console.print(f"[red]error[/] the {name} importer has no --{key} option")
                raise typer.Exit(2)
            options[key] = value
    result = import_questions(source, name, **options)
    _print_problems(console, result.problems)
    if result.questions:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(dump_bank(result.questions, title=title or source.stem), encoding="utf-8")
    counts = Counter(p.severity for p in result.problems)
    summary = ", ".join(f"{n} {sev}" for sev, n in sorted(counts.items())) or "no problems"
    console.print(f"imported {len(result.questions)} questions from {source} ({name}) into {output}: {summary}")
    code = _exit_code(result.problems, strict)
    raise typer.Exit(code if result.questions else 1)


@questions_app.command("export")
def export_command(
    banks: Annotated[list[str], typer.Argument(help="bank files, folders or names")],
    output: Annotated[Path, typer.Option("--output", "-o", help="the file to write")],
    fmt: Annotated[str, typer.Option("--format", "-f", help=f"one of {', '.join(FORMATS)}")],
    encoding: Annotated[str | None, typer.Option(help="Open Trivia DB: html, url3986, base64, none")] = None,
    strict: Annotated[bool, typer.Option(help="fail when any question could not be written")] = False,
    force: Annotated[bool, typer.Option(help="overwrite the output file")] = False,
) -> None:
    """Export banks to a third-party format, reporting every question or part the format cannot hold."""
    console = _console()
    if fmt not in FORMATS:
        console.print(f"[red]error[/] unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
        raise typer.Exit(2)
    if output.exists() and not force:
        console.print(f"[red]error[/] {output} exists; use --force to overwrite it")
        raise typer.Exit(2)
    questions, problems, _ = _load(banks)
    if any(p.severity == "error" for p in problems):
        _print_problems(console, problems)
        console.print("[bold red]not exported[/]: fix the bank problems first")
        raise typer.Exit(1)
    options: dict[str, Any] = {}
    if encoding is not None:
        if "encoding" not in FORMATS[fmt].writer_options:
            console.print(f"[red]error[/] the {fmt} exporter has no --encoding option")
            raise typer.Exit(2)
        options["encoding"] = encoding
    try:
        result = export_questions(questions, fmt, **options)
    except ValueError as exc:
        console.print(f"[red]error[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    _print_problems(console, result.problems)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(result.text, encoding="utf-8")
    skipped = sum("skipped" in p.message for p in result.problems)
    console.print(f"exported {len(questions) - skipped} of {len(questions)} questions to {output} ({fmt})")
    raise typer.Exit(_exit_code(result.problems, strict))


def _count_table(title: str, counts: Mapping[str, int], total: int, unit: str = "Questions") -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(title.split(" ")[-1].capitalize())
    table.add_column(unit, justify="right")
    table.add_column("Share", justify="right")
    for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        table.add_row(escape(key), str(n), f"{100 * n / total:.0f}%" if total else "-")
    return table


@questions_app.command("stats")
def stats_command(
    banks: Annotated[list[str] | None, typer.Argument(help="bank files, folders or names (default: all)")] = None,
    language: Annotated[str | None, typer.Option(help="only questions in this language")] = None,
    threshold: Annotated[float, typer.Option(help="near-duplicate similarity (percent)")] = 88.0,
) -> None:
    """Counts per category, language, kind and difficulty, and duplicate / near-duplicate questions."""
    console = _console()
    questions, problems, n_files = _load(banks or [])
    if language:
        questions = [q for q in questions if q.language == language]
    _print_problems(console, problems)
    stats = bank_stats(questions)
    console.print(f"{stats.total} questions in {n_files} files")
    for title, counts in (
        ("Questions per category", stats.by_category),
        ("Questions per language", stats.by_language),
        ("Questions per kind", stats.by_kind),
        ("Questions per difficulty", stats.by_difficulty),
    ):
        console.print(_count_table(title, counts, stats.total))
    _print_cards(console, banks or [], language)
    duplicates = find_duplicates(questions, threshold=threshold)
    if duplicates:
        table = Table(title="Duplicates and near-duplicates", title_justify="left")
        for column in ("First", "Second", "Similarity", "Kind"):
            table.add_column(column)
        for d in duplicates:
            table.add_row(
                f"{escape(d.first.id)} ({escape(str(d.first.origin))})",
                f"{escape(d.second.id)} ({escape(str(d.second.origin))})",
                f"{d.score:.0f}%",
                "duplicate" if d.exact else "near",
            )
        console.print(table)
    else:
        console.print("no duplicates")
    raise typer.Exit(_exit_code(problems, False))


def _print_cards(console: Console, targets: Sequence[str], language: str | None) -> None:
    """For the games' set files: cards per type and per pack (cards), cards (category cards), and booklet
    numbers by how many of their three questions they hold (booklets, merged across a booklet's files)."""
    files, _ = _bank_files(targets)
    by_type: Counter[str] = Counter()
    by_pack: Counter[str] = Counter()
    slots: dict[tuple[str, str, int], int] = {}
    category_cards: Counter[str] = Counter()
    for file in files:
        if not _is_set_file(file):
            continue
        qset, _problems = validate_set(file)
        if qset is None or (language and qset.language != language):
            continue
        for card in qset.cards:
            if qset.shape == "booklet":
                key = (qset.language, qset.topic, int(card.extra.get("number", 0)))
                slots[key] = slots.get(key, 0) + len(card.questions)
            elif qset.shape == "category_cards":
                category_cards[qset.language] += 1
            else:
                by_type[f"{qset.language} {card.type}"] += 1
                if card.pack:
                    by_pack[f"{qset.language} pack {card.pack}"] += 1
    if by_type:
        total = sum(by_type.values())
        console.print(_count_table("Cards per language and type", by_type, total, "Cards"))
        console.print(_count_table("Cards per language and pack", by_pack, total, "Cards"))
    if category_cards:
        total = sum(category_cards.values())
        console.print(_count_table("Question cards per language", category_cards, total, "Cards"))
    if slots:
        held: Counter[str] = Counter()
        for (lang, topic, _number), count in slots.items():
            held[f"{lang} {topic}: {min(count, 3)} of 3"] += 1
        console.print(_count_table("Booklet numbers by questions held", held, len(slots), "Numbers"))


@questions_app.command("path")
def path_command() -> None:
    """Show the bank search path (MINDTABLE_QUESTION_PATH, the user folder, the shipped banks) and the banks."""
    console = _console()
    for n, entry in enumerate(search_path(), start=1):
        state = "" if entry.is_dir() else " (missing)"
        console.print(f"{n}. {escape(str(entry))}{state}")
    for ref in find_banks():
        console.print(f"   {escape(ref.name)}  {escape(str(ref.path))}")


@questions_app.command("judge")
def judge_command(
    accepted: Annotated[str, typer.Argument(help="the answer as printed, e.g. 'Simón BOLÍVAR (the Liberator)'")],
    given: Annotated[str, typer.Argument(help="the answer given")],
    language: Annotated[str, typer.Option(help="en, es or et")] = "en",
    person: Annotated[bool, typer.Option(help="the answer is a person's name")] = False,
    rule: Annotated[list[str] | None, typer.Option(help="a house rule, name=value (repeatable)")] = None,
) -> None:
    """Try the answer judge: prints the verdict and why. Exit code 0 if accepted, 1 if not."""
    console = _console()
    rules: dict[str, str] = {}
    for item in rule or []:
        name, sep, value = item.partition("=")
        if not sep:
            names = ", ".join(o.name for o in JUDGE_OPTIONS)
            console.print(f"[red]error[/] --rule needs name=value; rules: {names}")
            raise typer.Exit(2)
        rules[name.strip()] = value.strip()
    try:
        verdict = judge_answer(accepted, given, language=language, person=person, **rules)
    except ValueError as exc:
        console.print(f"[red]error[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    mark = "[green]correct[/]" if verdict.correct else "[red]wrong[/]"
    console.print(f"{mark}: {escape(verdict.reason)}")
    raise typer.Exit(0 if verdict.correct else 1)


@questions_app.command("fit")
def fit_command(
    banks: Annotated[list[str], typer.Argument(help="bank or set files, folders or bank names")],
    game: Annotated[str, typer.Option("--game", help="the quiz game (a game that declares a quiz profile)")],
    per_game: Annotated[
        int | None, typer.Option(help="units one game uses (questions per topic, cards, cards per type)", min=1)
    ] = None,
    seed: Annotated[int, typer.Option(help="seed for numbering and dealing generated booklets and cards")] = 0,
    language: Annotated[str | None, typer.Option(help="only sets in this language (en, es, et)")] = None,
) -> None:
    """How many full games of a quiz game the banks can feed without repeating a question.

    Sets already in the game's shape (booklets, category cards, typed cards) count as they are; plain
    questions are made into that shape through the game's topic mapping (docs/trivia.md). Exit code 0 when
    at least one full game fits, 1 when none does, 2 on bad usage or invalid files.
    """
    console = _console()
    profiles = quiz_profiles()
    if game not in profiles:
        console.print(f"[red]error[/] no quiz profile for {escape(game)!r}; quiz games: {', '.join(profiles)}")
        raise typer.Exit(2)
    files, problems = _bank_files(banks)
    sets: list[QuestionSet] = []
    for file in files:
        qset, found = validate_set(file)
        problems.extend(found)
        if qset is not None and (language is None or qset.language == language):
            sets.append(qset)
    _print_problems(console, problems)
    if any(p.severity == "error" for p in problems):
        raise typer.Exit(2)
    report = fit(sets, profiles[game], per_game=per_game, seed=seed)
    table = Table(title=f"{game}: {report.note}", title_justify="left")
    for column in ("Unit", "Available", "Per game", "Games"):
        table.add_column(column, justify="left" if column == "Unit" else "right")
    for unit, available, need, games in report.rows:
        table.add_row(escape(unit), str(available), str(need), str(games))
    console.print(table)
    made = " (plain questions made into the game's shape)" if report.generated else ""
    console.print(f"{len(files)} files{made}: [bold]{report.games}[/] full games of {game} without a repeat")
    raise typer.Exit(0 if report.games > 0 else 1)


def register(app: typer.Typer) -> None:
    """Add the ``questions`` command group to the main app."""
    app.add_typer(questions_app, name="questions")
