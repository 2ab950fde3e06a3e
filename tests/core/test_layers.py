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
