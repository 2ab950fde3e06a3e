"""Eesti mälumäng in a terminal, in the room's language: the board drawn as text, whose turn and who asks, the
question as the answering side sees it, the asker's card with the answer and the judge's suggestion, what
happened since the last turn, a numbered menu of the legal actions, and a summary at the end.

``mindtable play eesti-malumang`` (hot-seat with ``--humans N``, bots in the other seats). Every line is said
through a message catalogue (:class:`mindtable.kit.words.Catalogue`) in ``language`` (``et``, ``en`` or ``es``;
by default the match's ``language`` option, ``et`` unless the room chose another): the page's own words
(``mindtable/games/eesti_malumang/web/i18n`` and the site's ``i18n``) where they fit, and the terminal's
in ``i18n/<language>.json`` beside this module. Refusals are said from their codes and parameters. The board
is a grid of cells — ``[A12 ]``: the category's initial in that language (A Ajalugu, K Kultuur, L Loodusteadus,
G Geograafia, S Sport, V Varia; E an Estonia space, F the finish square) and the pieces (player numbers)
standing there.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from mindtable.core.bots import Bot
from mindtable.core.codes import seat_params
from mindtable.core.errors import IllegalAction
from mindtable.core.match import Match
from mindtable.kit.names import seat_name
from mindtable.kit.table import TableDriver
from mindtable.kit.terminal import play_turns
from mindtable.kit.words import Catalogue, screen_language, surface_words
from mindtable.trivia.quiz import overrule_count_asked, reader_answer

Reader = Callable[[str], str]

HERE = Path(__file__).resolve().parent
CATEGORY_ORDER = ("history", "culture", "science", "geography", "sport", "varia")
#: Actions a person does not pick from the menu: the draft of a typed answer, and what this game never opens
#: (options read out, a table vote).
MENU_SKIP = ("ask_type", "ask_options", "ask_call_vote", "ask_vote", "ask_choose")
#: Events the screen itself shows (the question, the asker's card, the judge's suggestion, whose turn).
SILENT_EVENTS = ("ask_opened", "ask_card", "ask_question", "ask_suggestion", "ask_draft", "turn", "won")


def words(language: str) -> Catalogue:
    """The terminal's words in ``language``, first match wins: its own (``i18n`` beside this module), the game
    page's, the site's; English fills in any key a language lacks."""
    return surface_words(language, HERE / "i18n", web_module="eesti-malumang")


class Screen:
    """How the match reads in one language: names, squares, categories, the board, the question, events."""

    def __init__(self, match: Match, human_seats: Sequence[int], language: str | None = None) -> None:
        self.match = match
        self.humans = list(human_seats)
        self.say = words(screen_language(language, match.options))
        self._answering: dict[int, int] = {}
        self._told_verdict = False

    # --- the shared turn loop's questions (mindtable.kit.terminal.TurnScreen) ----------------------------------

    def tell(self, seat: int, events: list[dict[str, Any]], view: Mapping[str, Any]) -> list[str]:
        """A line for each event ``seat`` has not been told (who answers each question is kept for the verdict's
        line); whether a verdict was among them decides if the screen repeats the last one."""
        self._told_verdict = False
        lines = []
        for event in events:
            self._told_verdict = self._told_verdict or event["type"] == "ask_decided"
            if event["type"] == "question":
                self._answering[seat] = event["seat"]
            line = self.event(event, view, self._answering.get(seat))
            if line is not None:
                lines.append(line)
        return lines

    def draw(self, view: Mapping[str, Any], seat: int, now: int) -> list[Text]:
        return [Text(line) for line in self.render(view, seat, now, last=not self._told_verdict)]

    def describe(self, entry: Mapping[str, Any], view: Mapping[str, Any]) -> str:
        return self.action(entry, view)

    def wants(self, entry: Mapping[str, Any], spec: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
        return overrule_count_asked(entry, spec, view)

    # --- names -------------------------------------------------------------------------------------------------

    def name(self, seat: int | None) -> str:
        if seat is None:
            return ""
        return seat_name(seat, self.humans, functools.partial(self.say, "term.player"))

    def category(self, category: str) -> str:
        return self.say(f"em.category.{category}")

    def square(self, view: Mapping[str, Any], square: str | None) -> str:
        if square is None:
            return self.say("term.no_piece")
        sq = _squares(view).get(square)
        if sq is None:
            return square
        if sq["kind"] == "finish":
            return self.say("term.finish")
        topic = _topic(view, sq)
        if topic is None:
            corner = f"term.square.{square}"
            return self.say("term.estonia_space", corner=self.say(corner) if self.say.has(corner) else square)
        return self.say("term.square", category=self.category(topic), id=square)

    def direction(self, direction: str) -> str:
        return self.say(f"em.direction.{direction}")

    def verdict(self, correct: bool) -> str:
        return self.say("quiz.right" if correct else "quiz.wrong")

    # --- the board ---------------------------------------------------------------------------------------------

    def board(self, view: Mapping[str, Any]) -> list[str]:
        return board_lines(self.say, view["board"], view["pawns"])

    # --- a seat's screen ---------------------------------------------------------------------------------------

    def render(
        self, view: Mapping[str, Any], seat: int | None, now: int | None = None, *, last: bool = True
    ) -> list[str]:
        """What ``seat`` sees: the board, the players and their Estonia cards, the cards left, the die, whose
        step it is, who asks, the question (the asker also sees the answer and the judge's suggestion) and
        (``last``) the last question's verdict; ``now`` is the match time, for the clock of variant 2."""
        say = self.say
        variant = say(f"em.variant.{view['variant']}")
        lines = [f"{say('game.title')} — {variant}"]
        if view.get("board") is not None:
            lines += self.board(view)
        else:
            lines.append(say("em.no_board"))
        lines.append(say("term.players"))
        for s, held in enumerate(view["held"]):
            you = f" ({say('em.you')})" if s == seat else ""
            parts = []
            if view["variant"] != "cards_only":
                parts.append(say("term.piece", square=self.square(view, view["pawns"][s])))
            colours = [self.category(c) for c in CATEGORY_ORDER for _ in range(held.get(c, 0))]
            if view["variant"] != "cards_only":
                parts.append(", ".join(colours) if colours else say("term.no_cards"))
            count = view["kept"][s] if view["variant"] == "cards_only" else view["cards"][s]
            parts.append(say("em.card_count", n=count))
            if view["complete"][s]:
                parts.append(say("term.complete"))
            lines.append(f"  {s + 1}. {self.name(s)}{you}: " + " · ".join(parts))
        if view["variant"] != "cards_only":
            left = [say("term.supply_item", category=self.category(c), n=view["supply"][c]) for c in CATEGORY_ORDER]
            lines.append(f"{say('em.supply')} " + " · ".join(left))
        else:
            lines.append(self.clock(view, now))
        rolled = view["phase"] in ("move", "category") or (view["asking"] or {}).get("reason") in ("track", "cards")
        if view.get("die") is not None and rolled:
            lines.append(say("term.die", die=view["die"]))
        lines.append(self.status(view, seat))
        if view.get("asker") is not None and view["phase"] not in ("over", "place", "ask"):
            key = "em.asker_you" if view["asker"] == seat else "em.asker"
            lines.append(say(key, name=self.name(view["asker"])))
        if view.get("ask"):
            lines += self.question(view, seat)
        elif (last_q := view.get("last")) and last:
            lines.append(f"{say('em.last')}: " + self.decided(last_q, last_q["seat"], last_q.get("decided_by")))
        return lines

    def clock(self, view: Mapping[str, Any], now: int | None) -> str:
        say = self.say
        if view["time_over"] or view["phase"] == "over":
            return say("em.clock_over")
        line = say("em.clock", minutes=round(view["ends_at"] / 60000))
        if now is not None:
            left = max(0, (view["ends_at"] - now + 999) // 1000)
            line += f" · {say('em.clock_left')} {left // 60}:{left % 60:02d}"
        return line

    def status(self, view: Mapping[str, Any], seat: int | None) -> str:
        """Whose step it is, in words (the page's ``em.step.*``)."""
        phase = view["phase"]
        say = self.say
        if phase == "final_category":
            key = "em.step.final_category_you" if view["asker"] == seat else "em.step.final_category"
            return say(key, name=self.name(view["asker"]), player=self.name(view["turn"]))
        if phase == "ask":
            answerer = view["asking"]["seat"]
            key = "em.step.ask_you" if answerer == seat else "em.step.ask"
            return say(key, name=self.name(answerer), asker=self.name(view["asking"]["reader"]))
        who = view["placing"] if phase == "place" else view["turn"]
        if phase == "category" and view["variant"] == "cards_only" and who == seat:
            return say("em.step.category_cards_you")  # no Estonia space: the answering player names it
        key = f"em.step.{phase}_you" if who == seat and phase != "over" else f"em.step.{phase}"
        return say(key, name=self.name(who))

    def question(self, view: Mapping[str, Any], seat: int | None) -> list[str]:
        """The question being asked, as ``seat`` may see it: the asker gets the answer on their card and the
        judge's suggestion (what the server's view gives the reader only)."""
        say = self.say
        ask, asking = view["ask"], view["asking"]
        lines: list[str] = []
        team = view["teams"][asking["seat"]] if view.get("teams") else None
        if team:
            if view.get("team_answer") == "consult":
                lines.append(say("term.team_consult"))
            elif team.get("answering"):
                lines.append(say("term.team_member", member=team["answering"]))
        q = ask.get("question")
        if q:
            heading = say("quiz.reader_card") if ask["role"] == "reader" else say("quiz.question")
            category = self.category(asking["category"])
            lines.append(f"{heading} — {category}: " + say("term.prompt", prompt=q["prompt"]))
            if q.get("count"):
                lines.append("  " + say("quiz.name_items", count=q["count"]))
            if q.get("unit"):
                lines.append("  " + say("term.unit", unit=q["unit"]))
            card = ask.get("card")
            if card is not None:  # the reader's card: the view holds it for the reader only
                answer = reader_answer(card["questions"][q["index"]], say)
                lines.append("  " + say("quiz.the_answer", answer=answer))
        if ask.get("deadline") is not None and ask["role"] == "answerer":
            lines.append("  " + say("term.answer_deadline", s=max(0, (ask["deadline"] - self.match.clock) // 1000)))
        if ask.get("given") is not None and ask["phase"] in ("judge", "vote"):
            lines.append("  " + say("quiz.given", text=say("term.prompt", prompt=ask["given"])))
        suggestion = ask.get("suggestion")
        if suggestion and ask["phase"] in ("judge", "vote"):
            lines.append(
                f"  {say('quiz.suggestion')} {self.verdict(suggestion['correct'])} ({self.reason(suggestion)})"
            )
        return lines

    def reason(self, verdict: Mapping[str, Any]) -> str:
        """The judge's reason from its code and parameters."""
        params = {**verdict.get("params", {}), "named": verdict.get("named"), "needed": verdict.get("needed")}
        return self.say(f"judge.{verdict['code']}", **{k: v for k, v in params.items() if v is not None})

    def decided(self, result: Mapping[str, Any], answerer: int | None, decider: int | None = None) -> str:
        """A decided question: its prompt, the answer, the answering player's verdict and who decided it (the
        ``decider`` seat, when known)."""
        say = self.say
        by = result.get("by") or "reader"
        parts = [] if by == "reader" and decider is None else [say(f"quiz.by.{by}", name=self.name(decider))]
        if result.get("overruled"):
            parts.append(say("quiz.overruled"))
        verdict = self.verdict(bool(result["correct"]))
        if "needed" in result:
            verdict += f", {say('quiz.items', named=result['named'], needed=result['needed'])}"
        return say(
            "term.decided",
            prompt=result["prompt"],
            answer=result["answer"],
            name=self.name(answerer),
            verdict=verdict + (f" ({', '.join(parts)})" if parts else ""),
        )

    # --- events ------------------------------------------------------------------------------------------------

    def event(self, event: Mapping[str, Any], view: Mapping[str, Any], answerer: int | None) -> str | None:
        """What happened, in words; ``None`` for what the screen shows anyway."""
        kind = event["type"]
        if kind in SILENT_EVENTS:
            return None
        say = self.say
        params: dict[str, Any] = {}
        seat = event.get("seat")
        if kind == "ask_decided":
            return self.decided(event, answerer, event.get("seat"))
        if kind == "ask_pending":  # the asker's verdict, shown as decided, for the seconds it may be taken back
            return say("term.event.ask_pending", decided=self.decided(event, answerer, event.get("seat")))
        if seat is not None:
            params["name"] = self.name(seat)
        if "square" in event:
            params["square"] = self.square(view, event["square"])
        if "category" in event:
            params["category"] = self.category(event["category"])
        if kind == "first_player":
            rounds = [
                ", ".join(say("term.roll_of", name=self.name(int(s)), die=d) for s, d in r.items())
                for r in event["rolls"]
            ]
            params["rolls"] = "; ".join(rounds)
        elif kind == "rolled":
            params["die"] = event["die"]
            if "category" in event:
                kind = "rolled_category"
        elif kind == "moved":
            params.update(n=event["steps"], direction=self.direction(event["direction"]))
        elif kind == "question":
            params["asker"] = self.name(event["reader"])
        elif kind == "final_category":
            params["player"] = self.name(event["for"])
        elif kind == "ask_answered":
            params["text"] = event["text"]
        key = f"term.event.{kind}"
        return say(key, **params) if say.has(key) else None

    # --- the menu ----------------------------------------------------------------------------------------------

    def action(self, entry: Mapping[str, Any], view: Mapping[str, Any]) -> str:
        """A menu line for a listed action."""
        say = self.say
        kind = entry["type"]
        if kind == "place":
            return say("term.action.place", square=self.square(view, entry["square"]))
        if kind == "move":
            directions = [self.direction(lnd["direction"]) for lnd in view["landings"] if lnd["square"] == entry["to"]]
            return say("term.action.move", direction=" / ".join(directions), square=self.square(view, entry["to"]))
        if kind in ("category", "final_category"):
            return say("term.action.category", category=self.category(entry["category"]))
        if kind == "roll":
            return say("em.roll")
        if kind == "path":
            return say("em.path")
        if kind == "ask_pass":
            return say("quiz.pass")
        suggestion = (view.get("ask") or {}).get("suggestion") or {}
        if kind == "ask_confirm":
            return say("term.action.ask_confirm", verdict=self.verdict(bool(suggestion.get("correct"))))
        if kind == "ask_overrule":
            if "needed" in suggestion:
                return say("term.action.ask_overrule_list")
            return say("term.action.ask_overrule", verdict=self.verdict(not suggestion.get("correct")))
        return say(f"term.action.{kind}")

    def refusal(self, exc: IllegalAction) -> str:
        """A refusal from its code, with the parameters that name a seat (as the code declares them) said as
        the seat's name on this screen."""
        seats: dict[str, Any] = {}
        for key in seat_params(exc.code, exc.params, self.match.game.seat_params):
            value = exc.params[key]
            seats[key] = [self.name(v) for v in value] if isinstance(value, list) else self.name(value)
        return self.say.refusal(exc, **seats)


def _squares(view: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    board = view.get("board") or {}
    return {sq["id"]: sq for sq in board.get("squares", ())}


def _topic(view: Mapping[str, Any], sq: Mapping[str, Any]) -> str | None:
    topic: str | None = view["board"]["colours"].get(sq["colour"], {}).get("topic")
    return topic


def board_lines(say: Catalogue, board: Mapping[str, Any], pawns: Sequence[str | None]) -> list[str]:
    """The board as text lines, one cell per square at its place with the pieces on it (player numbers, from
    1), and a legend in ``say``'s language below."""
    squares = board["squares"]
    xs = sorted({s["x"] for s in squares})
    ys = sorted({s["y"] for s in squares})
    grid = [["      " for _ in xs] for _ in ys]
    for sq in squares:
        topic = board["colours"].get(sq["colour"], {}).get("topic")
        mark = "finish" if sq["kind"] == "finish" else topic or "estonia"
        who = "".join(str(seat + 1) for seat, at in enumerate(pawns) if at == sq["id"])
        grid[ys.index(sq["y"])][xs.index(sq["x"])] = f"[{say(f'term.letter.{mark}')[:1]}{who[:3]:<3}]"
    lines = ["".join(row).rstrip() for row in grid]
    legend = [f"{say(f'term.letter.{c}')} {say(f'term.legend.{c}')}" for c in (*CATEGORY_ORDER, "estonia", "finish")]
    lines.append(" · ".join(legend))
    lines.append(say("term.legend.pieces"))
    return lines


def render_board(board: Mapping[str, Any], pawns: Sequence[str | None], language: str = "et") -> str:
    """The board as text in ``language``."""
    return "\n".join(board_lines(words(language), board, pawns))


def run_terminal(
    match: Match,
    human_seats: list[int],
    bots: Mapping[int, Bot],
    *,
    read: Reader = input,
    console: Console | None = None,
    clock: Callable[[], int] | None = None,
    language: str | None = None,
) -> None:
    """Play ``match``: people at ``human_seats`` choose from numbered menus (hot-seat: the keyboard passes
    between them), ``bots`` play the other seats; timers (answer time, the cards-only game time) run on
    ``clock`` (default: the wall clock since the start). Everything is said in ``language`` (default: the
    match's ``language``, the language of its questions)."""
    console = console or Console()
    screen = Screen(match, human_seats, language)
    say = screen.say
    table = TableDriver(match, human_seats, bots, clock, bots_keep_their_time=True)
    names = ", ".join(screen.name(s) for s in human_seats)
    humans = say("term.you_play", n=len(human_seats), names=names) if human_seats else say("term.only_bots")
    console.print(Text(say("term.welcome", title=say("game.title"), players=match.players, humans=humans), "bold"))
    console.print(Text(say("term.help")), highlight=False)
    if not play_turns(screen, table, read=read, console=console, skip=MENU_SKIP):
        return

    def show(text: str, style: str | None = None) -> None:
        console.print(Text(text, style=style or ""), highlight=False)

    if human_seats:  # the last question's verdict, before the summary
        for line in screen.tell(human_seats[0], table.unseen[human_seats[0]], match.view(human_seats[0])):
            show(f"  • {line}", "green")
    _summary(screen, console, show)


def _summary(screen: Screen, console: Console, show: Callable[..., None]) -> None:
    """The end: why the game ended, who won, and each player's cards."""
    match, say = screen.match, screen.say
    result = match.result
    assert result is not None
    view = match.view(None)
    reason = f"result.{result.reason}"
    show("")
    show(say("term.over", reason=say(reason) if say.has(reason) else ""), "bold")
    winners = [screen.name(s) for s in result.winners]
    if len(winners) == 1:
        show(say("em.winner", name=winners[0]), "bold")
    elif winners:
        show(say("term.winners", names=", ".join(winners)), "bold")
    else:
        show(say("term.nobody_won"))
    cards_only = view["variant"] == "cards_only"  # no Estonia cards: the question cards kept
    table = Table(say("em.player"), *([] if cards_only else [say("em.cards")]), say("em.count"))
    for seat, held in enumerate(view["held"]):
        colours = ", ".join(_held(screen, c, held) for c in CATEGORY_ORDER if held.get(c))
        count = view["kept"][seat] if cards_only else view["cards"][seat]
        table.add_row(Text(screen.name(seat)), *([] if cards_only else [Text(colours or "—")]), str(count))
    console.print(table)


def _held(screen: Screen, category: str, held: Mapping[str, int]) -> str:
    n = held.get(category, 0)
    return screen.category(category) + (f" ×{n}" if n > 1 else "")
