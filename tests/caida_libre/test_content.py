"""Where Caída Libre's cards come from: a card type may be written in several files (the 600-card box)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mindtable.games.caida_libre import rules
from mindtable.trivia.bank import BankError

HEADER = "title: Cita 5\nlanguage: es\ntype: quote5\ncards:\n"


def card(card_id: str, pack: int) -> str:
    return (
        f"  - id: {card_id}\n    pack: {pack}\n    topic: Colores\n    question: Nombra cinco colores del arco iris.\n"
        "    count: 5\n    items: [rojo, naranja, amarillo, verde, azul, añil, violeta]\n"
    )


@pytest.fixture
def content(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "es"
    folder.mkdir()
    monkeypatch.setattr(rules, "CONTENT", tmp_path)
    rules._set.cache_clear()
    yield folder
    rules._set.cache_clear()


def test_a_card_type_is_read_from_its_file_and_every_numbered_file_after_it(content: Path) -> None:
    (content / "quote5.yaml").write_text(HEADER + card("quote5-001", 1), encoding="utf-8")
    (content / "quote5-3.yaml").write_text(HEADER + card("quote5-003", 2), encoding="utf-8")
    (content / "quote5-2.yaml").write_text(HEADER + card("quote5-002", 1), encoding="utf-8")
    (content / "roulette.yaml").write_text("", encoding="utf-8")  # another type's file is not read for quote5
    cards = rules._set("es", "quote5").cards
    assert [c.id for c in cards] == ["quote5-001", "quote5-002", "quote5-003"]
    assert [c.pack for c in cards] == ["1", "1", "2"]


def test_a_card_id_used_in_two_files_is_refused_naming_both(content: Path) -> None:
    (content / "quote5.yaml").write_text(HEADER + card("quote5-001", 1), encoding="utf-8")
    (content / "quote5-2.yaml").write_text(HEADER + card("quote5-001", 2), encoding="utf-8")
    with pytest.raises(BankError) as refused:
        rules._set("es", "quote5")
    assert "quote5-001" in str(refused.value) and "quote5.yaml" in str(refused.value)
    assert "quote5-2.yaml" in str(refused.value)


def test_a_file_of_another_type_among_a_types_files_is_refused(content: Path) -> None:
    (content / "quote5.yaml").write_text(HEADER + card("quote5-001", 1), encoding="utf-8")
    roulette = (
        "title: La ruleta rusa\nlanguage: es\ntype: roulette\ncards:\n  - id: roulette-001\n    pack: 1\n"
        "    question: ¿Cuántos hoyos tiene un recorrido de golf?\n"
        "    options: ['9', '12', '18', '24']\n    correct: c\n"
    )
    (content / "quote5-2.yaml").write_text(roulette, encoding="utf-8")
    with pytest.raises(BankError) as refused:
        rules._set("es", "quote5")
    assert "quote5-2.yaml" in str(refused.value) and "roulette" in str(refused.value)
