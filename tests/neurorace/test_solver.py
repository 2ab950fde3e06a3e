"""The solver proves tasks solvable with the tiles, and the difficulty measure."""

from __future__ import annotations

import itertools

from hypothesis import given, settings

from mindtable.games.neurorace.components import TILES
from mindtable.games.neurorace.solver import choices, count_layouts, difficulty, solve, verify_layout
from mindtable.games.neurorace.tasks import Task, layout_problems, parse_task

from .test_tasks import tasks


def test_a_solution_uses_seven_different_tiles_that_satisfy_every_place_and_sign() -> None:
    task = parse_task("red-sun < 4_ > blue-moon < _7 > purple-lightning < 9_ > yellow-sun")
    layout = solve(task)
    assert layout is not None and verify_layout(task, layout)
    assert layout_problems(task, [TILES[t][s] for t, s in layout]) == []


def test_bonus_tiles_count_as_the_symbol_or_colour_they_stand_for() -> None:
    wild = [[("any", "any", 5)]]
    assert solve(parse_task("purple-moon sun sun sun sun sun sun"), wild + [[("sun", "red", 1)]] * 6) is not None


def test_an_impossible_task_is_reported_as_none() -> None:
    assert solve(parse_task("9_ < 0_ sun sun sun sun sun")) is None
    assert difficulty(parse_task("9_ < 0_ sun sun sun sun sun")) == float("inf")


def test_a_tile_cannot_fill_two_places() -> None:
    one_sun = [[("sun", "red", 10)]] + [[("moon", "red", n)] for n in range(6)]
    assert solve(parse_task("sun sun moon moon moon moon moon"), one_sun) is None
    assert solve(parse_task("sun moon moon moon moon moon moon"), one_sun) is not None


def test_either_side_of_a_tile_may_be_used() -> None:
    items = [[("moon", "blue", 60), ("moon", "red", 10)]] + [[("sun", "red", n)] for n in range(6)]
    layout = solve(parse_task("[red] [red] [red] [red] [red] [red] red-moon"), items)
    assert layout is not None and (0, 1) in layout


def test_solving_from_a_partly_filled_card_respects_the_sign_to_the_left() -> None:
    task = parse_task("sun > sun sun sun sun sun sun")
    layout = solve(task, start=1, previous=3)
    assert layout is not None and TILES[layout[0][0]][layout[0][1]][2] < 3
    assert solve(task, start=1, previous=0) is None


def test_count_layouts_agrees_with_brute_force_on_a_small_set() -> None:
    sides = [("sun", "red", 10), ("moon", "blue", 20), ("sun", "blue", 30), ("any", "red", 5)]
    task = parse_task("sun < [blue] > [red] sun < moon _0 > 0_")
    brute = sum(1 for combo in itertools.product(sides, repeat=7) if not layout_problems(task, list(combo)))
    assert count_layouts(task, sides) == brute > 0


def test_rarer_conditions_and_signs_make_a_task_harder() -> None:
    easy = parse_task("sun sun sun sun sun sun sun")
    squares = parse_task("[red] [red] [red] [red] [red] [red] [red]")
    exact = parse_task("red-sun red-sun red-sun red-sun red-sun red-sun red-sun")
    signed = parse_task("red-sun < red-sun < red-sun < red-sun < red-sun < red-sun < red-sun")
    assert difficulty(easy) < difficulty(squares) < difficulty(exact) < difficulty(signed)
    assert choices(easy)[0] > choices(exact)[0]


@settings(max_examples=60, deadline=None)
@given(tasks)
def test_solve_and_count_agree_on_whether_a_task_can_be_done(task: Task) -> None:
    layout = solve(task)
    if layout is not None:
        assert verify_layout(task, layout)
        assert count_layouts(task) > 0
    elif count_layouts(task) > 0:
        # Only the rule that a tile fills one place can make a countable task impossible: with seven copies of
        # every tile (no shortage of any side), the solver finds a layout.
        assert solve(task, [tile for tile in TILES for _ in range(7)]) is not None
