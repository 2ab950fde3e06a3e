"""The IQ scale as a board file: the built-in one, another one a room loads, and files that are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

import mindtable
from mindtable.core.errors import InvalidOptions
from mindtable.games.caida_libre.scale import BOARD_FILE, load_scale
from mindtable.kit.board import BoardError
from tests.caida_libre.conftest import play_card, position

SMALL = """
id: small
title: A short fall
tracks:
  - id: scale
    squares:
      - {id: 60, colour: top, kind: start, label: Prodigious Mind}
      - {id: 50, colour: weapon, special: jetpack}
      - {id: 40, colour: plain}
      - {id: 30, colour: plain}
      - {id: 20, colour: plain}
      - {id: 10, colour: plain}
      - {id: 0, colour: floor, kind: finish, label: Free Fall}
"""


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "scale.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_built_in_scale_every_ten_points_from_150_to_0() -> None:
    scale = load_scale()
    assert [s["iq"] for s in scale["squares"]] == list(range(150, -1, -10))
    assert scale["squares"][-1]["label"].startswith("Free Fall")
    assert BOARD_FILE.name == "board.yaml"


def test_a_room_loads_another_board_file(tmp_path: Path) -> None:
    path = write(tmp_path, SMALL)
    match = mindtable.new_match("caida-libre", players=2, seed=1, options={"board": path})
    assert match.view(0)["iq"] == [60, 60] and match.view(0)["top"] == 60
    assert match.state["scale"]["id"] == "small"


def test_gains_stop_at_the_top_of_the_scale(tmp_path: Path) -> None:
    match = position(2, iq=[60, 50], card="roulette-001", board=write(tmp_path, SMALL))
    assert match.view(0)["weapon"]["kind"] == "jetpack"
    play_card(match, [True])
    assert match.state["iq"] == [60, 60]  # +30 from 50 stops at 60


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (("{id: 40, colour: plain}", "{id: 35, colour: plain}"), "tracks[0].squares[2].id", "multiple of 10"),
        (
            ("{id: 30, colour: plain}", "{id: 30, colour: plain, special: cannon}"),
            "tracks[0].squares[3].special",
            "sniper",
        ),
        (
            ("{id: 0, colour: floor, kind: finish, label: Free Fall}", "{id: 0, colour: floor, label: Free Fall}"),
            "tracks[0].squares[6]",
            "Free Fall",
        ),
        (("{id: 20, colour: plain}", "{id: sky, colour: plain}"), "tracks[0].squares[4].id", "whole number"),
    ],
)
def test_a_bad_board_file_names_the_file_line_and_field(
    tmp_path: Path, change: tuple[str, str], field: str, message: str
) -> None:
    path = write(tmp_path, SMALL.replace(*change))
    with pytest.raises(BoardError) as error:
        load_scale(path)
    problem = error.value.problems[0]
    assert problem.file == path and problem.field == field and message in problem.message and problem.line > 0
    with pytest.raises(InvalidOptions, match="board"):
        mindtable.new_match("caida-libre", players=2, seed=1, options={"board": path})


def test_a_missing_board_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidOptions, match="cannot read"):
        mindtable.new_match("caida-libre", players=2, seed=1, options={"board": str(tmp_path / "none.yaml")})
