"""The files behind file options (``Option.file``): what a host offers and what a group brings.

A web client never names a server path. A game option that names a file (Carrera de Mente's ``bank_file`` and
``board_file``, Eesti mälumäng's ``board_file``, Caída Libre's ``board``) takes, from a client, one of:

* ``""`` — the game's own content;
* ``"host:NAME"`` — a file or folder the host offers: ``mindtable serve --content DIR`` (repeatable) names
  folders at start-up; every file in them (and every folder holding bank files) that a game accepts for that
  option is listed by ``GET /api/games`` (``options[].offered``) under its path relative to its folder,
  without the suffix;
* ``"upload:ID"`` — a file the room's creator sent to ``POST /api/uploads`` (checked in a separate process
  with a time and memory limit, size-capped, stored in the database and usable only by that sender for a new
  room, then only by that room and its rematches).

The match keeps that value in its options; ``new_match(files=...)`` gives the game the path to read, once, in
``initial_state``: the record replays from its start snapshot with no file at all.

>>> parse_problems("bank_file: /tmp/u/quiz.yaml:12: questions[3].answer: missing", "/tmp/u/quiz.yaml", "quiz.yaml")
[{'line': 12, 'field': 'questions[3].answer', 'message': 'missing'}]
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import secrets
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger("mindtable.server.content")

HOST = "host:"
UPLOAD = "upload:"

#: The suffixes each kind of file may have (bank: the formats the importers read).
SUFFIXES: dict[str, tuple[str, ...]] = {
    "bank": (".yaml", ".yml", ".csv", ".gift", ".txt", ".json"),
    "board": (".yaml", ".yml"),
}
#: At most this many files are looked at in one content folder (a host's folder is theirs, but a huge one
#: should not stall the start).
MAX_FILES_PER_FOLDER = 2000
#: A file name an upload may have: letters, digits, dot, dash, underscore, space; one of the kind's suffixes.
_SAFE_NAME = re.compile(r"[^\w.\- ]+")


@dataclass
class HostContent:
    """The content folders a host named, and for each (game, file option) the names of the files that game
    accepts there."""

    folders: list[Path] = field(default_factory=list)
    #: name -> path
    entries: dict[str, Path] = field(default_factory=dict)
    #: (game id, option) -> sorted names
    fits: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    #: (game id, option, name) -> the path the game reads (a converted copy for third-party banks)
    reads: dict[tuple[str, str, str], Path] = field(default_factory=dict)
    _workdir: tempfile.TemporaryDirectory[str] | None = None

    def workdir(self) -> Path:
        if self._workdir is None:
            self._workdir = tempfile.TemporaryDirectory(prefix="mindtable-content-")
        return Path(self._workdir.name)

    @classmethod
    def scan(cls, folders: Iterable[str | os.PathLike[str]]) -> HostContent:
        """Look at every file of ``folders`` (blocking: run it before serving or in a thread) and keep, per game
        and file option, the ones that game starts a match with."""
        content = cls([Path(f).resolve() for f in folders])
        for folder in content.folders:
            if not folder.is_dir():
                raise ValueError(f"--content {folder}: not a folder")
            for name, path in _entries(folder):
                if name in content.entries:
                    log.warning("content %s: the name %r is taken by %s; skipped", path, name, content.entries[name])
                    continue
                content.entries[name] = path
        from mindtable.core.registry import game_ids, get_game

        for game_id in game_ids():
            try:
                game = get_game(game_id)
            except Exception:
                continue
            for option in game.option_schema:
                if option.file is None:
                    continue
                names = []
                for name, path in content.entries.items():
                    if not _suffix_fits(path, option.file):
                        continue
                    try:
                        read, _ = readable(path, option.file, content.workdir())
                    except FileProblems as exc:
                        log.info("content %s cannot be read as a %s: %s", path, option.file, exc)
                        continue
                    problem = check_file(game_id, option.name, read)
                    if problem is None:
                        content.reads[(game_id, option.name, name)] = read
                    if problem is None:
                        names.append(name)
                    else:
                        log.info("content %s is not a %s for %s: %s", path, option.name, game_id, problem)
                content.fits[(game_id, option.name)] = sorted(names)
        offered = sum(len(v) for v in content.fits.values())
        if content.folders:
            log.info(
                "content: %d files in %d folders, %d offers to games",
                len(content.entries),
                len(content.folders),
                offered,
            )
        return content

    def offered(self, game_id: str, option: str) -> list[str]:
        """The names a room of ``game_id`` may choose for ``option`` (each to be sent as ``host:NAME``)."""
        return list(self.fits.get((game_id, option), ()))

    def path(self, game_id: str, option: str, name: str) -> Path | None:
        """The path the game reads for the offered ``name`` (``None``: not offered for that option)."""
        return self.reads.get((game_id, option, name))


def _entries(folder: Path) -> list[tuple[str, Path]]:
    out: list[tuple[str, Path]] = []
    bank_suffixes = SUFFIXES["bank"]
    folders_with_banks: set[Path] = set()
    count = 0
    for path in sorted(folder.rglob("*")):
        if any(part.startswith(".") for part in path.relative_to(folder).parts):
            continue
        if path.is_file() and path.suffix.lower() in bank_suffixes:
            count += 1
            if count > MAX_FILES_PER_FOLDER:
                log.warning("content %s: more than %d files; the rest are not offered", folder, MAX_FILES_PER_FOLDER)
                break
            out.append((path.relative_to(folder).with_suffix("").as_posix(), path))
            if path.parent != folder:
                folders_with_banks.add(path.parent)
    for sub in sorted(folders_with_banks):
        out.append((sub.relative_to(folder).as_posix() + "/", sub))
    return out


def _suffix_fits(path: Path, kind: str) -> bool:
    if path.is_dir():
        return kind == "bank"
    return path.suffix.lower() in SUFFIXES.get(kind, ())


def readable(path: Path, kind: str, workdir: Path) -> tuple[Path, list[dict[str, Any]]]:
    """The file the game reads for ``path``: a bank in a third-party format (CSV, GIFT, Open Trivia DB JSON,
    OpenTriviaQA) is imported and written as the project's YAML in ``workdir``; anything else is itself.
    Returns the path and the importer's problems (``{line, field, message, severity}``)."""
    if kind != "bank" or path.is_dir() or path.suffix.lower() in (".yaml", ".yml"):
        return path, []
    from mindtable.trivia.formats import import_questions, write_yaml

    imported = import_questions(path)
    problems = [
        {"line": p.line or None, "field": p.field or None, "message": p.message, "severity": p.severity}
        for p in imported.problems
    ]
    errors = [p for p in problems if p["severity"] == "error"]
    if errors or not imported.questions:
        raise FileProblems(errors or [{"line": None, "field": None, "message": "no question could be read"}])
    target = workdir / f"{path.stem}.yaml"
    target.write_text(write_yaml(imported.questions).text, encoding="utf-8")
    return target, problems


