"""Scenario tests for the book's four variants, teams, the board file option, and replay with no content files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mindtable
from mindtable.core.driver import play_out
from mindtable.core.errors import InvalidOptions
from mindtable.core.events import Deadline
from mindtable.games.eesti_malumang import rules
from tests.eesti_malumang.helpers import ALL, CATS, act, answer, position, types

# --- variant 1: the outer track only ----------------------------------------------------------------------------


def test_outer_track_a_card_for_every_right_answer_even_of_a_colour_held() -> None:
    match = position(2, held=[{"science": 2}, {}], die=3, variant="outer_track")
    act(match, "roll", 0)
    act(match, "move", 0, to="o3")
    events = answer(match, True)
    assert match.state["held"][0] == {"science": 3} and "roll_again" not in types(events)
    assert match.state["turn"]["seat"] == 1


def test_outer_track_has_no_finish_path_a_complete_player_still_rolls() -> None:
    match = position(2, pawns=["nw", "o3"], held=[ALL, {}], variant="outer_track")
    assert match.state["phase"] == "roll"
    assert match.view(0)["complete"] == [False, False]


def test_outer_track_ends_when_all_36_cards_are_taken_and_most_cards_wins() -> None:
    held = [{c: 3 for c in CATS}, {c: 3 for c in CATS}]
    held[0]["science"] = 2  # one science card is left in the supply
    match = position(2, held=held, die=3, variant="outer_track")
    assert match.state["supply"] == {**dict.fromkeys(CATS, 0), "science": 1}
    act(match, "roll", 0)
    act(match, "move", 0, to="o3")
    events = answer(match, True)
    assert "all_cards_taken" in types(events)
    assert match.is_over and match.result.reason == "cards_taken"
    assert match.result.scores == (18.0, 18.0) and match.result.winners == (0, 1)  # a tie shares the win


def test_outer_track_a_right_answer_on_a_colour_with_no_card_left_rolls_again() -> None:
    held = [{"science": 6}, {"history": 1}]
    match = position(2, held=held, die=3, variant="outer_track")
    act(match, "roll", 0)
    act(match, "move", 0, to="o3")
    events = answer(match, True)
    assert "roll_again" in types(events) and match.state["turn"]["seat"] == 0


# --- house option: fewer Estonia cards per colour (a short game) ---------------------------------------------------


def test_a_room_may_agree_on_fewer_estonia_cards_of_each_colour() -> None:
    """ "36 Estonia cards (6 different colours)": the book's box; a room may put fewer on the table."""
    book = mindtable.new_match("eesti-malumang", players=2, seed=1, options={"variant": "outer_track"})
    assert book.view(0)["supply"] == dict.fromkeys(CATS, 6)
    short = mindtable.new_match(
        "eesti-malumang", players=2, seed=1, options={"variant": "outer_track", "cards_per_colour": 1}
    )
    assert short.view(0)["supply"] == dict.fromkeys(CATS, 1) and short.view(None)["supply"] == dict.fromkeys(CATS, 1)


def test_short_outer_track_game_ends_when_the_six_cards_one_of_each_colour_are_taken() -> None:
    """Variant 1: "The game ends when all cards have been collected, and the winner is the player who has
    collected the most cards" — with one card of each colour, after six right answers in six colours."""
    held = [{"history": 1, "culture": 1, "geography": 1}, {"sport": 1, "varia": 1}]
    match = position(2, held=held, die=3, variant="outer_track", cards_per_colour=1)
    assert match.state["supply"] == {**dict.fromkeys(CATS, 0), "science": 1}
    act(match, "roll", 0)
    act(match, "move", 0, to="o3")  # a science circle
    events = answer(match, True)
    assert types(events)[-1] == "all_cards_taken"
    assert match.is_over and match.result.reason == "cards_taken"
    assert match.result.scores == (4.0, 2.0) and match.result.winners == (0,)


def test_short_outer_track_game_a_colour_already_taken_rolls_again() -> None:
    held = [{}, {"science": 1}]
    match = position(2, held=held, die=3, variant="outer_track", cards_per_colour=1)
    act(match, "roll", 0)
    act(match, "move", 0, to="o3")
    events = answer(match, True)
    assert "roll_again" in types(events) and "estonia_card" not in types(events)
    assert match.state["held"][0] == {} and match.state["turn"]["seat"] == 0 and match.state["phase"] == "roll"


