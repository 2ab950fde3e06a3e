"""The layers of CONTRIBUTING.md, enforced on the source: each package imports only what its layer may.

1. ``mindtable.core`` — nothing else of mindtable (and names no game).
2. ``mindtable.games.<game>`` — the core, the kit, the trivia layer and its own folder; never another game,
   never a surface.
3. ``mindtable.trivia`` (and ``mindtable.kit``) — the core only.
4. Surfaces (``cli``, ``server``, ``sim``, ``web``) — never a game's folder: they reach games through the
   registry.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "mindtable"
SURFACES = ("cli", "server", "sim", "web")


def imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, module]) if module else ".".join(base)
            found.append((node.lineno, module))
    return [(line, name) for line, name in found if name == "mindtable" or name.startswith("mindtable.")]


def allowed(layer: tuple[str, ...], target: str) -> bool:
    parts = target.split(".")
    top = parts[1] if len(parts) > 1 else ""
    if layer[0] == "core":
        return top == "core"
    if layer[0] in ("trivia", "kit"):
        return top in ("core", layer[0]) or (layer[0] == "kit" and top == "kit")
    if layer[0] == "games":
        if top in ("core", "kit", "trivia"):
            return True
        return top == "games" and len(parts) > 2 and parts[2] == layer[1]
    if layer[0] in SURFACES:
        return top != "games"
    return True


def source_files() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize("path", source_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_each_module_imports_only_what_its_layer_may(path: Path) -> None:
    parts = path.relative_to(ROOT).parts
    if len(parts) == 1:
        return  # mindtable/__init__.py re-exports the core
    layer = (parts[0], parts[1].removesuffix(".py") if len(parts) > 1 else "")
    wrong = [f"line {line}: {target}" for line, target in imports(path) if not allowed(layer, target)]
    assert wrong == [], f"{path.relative_to(ROOT)} crosses its layer: {wrong}"


def test_the_core_names_no_game_outside_its_usage_examples() -> None:
    names = ("the-mind", "the_mind", "neurorace", "carrera", "caida", "eesti")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {name}"
        for path in (ROOT / "core").rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").lower().splitlines(), start=1)
        for name in names
        if name in line and not line.lstrip().startswith((">>>", "..."))
    ]
    assert offenders == []


#: Each shipped game's id and its package's name.
GAME_NAMES = (
    "the-mind",
    "the_mind",
    "neurorace",
    "carrera-de-mente",
    "carrera_de_mente",
    "caida-libre",
    "caida_libre",
    "eesti-malumang",
    "eesti_malumang",
)


def code_strings(path: Path) -> list[tuple[int, str]]:
    """The string constants and names of a module's code, docstrings left out (they may show an example)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found.append((node.lineno, node.value))
        elif isinstance(node, ast.Name):
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            found.append((node.lineno, node.attr))
    return found


@pytest.mark.parametrize("package", ["core", "trivia", "kit", "server", "web"])
def test_the_shared_layers_name_no_game_in_their_code(package: str) -> None:
    """A game is reached through the registry: nothing shared asks for one by its id or package (a plugin's game
    must be able to do whatever a shipped one does). Docstrings and comments may name one as an example."""
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {text[:60]!r}"
        for path in (ROOT / package).rglob("*.py")
        for line, text in code_strings(path)
        if any(name in text.lower() for name in GAME_NAMES)
    ]
    for path in (ROOT / package).rglob("*"):
        if path.suffix in (".js", ".html", ".css", ".json") and "games" not in path.relative_to(ROOT).parts:
            for number, line in enumerate(path.read_text(encoding="utf-8").lower().splitlines(), start=1):
                code = line.split("//")[0] if path.suffix == ".js" else line
                if not code.lstrip().startswith(("*", "/*")) and any(name in code for name in GAME_NAMES):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:60]!r}")
    assert offenders == []
