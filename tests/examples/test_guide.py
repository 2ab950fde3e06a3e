"""The guide's code is real: each Python block of docs/writing-a-game.md's "A quiz game" section is, line for
line, code of the example plugin (examples/stepping-stones), which the suite plays
(tests/examples/test_stepping_stones.py), and the turn flow of "Turns and the turn flow" is Caída Libre's — so
the guide cannot drift from code that works."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "writing-a-game.md"
PLUGIN = ROOT / "examples" / "stepping-stones" / "stepping_stones" / "__init__.py"
CAIDA = ROOT / "mindtable" / "games" / "caida_libre" / "rules.py"


def section(title: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else None]


def test_the_quiz_sections_code_blocks_are_the_example_plugins_code() -> None:
    blocks = re.findall(r"```python\n(.*?)```", section("8. A quiz game"), re.S)
    assert len(blocks) >= 2
    source = PLUGIN.read_text(encoding="utf-8")
    for block in blocks:
        assert block in source, f"not in {PLUGIN.relative_to(ROOT)}:\n{block}"


def test_the_turn_flow_sections_code_block_is_caida_libres_flow() -> None:
    blocks = re.findall(r"```python\n(.*?)```", section("4. Turns and the turn flow"), re.S)
    assert len(blocks) == 1
    assert blocks[0] in CAIDA.read_text(encoding="utf-8"), f"not in {CAIDA.relative_to(ROOT)}:\n{blocks[0]}"
