"""Carrera de Mente: every rule of the book, as scenarios built from snapshots (docs/rules/carrera-de-mente.md)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import mindtable
from mindtable.core.codes import label_params
from mindtable.core.driver import play_out
from mindtable.core.errors import IllegalAction, InvalidOptions
from mindtable.core.match import record_notices
from mindtable.games.carrera_de_mente import rules
from mindtable.games.carrera_de_mente.content import read_board
from mindtable.kit.tokens import check_conservation
from tests.carrera_de_mente.helpers import (
    GAME_ID,
    answer,
    answer_right,
    answer_wrong,
    asked,
    kinds,
    of_kind,
    only,
    position,
    question,
    roll_number,
    seen_by,
)

PLAIN = question("a", "Mount EVEREST")
WITH_OPTIONS = question("b", "SALZBURG", options=["Vienna", "Salzburg", "Linz"], correct=1)
GREEN, SKY_SQUARE, PINK_SQUARE, GREY, ORANGE_STAR, GREEN_STAR, LAST = 1, 9, 4, 7, 6, 15, 41


# -- the board ------------------------------------------------------------------------------------------------


def test_board_matches_the_book_example_four_from_the_start_is_pink_and_five_more_is_sky_blue() -> None:
    squares = read_board("standard", "")["squares"]
    assert squares[0]["colour"] == "grey" and squares[0]["topic"] is None
    assert squares[4]["colour"] == "pink" and squares[4]["topic"] == "entertainment"
    assert squares[4 + 5]["colour"] == "skyblue" and squares[9]["topic"] == "history_geography"


def test_board_has_one_star_square_for_each_prize_colour() -> None:
    for name in ("standard", "small"):
        squares = read_board(name, "")["squares"]
        stars = sorted(s["colour"] for s in squares if s["star"])
        assert stars == sorted(rules.PRIZE_COLOURS)


def test_a_group_may_load_another_board_file(tmp_path: pytest.TempPathFactory) -> None:
    from mindtable.games.carrera_de_mente.content import BOARDS

    path = tmp_path / "mine.yaml"  # type: ignore[operator]
    path.write_text(BOARDS["small"].read_text(encoding="utf-8").replace("id: carrera-small", "id: ours"))
    match = mindtable.new_match(GAME_ID, players=2, options={"board_file": str(path)})
    assert match.view(0)["board"]["id"] == "ours" and len(match.view(0)["board"]["squares"]) == 14


def test_a_board_without_a_star_for_every_colour_is_refused_naming_the_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from mindtable.games.carrera_de_mente.content import BOARDS

    path = tmp_path / "nostar.yaml"
    path.write_text(BOARDS["small"].read_text(encoding="utf-8").replace(", special: star", ""))
    with pytest.raises(InvalidOptions, match=r"nostar\.yaml.*star square"):
        mindtable.new_match(GAME_ID, players=2, options={"board_file": str(path)})


# -- setup ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 6])
def test_every_peg_starts_on_the_arrow_square_and_the_highest_roll_begins(players: int) -> None:
    match = mindtable.new_match(GAME_ID, players=players, seed=5)
    view = match.view(None)
    assert view["pegs"] == [0] * players
    last = view["rolloff"][-1]
    best = max(last.values())
    assert [int(s) for s, r in last.items() if r == best] == [view["turn"]]
    assert match.to_act() == [view["turn"]]


def test_two_to_six_players() -> None:
    with pytest.raises(InvalidOptions):
        mindtable.new_match(GAME_ID, players=7)
    with pytest.raises(InvalidOptions):
        mindtable.new_match(GAME_ID, players=1)


def test_experts_and_young_children_variants_cannot_be_combined() -> None:
    with pytest.raises(InvalidOptions, match="variant_experts"):
        mindtable.new_match(GAME_ID, players=2, options={"variant_experts": True, "variant_young": True})


# -- moving and the topic -------------------------------------------------------------------------------------


def test_the_die_moves_the_peg_forward_and_the_square_colour_sets_the_topic() -> None:
    match = position(pegs=[10, 0, 0])
    events = match.apply({"type": "roll", "seat": 0})
    die = of_kind(events, "rolled")[0]["die"]
    assert match.state["pegs"][0] == 10 + die
    square = read_board("standard", "")["squares"][10 + die]
    context = match.view(1)["context"]
    if square["topic"] is None:
        assert match.state["phase"] == "topic"
    else:
        assert context["topic"] == square["topic"] and match.state["phase"] == "number"


def test_on_a_grey_square_the_player_chooses_the_booklet() -> None:
    match = position(pegs=[GREY, 0, 0], arrive=True, edit=only(PLAIN))
    assert [a["topic"] for a in match.legal_actions(0)] == list(rules.TOPICS)
    with pytest.raises(IllegalAction) as refused:
        match.apply({"type": "topic", "seat": 0, "topic": "cooking"})
    assert refused.value.code == "cm_not_a_booklet" and refused.value.params["allowed"] == list(rules.TOPICS)
    assert label_params("cm_not_a_booklet", refused.value.params, match.game.label_params) == {
        "topic": "cm.topic",
        "allowed": "cm.topic",
    }
    match.apply({"type": "topic", "seat": 0, "topic": "arts"})
    roll_number(match)
    assert match.state["ask"]["card"]["topic"] == "arts"


def test_three_more_rolls_in_the_order_they_came_up_give_the_question_number() -> None:
    match = position(pegs=[PINK_SQUARE, 0, 0], arrive=True)
    events = roll_number(match)
    digits = [e["die"] for e in of_kind(events, "number_die")]
    number = of_kind(events, "question")[0]["number"]
    assert len(digits) == 3 and number == int("".join(map(str, digits)))
    assert match.state["ask"]["card"]["topic"] == "entertainment"


def test_one_roll_the_number_action_rolls_the_three_dice_in_order_and_asks_that_number() -> None:
    """Issue #28: the book's three rolls in one gesture. One action, three ``number_die`` events in the order
    the dice came up (each shows the digits so far), and the question asked is that number's — the same dice
    and the same game as three ``roll_number`` actions from the same position."""
    match = position(pegs=[PINK_SQUARE, 0, 0], arrive=True)
    twin = position(pegs=[PINK_SQUARE, 0, 0], arrive=True)
    assert [a["type"] for a in match.legal_actions(0)] == ["roll_number", "roll_whole_number"]
    events = match.apply({"type": "roll_whole_number", "seat": 0})
    rolls = of_kind(events, "number_die")
    digits = [e["die"] for e in rolls]
    assert len(digits) == 3 and [e["digits"] for e in rolls] == [digits[:1], digits[:2], digits]
    assert kinds(events).index("question") > kinds(events).index("number_die") + 2
    number = int("".join(map(str, digits)))
    assert of_kind(events, "question")[0]["number"] == number == match.state["context"]["number"]
    assert match.state["phase"] == rules.ASK and match.state["ask"]["card"]["topic"] == "entertainment"
    assert match.state["ask"]["card"]["extra"]["number"] == number
    assert [e["die"] for e in of_kind(roll_number(twin), "number_die")] == digits
    assert twin.snapshot()["state"] == match.snapshot()["state"] and twin.snapshot()["rng"] == match.snapshot()["rng"]


def test_roll_the_number_after_one_die_rolls_the_two_left() -> None:
    match = position(pegs=[PINK_SQUARE, 0, 0], arrive=True)
    first = of_kind(match.apply({"type": "roll_number", "seat": 0}), "number_die")[0]["die"]
    events = match.apply({"type": "roll_whole_number", "seat": 0})
    assert [e["digits"][0] for e in of_kind(events, "number_die")] == [first, first]
    assert len(of_kind(events, "number_die")) == 2 and len(match.state["context"]["digits"]) == 3
    assert of_kind(events, "question")[0]["number"] == int("".join(map(str, match.state["context"]["digits"])))


def test_roll_the_number_out_of_turn_or_out_of_step_is_refused_and_changes_nothing() -> None:
    match = position(pegs=[PINK_SQUARE, 0, 0], arrive=True)
    before = match.snapshot()
    with pytest.raises(IllegalAction) as refused:
        match.apply({"type": "roll_whole_number", "seat": 1})
    assert refused.value.code == "not_your_turn" and refused.value.params == {"waiting": 0}
    assert match.snapshot() == before and "roll_whole_number" not in {a["type"] for a in match.legal_actions(1)}
    rolling = position(pegs=[PINK_SQUARE, 0, 0])  # the move die first
    asking = position(pegs=[PINK_SQUARE, 0, 0], arrive=True)
    roll_number(asking)  # the number is rolled: the question is being asked
    for match in (rolling, asking):
        before = match.snapshot()
        with pytest.raises(IllegalAction) as refused:
            match.apply({"type": "roll_whole_number", "seat": 0})
        assert refused.value.code == "cm_not_this_step" and refused.value.params == {"action": "roll_whole_number"}
        assert match.snapshot() == before


OLD_RECORD = Path(__file__).parent / "data" / "record-three-step-numbers.json"


def test_a_record_of_three_step_numbers_made_before_the_one_gesture_still_replays_to_its_game() -> None:
    """A record made before ``roll_whole_number`` (every number rolled one die an action, with lap prizes, a
    steal, a grey square, options and variant 3's made-up options) replays to its result and its very state;
    the same game with each number rolled in one action instead ends in the same state too."""
    stored = json.loads(OLD_RECORD.read_text(encoding="utf-8"))
    record = stored["record"]
    kinds_recorded = [a["type"] for a in record["actions"]]
    assert "roll_whole_number" not in kinds_recorded and kinds_recorded.count("roll_number") == 63

    def digest(match: mindtable.Match) -> str:
        return hashlib.sha256(json.dumps(match.snapshot()["state"], sort_keys=True).encode()).hexdigest()

    assert record_notices(record) == []
    assert digest(mindtable.replay(record)) == stored["final_state_sha256"]
    one_gesture: list[dict[str, object]] = []
    for action in record["actions"]:
        if action["type"] != "roll_number":
            one_gesture.append(action)
        elif not one_gesture or one_gesture[-1]["type"] != "roll_whole_number":
            one_gesture.append({**action, "type": "roll_whole_number"})
    assert len(one_gesture) == len(record["actions"]) - 42
    again = mindtable.replay({**record, "actions": one_gesture})
    assert digest(again) == stored["final_state_sha256"]


def test_the_first_unused_question_of_the_number_then_the_next_number_wrapping_after_666() -> None:
    match = position()
    state = match.state
    booklet = rules.booklet(state, "arts")
    first_number, first_questions = booklet[0]
    last_number, last_questions = booklet[-1]
    q, _ = rules.pick_question(state, "arts", first_number)
    assert q["id"] == first_questions[0]["id"]
    state["used"]["arts"] = [first_questions[0]["id"]]
    assert rules.pick_question(state, "arts", first_number)[0]["id"] == first_questions[1]["id"]
    state["used"]["arts"] = [x["id"] for x in last_questions]
    # Every question of the last number used: the booklet wraps round to its first number (666 -> 111).
    assert rules.pick_question(state, "arts", last_number)[0]["id"] == first_questions[0]["id"]
    # A number the booklet does not hold gives the first question of the following number.
    missing = next(n for n in range(first_number + 1, 667) if n not in {b[0] for b in booklet})
    following = next(b for b in booklet if b[0] > missing)
    assert rules.pick_question(state, "arts", missing)[0]["id"] == following[1][0]["id"]


def test_a_question_once_asked_is_not_asked_again() -> None:
    match = position(pegs=[PINK_SQUARE, 0, 0], arrive=True)
    roll_number(match)
    first = asked(match).id
    assert first in match.state["used"]["entertainment"]
    assert rules.pick_question(match.state, "entertainment", asked(match).extra["number"])[0]["id"] != first


# -- asking and answering -------------------------------------------------------------------------------------


def test_the_player_on_the_right_asks_and_only_the_asker_sees_the_answer() -> None:
    match = position(players=4, turn=2, pegs=[0, 0, PINK_SQUARE, 0], arrive=True)
    events = roll_number(match)
    ask = match.state["ask"]
    assert ask["reader"] == 1 and ask["answerers"] == [2]
    printed = asked(match).answer
    assert printed in seen_by(match, events, 1)
    for seat in (0, 2, 3, None):
        assert printed not in seen_by(match, events, seat)
    events = match.apply({"type": "ask_answer", "seat": 2, "text": "no idea"})
    for seat in (0, 2, 3, None):
        assert printed not in seen_by(match, events, seat)


def test_a_direct_right_answer_moves_five_squares_and_the_player_answers_again_on_the_new_colour() -> None:
    match = position(pegs=[PINK_SQUARE, 20, 30], arrive=True, edit=only(PLAIN))
    roll_number(match)
    events = answer_right(match)
    assert match.state["pegs"][0] == SKY_SQUARE
    assert of_kind(events, "moved")[-1]["steps"] == 5
    assert match.state["phase"] == "number" and match.state["turn"]["seat"] == 0
    assert match.view(0)["context"]["topic"] == "history_geography"


def test_a_right_answer_after_asking_for_the_options_moves_one_square() -> None:
    match = position(pegs=[PINK_SQUARE, 20, 30], arrive=True, edit=only(WITH_OPTIONS))
    roll_number(match)
    assert "options" not in match.view(0)["ask"]["question"]
    match.apply({"type": "ask_options", "seat": 0})
    assert match.view(0)["ask"]["question"]["options"] == ["Vienna", "Salzburg", "Linz"]
    answer(match, "b")
    assert match.state["pegs"][0] == PINK_SQUARE + 1 and match.state["turn"]["seat"] == 0


def test_a_wrong_answer_passes_the_turn_to_the_left() -> None:
    match = position(players=3, turn=2, pegs=[20, 30, PINK_SQUARE], arrive=True, edit=only(PLAIN))
    roll_number(match)
    events = answer_wrong(match)
    assert "turn_over" in kinds(events)
    assert match.state["turn"]["seat"] == 0 and match.state["phase"] == "roll"
    assert match.state["pegs"][2] == PINK_SQUARE


def test_the_judge_suggests_and_the_asker_may_overrule() -> None:
    match = position(pegs=[PINK_SQUARE, 20, 30], arrive=True, edit=only(PLAIN))
    roll_number(match)
    match.apply({"type": "ask_answer", "seat": 0, "text": "the highest mountain of the world"})
    assert match.view(2)["ask"]["suggestion"]["correct"] is False  # seat 2 asks seat 0 (3 players)
    assert "suggestion" not in match.view(0)["ask"]
    match.apply({"type": "ask_overrule", "seat": 2})
    assert match.state["pegs"][0] == SKY_SQUARE


def test_only_the_capitals_are_required() -> None:
    match = position(pegs=[PINK_SQUARE, 20, 30], arrive=True, edit=only(question("c", "EVEREST (in the Himalaya)")))
    roll_number(match)
    match.apply({"type": "ask_answer", "seat": 0, "text": "Everest"})
    assert match.state["ask"]["suggestion"]["correct"] is True


# -- stars ----------------------------------------------------------------------------------------------------


def test_on_a_star_square_only_a_direct_answer_and_a_right_one_wins_the_colour_and_moves_five() -> None:
    match = position(pegs=[ORANGE_STAR, 20, 30], arrive=True, edit=only(WITH_OPTIONS))
    roll_number(match)
    assert not match.view(0)["ask"]["options_available"]
    with pytest.raises(IllegalAction) as refused:
        match.apply({"type": "ask_options", "seat": 0})
    assert refused.value.code == "ask_options_closed"
    events = answer_right(match)
    assert of_kind(events, "prize") == [{"seat": 0, "colour": "orange", "how": "star"}]
    assert match.state["pegs"][0] == ORANGE_STAR + 5


def test_clarification_1_a_star_of_a_colour_already_held_only_moves_on() -> None:
    match = position(pegs=[ORANGE_STAR, 20, 30], prizes={0: ["orange"]}, arrive=True, edit=only(PLAIN))
    roll_number(match)
    events = answer_right(match)
    assert "prize" not in kinds(events) and "star_held" in kinds(events)
    assert match.view(0)["prizes"][0] == ["orange"] and match.state["pegs"][0] == ORANGE_STAR + 5


def test_clarification_8_after_a_wrong_answer_on_a_star_the_next_turn_is_an_ordinary_one() -> None:
    match = position(players=2, pegs=[ORANGE_STAR, 20], arrive=True, edit=only(PLAIN))
    roll_number(match)
    answer_wrong(match)
    match.apply({"type": "roll", "seat": 1})
    while match.state["turn"]["seat"] == 1:
        if match.state["phase"] == "topic":
            match.apply({"type": "topic", "seat": 1, "topic": "arts"})
        elif match.state["phase"] == "number":
            roll_number(match)
        elif match.state["phase"] == "lap":
            match.apply({"type": "lap_prize", "seat": 1, "colour": match.view(1)["lap_choices"][0]})
        else:
            answer_wrong(match)
    assert match.legal_actions(0) == [{"type": "roll", "seat": 0}]
    events = match.apply({"type": "roll", "seat": 0})
    assert match.state["pegs"][0] == ORANGE_STAR + of_kind(events, "rolled")[0]["die"]


# -- laps -----------------------------------------------------------------------------------------------------


def test_passing_the_arrow_square_by_the_die_wins_a_prize_of_the_players_choice() -> None:
    match = position(pegs=[LAST, 20, 30], prizes={0: ["green"]})
    events = match.apply({"type": "roll", "seat": 0})
    assert of_kind(events, "moved")[0]["laps"] == 1
    assert match.state["phase"] == "lap"
    colours = [a["colour"] for a in match.legal_actions(0) if "colour" in a]
    assert colours == ["yellow", "skyblue", "pink", "brown", "orange"]
    with pytest.raises(IllegalAction) as refused:
        match.apply({"type": "lap_prize", "seat": 0, "colour": "green"})
    assert refused.value.code == "cm_lap_colour"
    assert refused.value.params == {"allowed": ["yellow", "skyblue", "pink", "brown", "orange"]}
    assert refused.value.message.endswith("not have yet: yellow, skyblue, pink, brown, orange")
    match.apply({"type": "lap_prize", "seat": 0, "colour": "brown"})
    assert match.view(0)["prizes"][0] == ["brown", "green"]
    assert match.state["phase"] in ("number", "topic")


def test_passing_the_arrow_square_by_a_right_answer_wins_a_lap_prize_too() -> None:
    match = position(pegs=[38, 20, 30], arrive=True, edit=only(PLAIN))
    roll_number(match)
    answer_right(match)
    assert match.state["pegs"][0] == 1 and match.state["phase"] == "lap"
    match.apply({"type": "lap_prize", "seat": 0, "colour": "pink"})
    assert match.view(0)["prizes"][0] == ["pink"] and match.view(0)["context"]["topic"] == "sports"


def test_every_further_lap_wins_one_more_prize() -> None:
    match = position(pegs=[LAST, 20, 30], prizes={0: ["green", "pink"]})
    match.apply({"type": "roll", "seat": 0})
    match.apply({"type": "lap_prize", "seat": 0, "colour": "orange"})
    assert len(match.view(0)["prizes"][0]) == 3


def test_clarification_7_the_arrow_square_works_like_any_grey_square() -> None:
    match = position(pegs=[37, 20, 30], arrive=True, edit=only(PLAIN))
    roll_number(match)
    answer_right(match)  # 37 + 5 = 42: exactly on the arrows, a lap completed
    assert match.state["pegs"][0] == 0
    match.apply({"type": "lap_prize", "seat": 0, "colour": "yellow"})
    assert match.state["phase"] == "topic"
    assert [a["type"] for a in match.legal_actions(0)] == ["topic"] * 6


def test_the_last_prize_cannot_come_from_a_lap() -> None:
    five = ["green", "yellow", "skyblue", "pink", "brown"]
    match = position(pegs=[LAST, 20, 30], prizes={0: five})
    events = match.apply({"type": "roll", "seat": 0})
    assert of_kind(events, "lap_no_prize") == [{"seat": 0, "reason": "last_prize"}]
    assert match.view(0)["prizes"][0] == sorted(five) and match.result is None
    assert match.state["phase"] in ("number", "topic")


def test_variant_1_the_last_prize_may_come_from_a_lap() -> None:
    five = ["green", "yellow", "skyblue", "pink", "brown"]
    match = position(pegs=[LAST, 20, 30], prizes={0: five}, options={"variant_short": True})
    match.apply({"type": "roll", "seat": 0})
    assert [a["colour"] for a in match.legal_actions(0) if "colour" in a] == ["orange"]
    match.apply({"type": "lap_prize", "seat": 0, "colour": "orange"})
    assert match.result is not None and match.result.winners == (0,)


# -- stealing -------------------------------------------------------------------------------------------------


def test_landing_on_an_occupied_square_a_direct_right_answer_steals_a_token_of_the_stealers_choice() -> None:
    match = position(
        pegs=[PINK_SQUARE, PINK_SQUARE, 30], prizes={1: ["green", "brown"]}, arrive=True, edit=only(WITH_OPTIONS)
    )
    roll_number(match)
    assert not match.view(0)["ask"]["options_available"]
    answer_right(match)
    assert match.state["phase"] == "steal"
    assert [a["colour"] for a in match.legal_actions(0) if "colour" in a] == ["brown", "green"]
    with pytest.raises(IllegalAction) as refused:
        match.apply({"type": "steal", "seat": 0, "colour": "pink"})
    assert refused.value.code == "cm_steal_colour" and refused.value.params["allowed"] == ["brown", "green"]
    assert refused.value.params["colour"] == "pink"  # ids, which a page shows by their labels (cm.colour.<id>)
    assert label_params("cm_steal_colour", refused.value.params, match.game.label_params) == {
        "colour": "cm.colour",
        "allowed": "cm.colour",
    }
    match.apply({"type": "steal", "seat": 0, "colour": "brown"})
    assert match.view(0)["prizes"][:2] == [["brown"], ["green"]]
    assert match.state["pegs"][0] == SKY_SQUARE


def test_a_wrong_answer_on_an_occupied_square_ends_the_turn_without_a_capture() -> None:
    match = position(pegs=[PINK_SQUARE, PINK_SQUARE, 30], prizes={1: ["green"]}, arrive=True, edit=only(PLAIN))
    roll_number(match)
    answer_wrong(match)
    assert match.view(0)["prizes"][1] == ["green"] and match.state["turn"]["seat"] == 1


def test_clarification_2_a_token_of_a_colour_the_stealer_has_goes_back_to_the_box() -> None:
    match = position(
        pegs=[PINK_SQUARE, PINK_SQUARE, 30], prizes={0: ["green"], 1: ["green"]}, arrive=True, edit=only(PLAIN)
    )
    roll_number(match)
    answer_right(match)
    supply = match.state["tokens"]["supply"]["green"]
    events = match.apply({"type": "steal", "seat": 0, "colour": "green"})
    assert of_kind(events, "stolen")[0]["kept"] is False
    assert match.view(0)["prizes"][:2] == [["green"], []]
    assert match.state["tokens"]["supply"]["green"] == supply + 1
    assert match.state["pegs"][0] == SKY_SQUARE


def test_clarification_3_a_player_with_an_empty_peg_gives_nothing_and_the_answer_only_moves_on() -> None:
    match = position(pegs=[PINK_SQUARE, PINK_SQUARE, 30], arrive=True, edit=only(WITH_OPTIONS))
    roll_number(match)
    assert not match.view(0)["ask"]["options_available"]  # still a direct answer
    events = answer_right(match)
    assert of_kind(events, "nothing_to_steal") == [{"seat": 0, "victim": 1}]
    assert match.state["pegs"][0] == SKY_SQUARE and match.state["phase"] == "number"


def test_clarification_4_the_question_is_on_the_square_colour_whatever_colour_is_stolen() -> None:
    match = position(pegs=[PINK_SQUARE, PINK_SQUARE, 30], prizes={1: ["green"]}, arrive=True)
    roll_number(match)
    assert match.state["ask"]["card"]["topic"] == "entertainment"
    answer_right(match)
    assert [a["colour"] for a in match.legal_actions(0) if "colour" in a] == ["green"]


def test_clarification_5_one_token_from_each_player_on_the_square() -> None:
    match = position(
        players=4,
        pegs=[PINK_SQUARE, PINK_SQUARE, PINK_SQUARE, 30],
        prizes={1: ["green"], 2: ["brown", "yellow"]},
        arrive=True,
        edit=only(PLAIN),
    )
    roll_number(match)
    answer_right(match)
    assert match.view(0)["steal_from"] == [1, 2]
    match.apply({"type": "steal", "seat": 0, "colour": "green"})
    assert [a["colour"] for a in match.legal_actions(0) if "colour" in a] == ["brown", "yellow"]
    match.apply({"type": "steal", "seat": 0, "colour": "yellow"})
    assert match.view(0)["prizes"][:3] == [["green", "yellow"], [], ["brown"]]
    assert match.state["pegs"][0] == SKY_SQUARE


def test_clarification_6_a_right_answer_on_an_occupied_star_wins_the_star_and_a_stolen_token() -> None:
    match = position(pegs=[ORANGE_STAR, ORANGE_STAR, 30], prizes={1: ["green"]}, arrive=True, edit=only(PLAIN))
    roll_number(match)
    events = answer_right(match)
    assert of_kind(events, "prize")[0]["colour"] == "orange"
    match.apply({"type": "steal", "seat": 0, "colour": "green"})
    assert match.view(0)["prizes"][0] == ["green", "orange"]


# -- variants -------------------------------------------------------------------------------------------------


def test_variant_2_experts_never_ask_for_the_options() -> None:
    match = position(
        pegs=[PINK_SQUARE, 20, 30], arrive=True, edit=only(WITH_OPTIONS), options={"variant_experts": True}
    )
    roll_number(match)
    assert not match.view(0)["ask"]["options_available"]
    assert "ask_options" not in [a["type"] for a in match.legal_actions(0)]


def test_variant_3_young_children_may_ask_for_the_options_for_a_prize_and_to_steal() -> None:
    match = position(
        pegs=[ORANGE_STAR, ORANGE_STAR, 30],
        prizes={1: ["green"]},
        arrive=True,
        edit=only(WITH_OPTIONS),
        options={"variant_young": True},
    )
    roll_number(match)
    match.apply({"type": "ask_options", "seat": 0})
    events = answer(match, "b")
    assert of_kind(events, "prize")[0]["colour"] == "orange"
    match.apply({"type": "steal", "seat": 0, "colour": "green"})
    assert match.state["pegs"][0] == ORANGE_STAR + 1  # after the options: one square


def test_variant_3_a_question_without_options_gets_one_made_up_wrong_option_beside_the_right_one() -> None:
    match = position(
        pegs=[PINK_SQUARE, 20, 30],
        arrive=True,
        edit=only(PLAIN, question("z", "KILIMANJARO")),
        options={"variant_young": True},
    )
    roll_number(match)
    assert match.view(0)["ask"]["options_available"]
    match.apply({"type": "ask_options", "seat": 0})
    shown = match.view(0)["ask"]["question"]["options"]
    assert len(shown) == 2 and "Mount Everest" in shown
    wrong = next(o for o in shown if o != "Mount Everest")
    assert wrong == "Kilimanjaro"
    letter = "ab"[shown.index("Mount Everest")]
    answer(match, letter)
    assert match.state["pegs"][0] == PINK_SQUARE + 1


def test_variant_3_a_numeric_answer_gets_a_made_up_number() -> None:
    q = question("n", "FIFTEEN (15)", value=15)
    match = position(pegs=[PINK_SQUARE, 20, 30], arrive=True, edit=only(q), options={"variant_young": True})
    roll_number(match)
    match.apply({"type": "ask_options", "seat": 0})
    shown = match.view(0)["ask"]["question"]["options"]
    # in figures, both of them: "Fifteen" beside "13" would give the answer away
    assert "15" in shown and abs(int(next(o for o in shown if o != "15")) - 15) <= 0.3 * 15
    answer(match, "ab"[shown.index("15")])
    assert match.state["pegs"][0] == PINK_SQUARE + 1  # after the options: one square, a number question too


# -- teams, options, winning ----------------------------------------------------------------------------------


def test_team_members_take_turns_to_answer() -> None:
    match = position(
        players=2,
        pegs=[PINK_SQUARE, 20],
        arrive=True,
        edit=only(PLAIN, question("p", "PARIS")),
        options={"team_members": 2},
    )
    assert match.view(0)["member"] == "1a"
    roll_number(match)
    assert of_kind(roll_number(match), "question") == []
    answer_right(match)
    assert match.view(0)["member"] == "1b"


def test_the_agreed_answer_time_runs_out() -> None:
    match = position(pegs=[PINK_SQUARE, 20, 30], arrive=True, edit=only(PLAIN), options={"answer_seconds": 15})
    roll_number(match)
    deadline = match.next_deadline()
    assert deadline is not None and deadline.at == 15_000
    match.apply({**deadline.due_action(), "at": deadline.at})
    assert match.state["turn"]["seat"] == 1


@pytest.mark.parametrize(("surname_alone", "right"), [(True, True), (False, False)])
def test_the_group_decides_whether_the_surname_alone_is_enough(surname_alone: bool, right: bool) -> None:
    q = question("v", "JOHANNES VERMEER", person=True)  # the whole name in capitals
    match = position(pegs=[PINK_SQUARE, 20, 30], arrive=True, edit=only(q), options={"surname_alone": surname_alone})
    roll_number(match)
    match.apply({"type": "ask_answer", "seat": 0, "text": "Vermeer"})
    assert match.state["ask"]["suggestion"]["correct"] is right


def test_the_first_to_hold_all_six_colours_wins_even_by_stealing_the_last_one() -> None:
    five = ["green", "yellow", "skyblue", "pink", "brown"]
    match = position(
        pegs=[PINK_SQUARE, PINK_SQUARE, 30], prizes={0: five, 1: ["orange"]}, arrive=True, edit=only(PLAIN)
    )
    roll_number(match)
    answer_right(match)
    match.apply({"type": "steal", "seat": 0, "colour": "orange"})
    assert match.result is not None and match.result.winners == (0,) and match.result.reason == "six_colours"
    assert match.legal_actions(0) == []


def test_the_last_prize_may_be_won_on_its_star_square() -> None:
    five = ["green", "yellow", "skyblue", "pink", "brown"]
    match = position(pegs=[ORANGE_STAR, 20, 30], prizes={0: five}, arrive=True, edit=only(PLAIN))
    roll_number(match)
    answer_right(match)
    assert match.result is not None and match.result.winners == (0,)


def test_prizes_are_conserved_through_whole_bot_games() -> None:
    game = mindtable.get_game(GAME_ID)
    for seed in range(3):
        match = mindtable.new_match(GAME_ID, players=4, seed=seed, options={"board": "small"})
        bots = {s: game.make_bot("knowing", s, seed=seed) for s in range(4)}

        def conserved(action: dict, events: list, match: mindtable.Match = match) -> None:  # type: ignore[type-arg]
            check_conservation(match.state["tokens"])
            assert all(n == 1 for held in match.state["tokens"]["held"] for n in held.values())

        play_out(match, bots, on_events=conserved)
        assert match.result is not None and len(match.view(0)["prizes"][match.result.winners[0]]) == 6
        assert sum(match.state["tokens"]["total"].values()) == 36


def test_a_record_replays_with_no_board_or_booklet_file(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from mindtable.games.carrera_de_mente import content

    game = mindtable.get_game(GAME_ID)
    match = mindtable.new_match(GAME_ID, players=3, seed=9, options={"variant_young": True})
    play_out(match, {s: game.make_bot("knowing", s, seed=9) for s in range(3)})
    record = match.record()
    content._board_json.cache_clear()
    content._booklets_json.cache_clear()
    monkeypatch.setattr(content, "CONTENT", tmp_path / "gone")
    monkeypatch.setattr(content, "BOARDS", {"standard": tmp_path / "gone.yaml", "small": tmp_path / "gone.yaml"})
    again = mindtable.replay(record)
    assert again.snapshot()["state"] == match.snapshot()["state"]
    with pytest.raises(InvalidOptions):
        mindtable.new_match(GAME_ID, players=3, seed=9)
    content._board_json.cache_clear()
    content._booklets_json.cache_clear()


def test_hidden_answers_never_reach_the_answering_side_over_whole_games() -> None:
    game = mindtable.get_game(GAME_ID)
    match = mindtable.new_match(GAME_ID, players=3, seed=2, options={"board": "small"})
    bots = {s: game.make_bot("knowing", s, seed=2) for s in range(3)}

    def check(action: dict, events: list) -> None:  # type: ignore[type-arg]
        ask = match.state["ask"]
        if ask is None or ask["phase"] != "answer":
            return  # (a bot that knows types the answer itself)
        for allowed, text in game.secrets(match.state, 3):
            for seat in (0, 1, 2, None):
                if seat not in allowed:
                    assert text not in seen_by(match, events, seat)

    play_out(match, bots, on_events=check)