def test_fewer_cards_per_colour_than_players_is_refused_in_the_standard_game() -> None:
    with pytest.raises(InvalidOptions, match="at least 3 of each colour, not 2") as err:
        mindtable.new_match("eesti-malumang", players=3, options={"cards_per_colour": 2})
    assert err.value.option == "cards_per_colour"
    assert mindtable.new_match("eesti-malumang", players=3, options={"cards_per_colour": 3}).state["supply"] == (
        dict.fromkeys(CATS, 3)
    )


def test_cards_per_colour_is_refused_in_variant_2_and_outside_1_to_6() -> None:
    with pytest.raises(InvalidOptions, match="uses no Estonia cards") as err:
        mindtable.new_match("eesti-malumang", players=2, options={"variant": "cards_only", "cards_per_colour": 2})
    assert err.value.option == "cards_per_colour"
    for bad in (0, 7):
        options = {"variant": "outer_track", "cards_per_colour": bad}
        with pytest.raises(InvalidOptions) as err:
            mindtable.new_match("eesti-malumang", players=2, options=options)
        assert err.value.option == "cards_per_colour"


def test_knowing_bots_play_a_short_outer_track_game_to_the_end() -> None:
    game = mindtable.get_game("eesti-malumang")
    options = {"variant": "outer_track", "cards_per_colour": 1}
    match = mindtable.new_match("eesti-malumang", players=3, seed=4, options=options)
    result = play_out(match, {s: game.make_bot("knowing", seat=s, seed=s) for s in range(3)})
    assert result.reason == "cards_taken" and sum(result.scores) == 6.0
    assert all(sum(h.get(c, 0) for h in match.state["held"]) == 1 for c in CATS)


# --- variant 2: cards only ---------------------------------------------------------------------------------------


def test_cards_only_no_board_the_player_names_the_category_and_keeps_the_card() -> None:
    match = position(3, turn=1, variant="cards_only", game_minutes=10)
    view = match.view(1)
    assert view["board"] is None and view["pawns"] == [] and match.state["phase"] == "category"
    act(match, "category", 1, category="sport")
    card = match.state["ask"]["card"]["id"]
    assert match.state["ask"]["reader"] == 2
    answer(match, True)
    assert match.state["kept"][1] == [card] and card not in match.state["discard"]
    assert match.view(0)["kept"] == [0, 1, 0] and match.state["turn"]["seat"] == 2


def test_cards_only_a_wrong_answer_keeps_nothing() -> None:
    match = position(2, variant="cards_only")
    act(match, "category", 0, category="history")
    answer(match, False)
    assert match.state["kept"][0] == [] and len(match.state["discard"]) == 1


def test_cards_only_the_agreed_time_is_a_server_side_deadline_shown_to_everyone() -> None:
    match = position(2, variant="cards_only", game_minutes=5)
    deadline = match.next_deadline()
    assert deadline.at == 300_000 and deadline.action["type"] == "em_time_up"
    assert all(match.view(s)["ends_at"] == 300_000 for s in (0, 1, None))
    with pytest.raises(mindtable.IllegalAction):
        match.apply({"type": "em_time_up", "at": 299_999})
    match.state["kept"] = [["x"], ["y", "z"]]
    match.apply({"type": "em_time_up", "at": 300_000})
    assert match.is_over and match.result.reason == "time" and match.result.winners == (1,)


def test_cards_only_the_clock_ends_a_game_played_on_the_virtual_clock_at_the_agreed_time() -> None:
    """The driver applies the deadline as the server does: bots answer in 15 s, the agreed minute runs out at
    exactly 60 000 ms whatever is happening, no new question starts after it, and the one being asked is
    finished. Replayed step by step, every step's next deadline is the time-up (or an earlier answer clock)."""
    game = mindtable.get_game("eesti-malumang")
    options = {"variant": "cards_only", "game_minutes": 1}
    match = mindtable.new_match("eesti-malumang", players=2, seed=5, options=options)
    result = play_out(match, {s: game.make_bot("knowing", seat=s, seed=s) for s in range(2)})
    assert result.reason == "time" and 3 <= result.details["questions"] <= 5  # one question per ~15 s
    actions = match.record()["actions"]
    time_up = [a for a in actions if a["type"] == "em_time_up"]
    assert [a["at"] for a in time_up] == [60_000]
    assert all(a["at"] < 60_000 for a in actions if a["type"] == "category")
    again = mindtable.new_match("eesti-malumang", players=2, seed=5, options=options)
    for action in actions:
        if not again.view(0)["time_over"]:
            assert again.next_deadline() == Deadline(60_000, {"type": "em_time_up"})
            assert again.view(None)["ends_at"] == 60_000
        again.apply(action)
    assert again.is_over and again.next_deadline() is None