class FileProblems(Exception):
    def __init__(self, problems: list[dict[str, Any]]) -> None:
        super().__init__(problems[0]["message"] if problems else "not readable")
        self.problems = problems


def check_file(game_id: str, option: str, path: str | os.PathLike[str]) -> str | None:
    """``None`` when ``game_id`` starts a match with ``option`` reading ``path``; else what is wrong."""
    from mindtable.core.errors import InvalidOptions
    from mindtable.core.match import new_match
    from mindtable.core.registry import get_game

    game = get_game(game_id)
    try:
        new_match(game_id, game.min_players, 0, {option: os.fspath(path)})
    except InvalidOptions as exc:
        return str(exc)
    except Exception as exc:  # a file the game's reader cannot take at all
        return f"{type(exc).__name__}: {exc}"
    return None


def safe_upload_name(name: str, kind: str) -> str | None:
    """The file name an upload is kept under (its suffix says the format), or ``None`` if its suffix is not
    one ``kind`` allows.

    >>> safe_upload_name("../../etc/Quiz night.CSV", "bank")
    'Quiz night.csv'
    >>> safe_upload_name("board.exe", "board") is None
    True
    """
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    stem, dot, suffix = base.rpartition(".")
    if not dot or f".{suffix.lower()}" not in SUFFIXES.get(kind, ()):
        return None
    stem = _SAFE_NAME.sub("_", stem).strip(" .")[:80] or "upload"
    return f"{stem}.{suffix.lower()}"


_PROBLEM = re.compile(r"^(?P<line>\d+):\s*(?:(?P<field>[\w\[\].]+):\s+)?(?P<message>.*)$")


