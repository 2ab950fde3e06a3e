"""The ask step, path by path, as scenarios on the reference quiz game (tests/reference_quiz.py): a position
with a question being asked is built with ``Match.from_snapshot``, the players act, and we check what each seat
sees, the verdict that counts, who decided it, and the score the game gives for it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import mindtable
from mindtable.core.codes import seat_params
from mindtable.core.match import Match
from mindtable.core.turns import new_turn, right_of
from mindtable.trivia.quiz import open_ask
from tests.core.test_conformance import test_random_play_respects_the_protocol as conformance
from tests.reference_quiz import GAME


@pytest.fixture(autouse=True, scope="module")
def _quiz_relay_registered() -> Iterator[None]:
    """Quiz Relay is registered while these tests run, and only then (other tests list the registered games)."""
    from mindtable.core import registry

    mindtable.register_game(GAME)
    yield
    registry._loaded.pop(GAME.id, None)


ANSWERER, READER, OTHER = 0, 2, 1  # with three players, the reader is the answerer's right (seat 2)


def asking(
    card: str,
    topic: str,
    *,
    players: int = 3,
    star: bool = False,
    time_limit_ms: int | None = None,
    confirm_ms: int | None = None,
    vote: bool = False,
    clock: int = 1_000,
) -> Match:
    """A position: seat 0 on a square of ``topic``, the card ``card`` drawn and its question being asked."""
    match = mindtable.new_match("quiz-relay", players=players, seed=1, options={"vote": vote})
    snapshot = match.snapshot()
    state = snapshot["state"]
    state["turn"] = new_turn(players, ANSWERER)
    state["pawns"][ANSWERER] = "s2" if star else "s1"
    state["deck"]["draw"].remove(card)
    state["ask"], _ = open_ask(
        state["cards"][card],
        reader=right_of(ANSWERER, players),
        answerers=[ANSWERER],
        players=players,
        question=topic,
        options="never" if star else "allowed",
        time_limit_ms=time_limit_ms,
        confirm_ms=confirm_ms,
        vote=vote,
        at=clock,
    )
    state["phase"] = "ask"
    snapshot["clock"] = clock
    return Match.from_snapshot(snapshot)


def act(match: Match, seat: int | None, kind: str, **params: Any) -> list[dict[str, Any]]:
    action: dict[str, Any] = {"type": kind, **params}
    if seat is not None:
        action["seat"] = seat
    return [e.to_dict() for e in match.apply(action)]


def decided(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "ask_decided")


def test_a_typed_right_answer_is_suggested_right_and_the_reader_confirms_it() -> None:
    match = asking("qr-01", "history")
    assert match.to_act() == [ANSWERER]
    events = act(match, ANSWERER, "ask_answer", text="Cusco")
    # The suggestion, with its reason, goes to the reader only.
    suggestion = next(e for e in events if e["type"] == "ask_suggestion")
    assert suggestion["suggestion"]["correct"] is True and suggestion["suggestion"]["code"]
    assert match.view(READER)["ask"]["suggestion"]["correct"] is True
    assert "suggestion" not in match.view(ANSWERER)["ask"]
    assert match.to_act() == [READER]
    # Answering twice, or answering out of turn, is refused naming the seats it waits for (a page says their names)
    with pytest.raises(mindtable.IllegalAction) as again:
        act(match, ANSWERER, "ask_answer", text="Lima")
    assert again.value.code == "ask_not_answering" and again.value.params == {"waiting": [READER]}
    assert again.value.message == f"the answer is already given; waiting for {READER}"
    with pytest.raises(mindtable.IllegalAction) as not_yours:
        act(match, OTHER, "ask_answer", text="Lima")
    assert not_yours.value.code == "ask_not_answerer" and not_yours.value.params == {"answerers": [ANSWERER]}
    for refusal in (again.value, not_yours.value):
        assert seat_params(refusal.code, refusal.params, match.game.seat_params) == list(refusal.params)
    events = act(match, READER, "ask_confirm")
    verdict = decided(events)
    assert verdict["correct"] and verdict["by"] == "reader" and verdict["seat"] == READER
    assert verdict["answer"].startswith("CUZCO")
    assert match.state["scores"][ANSWERER] == 2  # a direct answer: two points
    assert match.state["turn"]["seat"] == ANSWERER  # right: roll again


def test_a_typed_wrong_answer_is_suggested_wrong_and_the_turn_passes() -> None:
    match = asking("qr-02", "science")
    act(match, ANSWERER, "ask_answer", text="Jupiter")
    assert match.state["ask"]["suggestion"]["correct"] is False
    verdict = decided(act(match, READER, "ask_confirm"))
    assert verdict["correct"] is False and verdict["overruled"] is False
    assert match.state["scores"][ANSWERER] == 0
    assert match.state["turn"]["seat"] == 1  # the turn passes to the left


def test_a_letter_counts_only_after_the_options_were_read_out() -> None:
    before = asking("qr-02", "science")
    act(before, ANSWERER, "ask_answer", text="b")
    assert before.state["ask"]["suggestion"]["correct"] is False  # "b" is just the text "b"

    match = asking("qr-02", "science")
    assert match.view(ANSWERER)["ask"]["options_available"] is True
    assert "options" not in match.view(ANSWERER)["ask"]["question"]
    events = act(match, ANSWERER, "ask_options")
    assert events[0] == {"type": "ask_options", "seat": ANSWERER, "options": ["Jupiter", "Saturn", "Neptune"]}
    assert match.view(OTHER)["ask"]["question"]["options"] == ["Jupiter", "Saturn", "Neptune"]
    with pytest.raises(mindtable.IllegalAction) as again:
        act(match, ANSWERER, "ask_options")
    assert again.value.code == "ask_options_shown"
    act(match, ANSWERER, "ask_answer", text="b")
    assert match.state["ask"]["suggestion"]["correct"] is True
    assert match.state["ask"]["suggestion"]["with_options"] is True
    verdict = decided(act(match, READER, "ask_confirm"))
    assert verdict["with_options"] is True
    assert match.state["scores"][ANSWERER] == 1  # after the options: one point


def test_on_a_star_square_options_cannot_be_asked_for() -> None:
    match = asking("qr-02", "science", star=True)
    assert "ask_options" not in {a["type"] for a in match.legal_actions(ANSWERER)}
    with pytest.raises(mindtable.IllegalAction) as refused:
        act(match, ANSWERER, "ask_options")
    assert refused.value.code == "ask_options_closed"


def test_a_question_without_options_refuses_to_read_them_out() -> None:
    match = asking("qr-03", "science")
    with pytest.raises(mindtable.IllegalAction) as refused:
        act(match, ANSWERER, "ask_options")
    assert refused.value.code == "ask_no_options"


def test_passing_decides_wrong_at_once_and_needs_no_reader() -> None:
    match = asking("qr-01", "history")
    events = act(match, ANSWERER, "ask_pass")
    verdict = decided(events)
    assert verdict["correct"] is False and verdict["by"] == "pass" and verdict["seat"] == ANSWERER
    assert match.state["ask"] is None and match.state["turn"]["seat"] == 1


def test_the_reader_overrules_a_wrong_suggestion() -> None:
    match = asking("qr-03", "history")
    act(match, ANSWERER, "ask_answer", text="Octavianus the young")  # the idea is right; the judge says no
    assert match.state["ask"]["suggestion"]["correct"] is False
    with pytest.raises(mindtable.IllegalAction) as not_reader:
        act(match, OTHER, "ask_overrule")
    assert not_reader.value.code == "ask_not_reader"
    verdict = decided(act(match, READER, "ask_overrule"))
    assert verdict["correct"] is True and verdict["overruled"] is True and verdict["by"] == "reader"
    assert match.state["scores"][ANSWERER] == 2
    # The record keeps who decided: the reader's action is in it, and replaying gives the same verdict.
    record = match.record()
    assert record["actions"][-1]["type"] == "ask_overrule" and record["actions"][-1]["seat"] == READER
    assert mindtable.replay(json.loads(json.dumps(record))).snapshot() == match.snapshot()


def test_after_an_overrule_the_reason_says_the_verdict_decided() -> None:
    # the judge's words for its suggestion ("a small typo, accepted") never stand under the opposite verdict
    match = asking("qr-03", "history")
    act(match, ANSWERER, "ask_answer", text="Augustos")
    suggestion = match.state["ask"]["suggestion"]
    assert suggestion["correct"] is True and suggestion["code"] == "typo"
    verdict = decided(act(match, READER, "ask_overrule"))
    assert verdict["correct"] is False and verdict["overruled"] is True
    assert verdict["code"] == "overruled_wrong" and verdict["params"]["judge"] == "typo"
    assert "ruled wrong" in verdict["reason"]
    match = asking("qr-03", "history")
    act(match, ANSWERER, "ask_answer", text="Octavianus the young")
    verdict = decided(act(match, READER, "ask_overrule"))
    assert verdict["correct"] is True and verdict["code"] == "overruled_right" and "ruled right" in verdict["reason"]
    match = asking("qr-01", "science")  # a list recounted: the count the reader gave, in the list's own words
    act(match, ANSWERER, "ask_answer", text="helium, neon, gold")
    verdict = decided(act(match, READER, "ask_overrule", named=3))
    assert verdict["code"] == "list_complete" and verdict["params"]["named"] == 3
    assert verdict["reason"].startswith("3 of 3 items")
    match = asking("qr-03", "history")  # confirmed: the judge's own reason stands
    act(match, ANSWERER, "ask_answer", text="Augustus")
    verdict = decided(act(match, READER, "ask_confirm"))
    assert verdict["code"] != "overruled_right" and verdict["overruled"] is False


def test_the_overruled_codes_have_words_in_every_language() -> None:
    from mindtable.trivia.quiz import OVERRULED_CODES
    from mindtable.web import STATIC_DIR

    for language in ("en", "es", "et"):
        words = json.loads((STATIC_DIR / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
        assert all(words.get(f"judge.{code}") for code in OVERRULED_CODES), language


def test_a_list_answer_is_judged_item_by_item_and_the_reader_may_recount() -> None:
    match = asking("qr-01", "science")
    act(match, ANSWERER, "ask_answer", text="helium, neon, gold")
    suggestion = match.state["ask"]["suggestion"]
    assert (suggestion["named"], suggestion["missing"], suggestion["needed"]) == (2, 1, 3)
    assert suggestion["correct"] is False
    verdict = decided(act(match, READER, "ask_overrule", named=3))
    assert verdict["correct"] is True and verdict["named"] == 3 and verdict["missing"] == 0


def test_the_table_votes_and_the_majority_decides() -> None:
    match = asking("qr-03", "history", vote=True, players=4)
    act(match, ANSWERER, "ask_answer", text="the first Caesar")
    assert match.state["ask"]["suggestion"]["correct"] is False
    act(match, ANSWERER, "ask_call_vote")
    voters = match.to_act()
    assert voters == [1, 2, 3]  # everyone but the answering side, the reader included
    act(match, 1, "ask_vote", verdict="right")
    with pytest.raises(mindtable.IllegalAction) as twice:
        act(match, 1, "ask_vote", verdict="wrong")
    assert twice.value.code == "ask_voted"
    act(match, 2, "ask_vote", verdict="right")
    verdict = decided(act(match, 3, "ask_vote", verdict="wrong"))
    assert verdict["correct"] is True and verdict["by"] == "vote" and verdict["votes"] == {"right": 2, "wrong": 1}


def test_without_the_vote_option_no_vote_can_be_called() -> None:
    match = asking("qr-03", "history")
    act(match, ANSWERER, "ask_answer", text="Nero")
    with pytest.raises(mindtable.IllegalAction) as refused:
        act(match, OTHER, "ask_call_vote")
    assert refused.value.code == "ask_no_vote"


def test_when_time_runs_out_the_draft_is_judged_item_by_item() -> None:
    match = asking("qr-04", "history", time_limit_ms=15_000, clock=1_000)
    deadline = match.next_deadline()
    assert deadline is not None and deadline.at == 16_000 and deadline.action == {"type": "ask_time_up"}
    act(match, ANSWERER, "ask_type", text="Pinta", at=5_000)
    act(match, ANSWERER, "ask_type", text="Pinta, Nina", at=9_000)
    assert match.view(READER)["ask"]["draft"] == "Pinta, Nina"
    with pytest.raises(mindtable.IllegalAction) as late:
        act(match, ANSWERER, "ask_answer", text="Pinta, Nina, Santa Maria", at=16_001)
    assert late.value.code == "ask_time_up"
    events = act(match, None, "ask_time_up", at=16_000)
    assert events[0] == {"type": "ask_time_up", "text": "Pinta, Nina"}
    suggestion = match.state["ask"]["suggestion"]
    assert (suggestion["named"], suggestion["missing"]) == (2, 1)
    verdict = decided(act(match, READER, "ask_confirm", at=17_000))
    assert verdict["correct"] is False and verdict["named"] == 2


def test_when_time_runs_out_with_nothing_typed_the_answer_is_wrong() -> None:
    match = asking("qr-02", "history", time_limit_ms=15_000)
    verdict = decided(act(match, None, "ask_time_up", at=16_000))
    assert verdict["correct"] is False and verdict["by"] == "timeout" and verdict["given"] == ""


def test_a_reader_who_does_not_decide_in_time_leaves_the_suggestion_standing() -> None:
    match = asking("qr-01", "history", confirm_ms=20_000)
    act(match, ANSWERER, "ask_answer", text="Cuzco", at=2_000)
    deadline = match.next_deadline()
    assert deadline is not None and deadline.at == 22_000 and deadline.action == {"type": "ask_settle"}
    verdict = decided(act(match, None, "ask_settle", at=22_000))
    assert verdict["correct"] is True and verdict["by"] == "timeout" and verdict["seat"] is None


def test_a_bot_reader_confirms_the_suggestion() -> None:
    match = asking("qr-02", "science")
    act(match, ANSWERER, "ask_answer", text="Saturn")
    bot = GAME.make_bot("knowing", seat=READER, seed=1)
    decision = bot.decide(mindtable.core.bots.observe(match, READER, now=match.clock))
    assert decision is not None and decision.action == {"type": "ask_confirm"}


def test_the_reader_sees_the_card_and_no_one_else_sees_its_answers_or_other_questions() -> None:
    match = asking("qr-01", "history")
    card = match.state["cards"]["qr-01"]
    hidden = [card["questions"][1]["prompt"], card["questions"][0]["answer"], "Helium"]
    reader_view = json.dumps(match.view(READER))
    assert all(text in reader_view for text in hidden)
    for seat in (ANSWERER, OTHER, None):
        seen = json.dumps(match.view(seat))
        assert card["questions"][0]["prompt"] in seen
        assert not any(text in seen for text in hidden), f"seat {seat} sees the reader's card"
    # Once decided, the question's answer is shown to everyone; the card's other questions stay hidden.
    events = match.apply({"type": "ask_pass", "seat": ANSWERER})
    public = json.dumps(mindtable.events_for(events, OTHER)) + json.dumps(match.view(OTHER))
    assert card["questions"][0]["answer"] in public
    assert card["questions"][1]["prompt"] not in public


def test_the_answerer_of_a_double_card_chooses_by_topic_and_penalty_before_seeing_a_prompt() -> None:
    from mindtable.trivia.model import Card, Question

    card = Card(
        "double-1",
        (
            Question(
                "d/1", "text", "Who won Wimbledon in 1980?", "Björn BORG", extra={"topic": "Tennis", "penalty": 20}
            ),
            Question(
                "d/2", "text", "Which vitamin does sunlight make?", "D", extra={"topic": "Vitamins", "penalty": 40}
            ),
        ),
        type="double",
    )
    ask, events = open_ask(card, reader=1, answerers=[0], players=2, choices=[0, 1])
    from mindtable.trivia.quiz import ask_view

    seen = json.dumps(ask_view(ask, 0)) + json.dumps([e.to_dict() for e in events if e.visible_to(0)])
    assert "Tennis" in seen and "40" in seen
    assert "Wimbledon" not in seen and "sunlight" not in seen
    assert ask_view(ask, 0)["phase"] == "choose"


@pytest.mark.parametrize(
    "options",
    [{}, {"answer_seconds": 15, "confirm_seconds": 20}, {"vote": True}, {"options_allowed": False}],
    ids=["plain", "timed", "vote", "no-options"],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_reference_quiz_game_passes_the_core_conformance_checks(options: dict[str, Any], seed: int) -> None:
    for players in (2, 3):
        conformance("quiz-relay", players, options, seed)


@pytest.mark.parametrize(
    "options",
    [{"answer_seconds": 15, "confirm_seconds": 20}, {"vote": True}, {"vote": True, "undo_seconds": 4}],
    ids=["timed", "vote", "vote-undo"],
)
def test_the_ask_steps_gates_open_in_listings_exactly_when_they_open(options: dict[str, Any]) -> None:
    from tests.core.test_fast_paths import check_declared_gates

    for seed, players in ((1, 2), (2, 3), (3, 4)):
        assert check_declared_gates("quiz-relay", players, options, seed)


def test_a_bots_view_of_the_step_is_the_pages_view_whichever_part_it_reads_first() -> None:
    from mindtable.trivia.quiz import ask_view, bot_ask_view

    match = asking("qr-03", "history", vote=True, players=4)
    moves = [
        (ANSWERER, "ask_answer", {"text": "Nero"}),
        (ANSWERER, "ask_call_vote", {}),
        (1, "ask_vote", {"verdict": "right"}),
    ]
    for seat, kind, params in [*moves, (None, None, {})]:
        ask = match.state["ask"]
        for viewer in (*range(4), None):
            page: dict[str, Any] = dict(ask_view(ask, viewer) or {})
            assert page
            for first in page:
                lazy = bot_ask_view(ask, viewer)
                assert lazy is not None and lazy[first] == page[first]
                assert dict(lazy) == page and list(lazy) == list(page) and repr(lazy) == repr(page)
        if kind is not None:
            act(match, seat, kind, **params)
    assert bot_ask_view(None, 0) is None


def test_knowing_bots_play_to_the_end_and_know_more_when_they_know_more() -> None:
    from mindtable.core.driver import play_out

    def right_share(knows: float) -> float:
        right = total = 0
        for seed in range(12):
            match = mindtable.new_match("quiz-relay", players=2, seed=seed)
            bots = {s: GAME.make_bot("knowing", seat=s, seed=seed, knows=knows) for s in range(2)}
            play_out(match, bots, on_events=None)
            for action in match.actions:
                if action["type"] in ("ask_confirm", "ask_pass"):
                    total += 1
            right += sum(match.state["scores"])
        return right / max(total, 1)

    assert right_share(1.0) > right_share(0.1)