def test_cards_only_a_question_being_asked_when_time_runs_out_is_finished_first() -> None:
    match = position(2, variant="cards_only", game_minutes=1)
    act(match, "category", 0, category="varia")
    match.apply({"type": "em_time_up", "at": 60_000})
    assert not match.is_over and match.view(1)["time_over"] is True
    answer(match, True)
    assert match.is_over and match.result.winners == (0,)


def test_cards_only_tie_shares_the_win() -> None:
    match = position(2, variant="cards_only", game_minutes=1)
    match.state["kept"] = [["a"], ["b"]]
    match.apply({"type": "em_time_up", "at": 60_000})
    assert match.result.winners == (0, 1)


def test_cards_only_the_die_may_name_the_category() -> None:
    match = position(2, variant="cards_only", cards_category="die", die=4)
    assert match.state["phase"] == "roll"
    act(match, "roll", 0)
    assert match.state["asking"]["category"] == CATS[3]


# --- variant 3: clockwise only -----------------------------------------------------------------------------------


def test_clockwise_only_moves_at_once_to_the_one_square() -> None:
    match = position(2, die=3, clockwise_only=True)
    events = act(match, "roll", 0)
    assert match.state["pawns"][0] == "o3" and "moved" in types(events)
    assert match.state["phase"] == "ask"


# --- variant 4: teams -----------------------------------------------------------------------------------------------


def test_teams_a_different_member_answers_each_time() -> None:
    match = position(2, die=3, team_members=3, team_answer="rotate")
    assert match.view(0)["teams"][0] == {"members": 3, "answering": "1"}
    act(match, "roll", 0)
    act(match, "move", 0, to="o3")
    assert match.state["asking"]["member"] == "1"
    answer(match, False)
    assert match.view(1)["teams"][0]["answering"] == "2"


def test_teams_that_consult_give_one_answer_for_the_team() -> None:
    match = position(2, die=3, team_members=3, team_answer="consult")
    assert match.view(0)["teams"][0] == {"members": 3, "answering": None}
    act(match, "roll", 0)
    act(match, "move", 0, to="o3")
    assert match.state["asking"]["member"] is None and match.state["ask"]["answerers"] == [0]


# --- the board file -------------------------------------------------------------------------------------------------


def test_a_group_may_load_another_board_file(tmp_path: Path) -> None:
    text = rules.BOARD_FILE.read_text(encoding="utf-8").replace("id: eesti-malumang", "id: our-board", 1)
    text = text.replace("{id: o1, colour: history", "{id: o1, colour: varia")
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    match = mindtable.new_match("eesti-malumang", players=2, seed=1, options={"board_file": str(path)})
    assert match.view(0)["board"]["id"] == "our-board"
    assert match.state["board"]["id"] == "our-board"  # pinned in the state


def test_a_bad_board_file_is_refused_naming_the_problem(tmp_path: Path) -> None:
    path = tmp_path / "board.yaml"
    path.write_text(rules.BOARD_FILE.read_text(encoding="utf-8").replace("special: estonia", "special: x"))
    with pytest.raises(InvalidOptions) as err:
        mindtable.new_match("eesti-malumang", players=2, options={"board_file": str(path)})
    assert "Estonia space" in str(err.value)
    with pytest.raises(InvalidOptions) as err:
        mindtable.new_match("eesti-malumang", players=2, options={"board_file": str(tmp_path / "none.yaml")})
    assert "cannot be read" in str(err.value)


# --- content pinned: replay with no content file ------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "cards_only"])
def test_a_finished_bot_game_replays_from_its_record_with_the_content_files_hidden(
    variant: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = mindtable.get_game("eesti-malumang")
    match = mindtable.new_match("eesti-malumang", players=3, seed=4, options={"variant": variant, "language": "en"})
    result = play_out(match, {s: game.make_bot("knowing", seat=s, seed=s) for s in range(3)})
    record = json.loads(json.dumps(match.record()))
    monkeypatch.setattr(rules, "CONTENT", tmp_path / "no-content")
    monkeypatch.setattr(rules, "BOARD_FILE", tmp_path / "no-board.yaml")
    for cached in (rules.content_cards, rules.packed_content, rules._default_board_text, rules._default_board_json):
        cached.cache_clear()
    monkeypatch.setattr(rules, "_CARDS", {})
    monkeypatch.setattr(rules, "_BOARDS", {})
    monkeypatch.setattr(rules, "_BOARD_VIEWS", {})
    again = mindtable.replay(record)
    assert again.result == result and again.snapshot() == match.snapshot()
    assert record["content"] is None  # nothing is read during play
    for cached in (rules.content_cards, rules.packed_content, rules._default_board_text, rules._default_board_json):
        cached.cache_clear()
