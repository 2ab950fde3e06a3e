"""The box at print scale: "take one of the 5 card packs" — 600 cards per language, 120 a pack, the six types in
even shares (100 each, 20 a pack), the same cards in Spanish and English; every card can be drawn, answered and
judged in both languages; and a pack lasts an evening: in games of eight bots it is not run through before the
game ends."""

from __future__ import annotations

from collections import Counter

import pytest

import mindtable
from mindtable.core.driver import play_out
from mindtable.games.caida_libre import rules
from tests.caida_libre.conftest import act, current, position, right, wrong

LANGUAGES = ("es", "en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_box_holds_600_cards_120_a_pack_100_of_each_type(language: str) -> None:
    cards = rules.deal_cards(language, "all")
    assert len(cards) == 600
    assert Counter(c["pack"] for c in cards.values()) == {pack: 120 for pack in ("1", "2", "3", "4", "5")}
    assert Counter(c["type"] for c in cards.values()) == {kind: 100 for kind in rules.CARD_TYPES}
    assert set(Counter((c["pack"], c["type"]) for c in cards.values()).values()) == {20}


def test_both_languages_hold_the_same_cards_with_the_same_packs_difficulties_and_penalties() -> None:
    def shape(language: str) -> dict[str, tuple[object, ...]]:
        return {
            cid: (
                c["type"],
                c["pack"],
                tuple((q.get("difficulty"), q.get("penalty"), q.get("kind")) for q in c["questions"]),
            )
            for cid, c in rules.deal_cards(language, "all").items()
        }

    es, en = shape("es"), shape("en")
    assert sorted(es) == sorted(en)
    assert {cid for cid in es if es[cid] != en[cid]} == set()


def _asked(card_id: str, pack: str, language: str, choose: int) -> object:
    match = position(3, card=card_id, language=language, weapons=False, pack=pack)
    act(match, "draw", match.state["turn"]["seat"])
    if match.state["ask"]["index"] is None:
        act(match, "ask_choose", match.state["ask"]["answerers"][0], question=choose)
    return match


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_is_drawn_answered_and_judged(language: str) -> None:
    """Each question of each card is drawn and answered as printed, the judge suggests "right" to the asker and
    the card plays to its end; a classic wrong answer to the same question is judged wrong (by the same judge,
    with the game's house rules)."""
    from mindtable.trivia import judge_answer
    from mindtable.trivia.model import question_from_dict

    problems = []
    for card_id, card in rules.deal_cards(language, "all").items():
        for choose in range(2 if card["type"] == "double" else 1):
            match = _asked(card_id, card["pack"], language, choose)
            while match.state["ask"] is not None and match.state["ask"]["phase"] == "answer":
                q = current(match)
                ask = match.state["ask"]
                act(match, "ask_answer", ask["answerers"][0], text=right(q))
                suggestion = match.state["ask"]["suggestion"]
                if suggestion["correct"] is not True:
                    problems.append(f"{card_id} {q['id']}: right answer {right(q)!r}: {suggestion['reason']}")
                rules_in_play = dict(match.state["ask"]["rules"] or {})
                refused = judge_answer(question_from_dict(q), wrong(q), language=language, **rules_in_play)
                if refused.correct:
                    problems.append(f"{card_id} {q['id']}: wrong answer {wrong(q)!r} taken: {refused.reason}")
                act(match, "ask_confirm", match.state["ask"]["reader"])
            if match.state["ask"] is not None:
                problems.append(f"{card_id}: still asking in phase {match.state['ask']['phase']}")
    assert problems == [], f"{len(problems)} problems: {problems[:15]}"


def test_a_pack_lasts_an_evening_of_eight_players() -> None:
    """Games of eight knowing bots, one pack each: the pack is run through before the game ends in fewer than
    one game in twenty."""
    seeds = range(40)
    exhausted = 0
    for seed in seeds:
        match = mindtable.new_match("caida-libre", players=8, seed=seed, options={"pack": str(seed % 5 + 1)})
        game = mindtable.get_game("caida-libre")
        bots = {s: game.make_bot("knowing", seat=s, seed=seed * 8 + s) for s in range(8)}
        play_out(match, bots)
        assert match.result is not None
        exhausted += match.state["deck"]["reshuffles"] > 0 or not match.state["deck"]["draw"]
    assert exhausted / len(seeds) < 0.05, f"{exhausted} of {len(seeds)} games ran through their pack"


def test_the_stats_command_counts_the_cards_per_type_and_pack() -> None:
    import re

    from typer.testing import CliRunner

    from mindtable.cli.app import app

    content = rules.CONTENT / "es"
    result = CliRunner().invoke(app, ["questions", "stats", str(content)])
    assert result.exit_code == 0, result.output
    for kind in rules.CARD_TYPES:
        assert re.search(rf"es {kind}\s*│\s*100\b", result.output), kind
    for pack in "12345":
        assert re.search(rf"es pack {pack}\s*│\s*120\b", result.output), pack