def parse_problems(text: str, path: str, name: str) -> list[dict[str, Any]]:
    """The problems a game reports for a file as ``{line, field, message}``, never naming the server's path.

    Games say ``option: PATH:LINE: FIELD: message (and N more problems)``."""
    out: list[dict[str, Any]] = []
    _, found_path, rest = text.partition(path)
    if not found_path:
        return [{"line": None, "field": None, "message": text.replace(path, name)[:300]}]
    rest = rest.lstrip(":")
    match = _PROBLEM.match(rest.strip())
    if match is None:
        out.append({"line": None, "field": None, "message": rest.strip()[:300]})
    else:
        out.append({"line": int(match["line"]) or None, "field": match["field"], "message": match["message"][:300]})
    return out


@dataclass(frozen=True)
class UploadLimits:
    max_bytes: int = 1 << 20
    timeout_s: float = 20.0
    memory_bytes: int = 768 << 20


class UploadRejected(Exception):
    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params or {}


async def check_upload(
    game_id: str, option: str, kind: str, name: str, data: bytes, limits: UploadLimits = UploadLimits()
) -> dict[str, Any]:
    """Check an uploaded file the way the game will read it, in a separate process with a time and memory
    limit (a file that would stall or exhaust the server fails there). Returns ``{"name", "data", "warnings"}``:
    the file as the game reads it (a third-party bank converted to the project's YAML). Raises
    :class:`UploadRejected` naming the line and field of the first problem (all of them in ``params``)."""
    import base64

    if len(data) > limits.max_bytes:
        raise UploadRejected("too_large", f"the file is over {limits.max_bytes} bytes", {"max": limits.max_bytes})
    header = json.dumps({"game": game_id, "option": option, "kind": kind, "name": name, "memory": limits.memory_bytes})
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "mindtable.server.content",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        out, _ = await asyncio.wait_for(proc.communicate(header.encode() + b"\n" + data), limits.timeout_s)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise UploadRejected(
            "upload_too_slow", f"reading the file took over {limits.timeout_s:g} s", {"seconds": limits.timeout_s}
        ) from None
    try:
        answer = json.loads(out.decode("utf-8").strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise UploadRejected(
            "upload_too_big", "the file needs more memory or time to read than a server gives an upload"
        ) from None
    if not answer.get("ok"):
        problems = answer.get("problems") or []
        first = problems[0] if problems else {"line": None, "field": None, "message": "not readable"}
        where = f"line {first['line']}: " if first.get("line") else ""
        raise UploadRejected("bad_upload", f"{name}: {where}{first['message']}", {"name": name, "problems": problems})
    return {"name": answer["name"], "data": base64.b64decode(answer["data"]), "warnings": answer["warnings"]}


def new_upload_id() -> str:
    return secrets.token_urlsafe(18)


def materialize(folder: str | os.PathLike[str], upload: Mapping[str, Any]) -> Path:
    """Write a stored upload into ``folder`` under its own name (for ``new_match(files=...)``)."""
    target = Path(folder) / str(upload["id"]) / str(upload["name"])
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(bytes(upload["data"]))
    return target


def _worker() -> int:
    """The checking process: a JSON header line, then the file's bytes, on standard input; one JSON line out:
    ``{"ok": true, "name", "data" (the file as the game reads it, base64), "warnings"}`` or
    ``{"ok": false, "problems": [...]}``."""
    import base64

    stdin = sys.stdin.buffer
    header = json.loads(stdin.readline())
    data = stdin.read()
    try:
        import resource

        memory = int(header["memory"])
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ImportError, ValueError, OSError):  # not on this system: the time limit still holds
        pass
    name = str(header["name"])
    with tempfile.TemporaryDirectory(prefix="mindtable-upload-") as tmp:
        work = Path(tmp)
        path = work / "in" / name
        path.parent.mkdir()
        path.write_bytes(data)
        try:
            read, warnings = readable(path, str(header["kind"]), work)
            problem = check_file(str(header["game"]), str(header["option"]), read)
        except FileProblems as exc:
            print(json.dumps({"ok": False, "problems": exc.problems[:20]}))
            return 0
        except MemoryError:
            problem = "the file needs more memory to read than a server gives an upload"
        if problem is not None:
            print(json.dumps({"ok": False, "problems": parse_problems(problem, str(read), read.name)}))
            return 0
        answer = {
            "ok": True,
            "name": read.name,
            "data": base64.b64encode(read.read_bytes()).decode(),
            "warnings": [w for w in warnings if w["severity"] != "error"][:20],
        }
        print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    raise SystemExit(_worker())
