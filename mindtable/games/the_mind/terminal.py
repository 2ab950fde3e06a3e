"""The Mind in a terminal, in real time, against bots.

Two layers:

* :class:`TerminalSession` is pure logic with no I/O: give it the time (ms since the match began) and the
  keys pressed; it applies the bots' actions when their time comes, turns keys into actions, keeps the
  messages, and renders the screen as a Rich renderable. Tests drive it without a terminal.
* :func:`run_terminal` is the I/O loop: a monotonic wall clock, keys read without blocking (``termios``
  cbreak mode + ``select`` on stdin, restored on exit) and a :class:`rich.live.Live` screen.

Every word on the screen is said through a message catalogue (:class:`mindtable.kit.words.Catalogue`) in the
language asked for (``language=``: en, es or et; default: the match's ``language`` option, else English): the
game page's own words (``mindtable/games/the_mind/web/i18n``) where they fit, the terminal's in
``i18n/<language>.json`` beside this module. Refusals are said from their codes and parameters.

Keys: space/enter play your lowest card, ``r`` ready (hands on the table), ``s`` propose a star, ``a`` /
``x`` agree / reject a proposal, ``t`` call stop ('players' detection only), ``e`` propose ending a blind
run, ``q`` quit.

>>> import mindtable
>>> from mindtable.games.the_mind.bots import ProportionalBot
>>> match = mindtable.new_match("the-mind", players=2, seed=4)
>>> session = TerminalSession(match, 0, {1: ProportionalBot(seat=1, seed=4)})
>>> [a.action["type"] for a in session.press("r", now=100)]
['ready']
>>> [(a.action["seat"], a.action["type"], a.action["at"]) for a in session.advance(now=600)]
[(1, 'ready', 500)]
>>> match.view(0)["phase"]
'playing'
"""

from __future__ import annotations

import os
import select
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from mindtable.core.bots import Bot
from mindtable.core.codes import seat_params
from mindtable.core.driver import next_step
from mindtable.core.errors import IllegalAction, MindtableError
from mindtable.core.events import Event, events_for
from mindtable.core.match import Match
from mindtable.kit.names import bot_name
from mindtable.kit.words import Catalogue, screen_language, surface_words

HERE = Path(__file__).resolve().parent

#: Key -> action type (``None``: quit).
KEYS: dict[str, str | None] = {
    " ": "play",
    "\n": "play",
    "\r": "play",
    "r": "ready",
    "s": "propose_star",
    "a": "agree",
    "x": "reject",
    "t": "stop",
    "e": "propose_end",
    "w": "withdraw",
    "q": None,
}
#: Action type -> the key shown in the help line (``None``: said in the screen's language, ``term.key.<type>``).
KEY_LABELS: dict[str, str | None] = {
    "play": None,
    "ready": "r",
    "propose_star": "s",
    "agree": "a",
    "reject": "x",
    "stop": "t",
    "propose_end": "e",
    "withdraw": "w",
}
#: The keys that answer "yes" to "quit this game?" in every language (and ``term.key.yes``, the language's own).
YES_KEYS = ("y", "q")
#: How long the "life lost" banner stays up, in ms.
ALERT_MS = 3000
#: At most this many bot or deadline actions are applied per call (a guard against a runaway bot).
MAX_ACTIONS_PER_ADVANCE = 10_000


class TerminalError(MindtableError):
    """The terminal cannot run this match as asked (several humans, no interactive terminal...)."""


def words(language: str) -> Catalogue:
    """The terminal's words in ``language``, first match wins: its own (``i18n`` beside this module), the game
    page's, the site's; English fills in any key a language lacks."""
    return surface_words(language, HERE / "i18n", web_module="the-mind")


@dataclass(frozen=True)
class Applied:
    """An action that was applied, with the events it produced."""

    action: dict[str, Any]
    events: list[Event]


@dataclass(frozen=True)
class Message:
    at: int
    text: str
    style: str = ""


class TerminalSession:
    """The screen and the timing of a real-time game with one human seat (``None``: watch the bots).

    ``advance(now)`` applies every bot and deadline action due up to ``now``, each at the time it was
    wanted; ``press(key, now)`` applies the human's action at ``now`` (never earlier than the last action).
    Both return what was applied. ``render(now)`` draws the screen.
    """

    def __init__(
        self,
        match: Match,
        seat: int | None,
        bots: Mapping[int, Bot],
        *,
        names: Mapping[int, str] | None = None,
        max_messages: int = 7,
        language: str | None = None,
    ) -> None:
        #: The screen's words, in ``language`` (default: the match's ``language`` option, else English).
        self.say = say = words(screen_language(language, match.options))
        if seat is not None and seat in bots:
            raise TerminalError(say("term.error.human_and_bot", seat=seat))
        missing = [s for s in range(match.players) if s != seat and s not in bots]
        if missing:
            raise TerminalError(say("term.error.nobody_plays", n=len(missing), seats=missing))
        self.match = match
        self.seat = seat
        self.bots = dict(bots)
        self.names = {
            s: (say("tm.you") if s == seat else bot_name(s) if s in bots else say("term.player", n=s + 1))
            for s in range(match.players)
        }
        #: A replay: the keys line says how to step instead of how to play.
        self.replaying = False
        if names:
            self.names.update(names)
        #: The seat addressed as "you" (the human's, unless it was given a name).
        self.you = seat if seat is not None and seat not in (names or {}) else None
        self.max_messages = max_messages
        self.messages: list[Message] = []
        self.alert: Message | None = None
        #: True once the player asked to leave; ``confirming`` while "quit this game?" waits for an answer.
        self.finished = False
        self.confirming = False
        self.applied: list[Applied] = []
        if match.is_over:
            self._say(match.clock, say("term.already_over"), "bold")
        else:
            view = match.view(seat)
            started = {"type": "level_started", "level": view["level"], "cards_each": view["cards_each"]}
            self._say(match.clock, *self.describe(started))
        self.next_due()  # the bots look at the table now, as a player would when sitting down

    # -- time and keys -----------------------------------------------------------------------------
    def next_due(self) -> int | None:
        """When the next bot or deadline action is due (ms), or ``None`` if nobody but the human will act."""
        if self.match.is_over:
            return None
        step = next_step(self.match, self.bots, self.match.clock)
        return None if step is None else step[0]

    def advance(self, now: int) -> list[Applied]:
        """Apply, in time order, every bot and deadline action wanted at or before ``now``."""
        done: list[Applied] = []
        for _ in range(MAX_ACTIONS_PER_ADVANCE):
            if self.match.is_over:
                break
            step = next_step(self.match, self.bots, self.match.clock)
            if step is None or step[0] > now:
                break
            _, action = step
            try:
                events = self.match.apply(action)
            except IllegalAction as exc:
                raise IllegalAction(exc.code, f"bot at seat {action.get('seat')} chose {action}: {exc}") from exc
            done.append(self._record(action, events))
        return done

    def press(self, key: str, now: int) -> list[Applied]:
        """Handle one key pressed at ``now`` (ms); unknown keys are ignored."""
        key = key if key in ("\n", "\r", " ") else key.lower()
        if self.confirming:
            self.confirming = False
            if key in YES_KEYS or key == self.say("term.key.yes"):
                self.finished = True
            else:
                self._say(now, self.say("term.going_on"), "")
            return []
        if key not in KEYS:
            return []
        kind = KEYS[key]
        if kind is None:
            if self.seat is not None and not self.match.is_over:
                self.confirming = True  # a running game: ask first
                self._say(now, self.say("term.confirm_quit", yes=self.say("term.key.yes")), "bold")
                return []
            self.finished = True
            return []
        if self.match.is_over:
            if kind == "play":  # enter on the final screen leaves too
                self.finished = True
            return []
        if self.seat is None:
            self._say(now, self.say("term.watching_only_q"), "yellow")
            return []
        at = max(now, self.match.clock)
        action = {"type": kind, "seat": self.seat, "at": at}
        try:
            events = self.match.apply(action)
        except IllegalAction as exc:
            self._say(at, self.say("term.not_now", reason=self.refusal(exc)), "yellow")
            return []
        return [self._record(action, events)]

    def refusal(self, exc: IllegalAction) -> str:
        """A refusal from its code, with the parameters that name a seat said as the seat's name here."""
        seats: dict[str, Any] = {}
        for key in seat_params(exc.code, exc.params, self.match.game.seat_params):
            value = exc.params[key]
            seats[key] = [self.name(v) for v in value] if isinstance(value, list) else self.name(value)
        return self.say.refusal(exc, **seats)

    def legal_types(self) -> list[str]:
        if self.seat is None or self.match.is_over:
            return []
        return [action["type"] for action in self.match.legal_actions(self.seat)]

    # -- messages ------------------------------------------------------------------------------------
    def _record(self, action: dict[str, Any], events: list[Event]) -> Applied:
        applied = Applied(action, events)
        self.applied.append(applied)
        at = int(action.get("at", self.match.clock))
        for event in events_for(events, self.seat):
            text, style = self.describe(event)
            if text:
                self._say(at, text, style)
            if event["type"] in ("life_lost", "game_lost", "game_won"):
                self.alert = Message(at, text, style)
        return applied

    def _say(self, at: int, text: str, style: str = "") -> None:
        self.messages.append(Message(at, text, style))
        del self.messages[: -self.max_messages]

    def name(self, seat: Any) -> str:
        if isinstance(seat, int):
            return self.names.get(seat, self.say("term.seat", seat=seat))
        return self.say("term.the_table")

    def _said(self, key: str, seat: Any, **params: Any) -> str:
        """``key`` about ``seat``: ``key_you`` when the seat is the one addressed as "you"."""
        if seat is not None and seat == self.you:
            return self.say(f"{key}_you", **params)
        return self.say(key, name=self.name(seat), **params)

    def _cards_of(self, cards_by_seat: Mapping[Any, Any]) -> str:
        """``{seat: [cards]}`` as "name: 12, 30; name: 7" (the separators read the same in every language)."""
        return "; ".join(f"{self.name(int(s))}: {', '.join(map(str, cards))}" for s, cards in cards_by_seat.items())

    def describe(self, event: dict[str, Any]) -> tuple[str, str]:
        """A one-line message for an event (empty text: nothing worth saying)."""
        say = self.say
        kind = event["type"]
        seat = event.get("seat")
        if kind == "level_started":
            text = say("tm.banner.level_start", level=event["level"], cards=say("tm.cards", n=event["cards_each"]))
            if self.seat is not None:
                text += " " + say("term.ready_prompt")
            return text, "bold"
        if kind == "focused":
            return say("tm.ev.focused"), "green"
        if kind == "card_played":
            if event.get("face_down"):
                return self._said("tm.ev.card_played_blind", seat), ""
            return self._said("tm.ev.card_played", seat, card=event["card"]), ""
        if kind == "life_lost":
            cause = event.get("cause")
            why_key = {"blind_pile": "blind", "stop": "stop", "evident": "evident"}.get(str(cause), "card")
            text = say(
                "term.ev.life_lost", why=say(f"term.why.{why_key}", card=event.get("card")), lives=event["lives"]
            )
            held = self._cards_of(event.get("set_aside") or {})
            if held:
                text += " " + say("tm.ev.set_aside", list=held)
            return text, "bold white on red"
        if kind == "stop_called":
            if event.get("error"):
                return self._said("term.ev.stop_error", seat), "bold"
            return self._said("term.ev.stop_fine", seat), "yellow"
        if kind == "proposed":
            what = "end" if event.get("kind") == "end" else "star"
            return self._said(f"term.ev.proposed_{what}", seat), "magenta"
        if kind == "agreed":
            return self._said("tm.ev.agreed", seat), "magenta"
        if kind in ("withdrawn", "rejected"):
            what = {"star": "star", "end": "end"}.get(str(event.get("kind")), "proposal")
            return self._said(f"term.ev.{kind}_{what}", seat), "magenta"
        if kind == "star_used":
            discarded = event.get("discarded") or {}
            cards = ", ".join(f"{self.name(int(s))} {c}" for s, c in discarded.items())
            return say("term.ev.star_used", cards=cards or say("term.none")), "bold magenta"
        if kind == "level_completed":
            reward = event.get("reward")
            text = say("term.ev.level_completed", level=event["level"])
            if reward in ("star", "life"):
                text += " " + say(f"term.ev.reward_{'granted' if event.get('granted') else 'lost'}_{reward}")
            return text, "bold green"
        if kind == "game_won":
            key = "term.ev.game_won_you" if self.seat is not None else "term.ev.game_won_team"
            return say(key, level=event["level"]), "bold black on green"
        if kind == "game_lost":
            return say("term.ev.game_lost", level=event["level"]), "bold white on red"
        if kind == "blind_started":
            return say("term.ev.blind_started"), "bold cyan"
        if kind == "pile_revealed":
            key = "term.ev.pile_in_order" if event.get("in_order") else "term.ev.pile_out_of_order"
            return say(key, cards=" ".join(map(str, event["cards"]))), "cyan"
        if kind == "blind_ended":
            return say("term.ev.blind_ended", n=event.get("blind_levels", 0)), "bold cyan"
        if kind in ("ready", "dealt"):
            return "", ""
        details = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")  # an event this screen predates
        return f"{kind}: {details}", ""

    # -- screen ------------------------------------------------------------------------------------
    def render(self, now: int) -> RenderableType:
        """The whole screen at time ``now`` (ms)."""
        say = self.say
        view = self.match.view(self.seat)
        players = self.match.players
        blind = view["mode"] == "blind"

        header = Text()
        header.append(f"{say('tm.lives')} ", style="bold")
        header.append("♥ " * view["lives"], style="bold red")
        header.append(f"({view['lives']})   ", style="red")
        header.append(f"{say('tm.stars')} ", style="bold")
        header.append("★ " * view["stars"] if view["stars"] else f"{say('term.none')} ", style="bold yellow")
        header.append(f"({view['stars']})   ", style="yellow")
        last = view["last_level"]
        level = say("tm.level_of", level=view["level"], last=last) if last else str(view["level"])
        header.append(f"{say('tm.level')} {level}", style="bold")
        if view.get("reward") in ("star", "life"):
            header.append(" " + say(f"term.header_reward_{view['reward']}"), style="dim")
        header.append(f"   {_clock(now)}", style="dim")

        phase = _phase_line(view, self.seat, self.match, self.name, say)

        pile = Table.grid(padding=(0, 2))
        pile.add_column(style="bold", min_width=12)
        pile.add_column()
        played = view["pile"]
        if blind:
            pile.add_row(say("tm.pile"), Text(say("term.face_down_count", n=len(played)), style="cyan"))
        else:
            top = view["top"]
            top_text = Text(f" {top} " if top is not None else " - ", style="bold black on white")
            if played:
                cards = " ".join(str(p["card"]) for p in played)
                top_text.append("   " + say("term.played_so_far", cards=cards), style="dim")
            pile.add_row(say("term.top_card"), top_text)
        aside = self._cards_of({s: cards for s, cards in enumerate(view["set_aside"]) if cards})
        pile.add_row(say("term.set_aside"), Text(aside or say("term.none"), style="yellow" if aside else "dim"))
        discards = self._cards_of({s: cards for s, cards in enumerate(view["discards"]) if cards})
        pile.add_row(say("term.discarded"), Text(discards or say("term.none"), style="magenta" if discards else "dim"))

        seats = Table(box=None, padding=(0, 2), show_edge=False, header_style="bold dim")
        seats.add_column(say("tm.over.player"))
        seats.add_column(say("term.col.cards"), justify="right")
        seats.add_column(say("term.col.ready"), justify="center")
        proposal = view["proposal"]
        if proposal:
            seats.add_column(say("term.col.proposal"), justify="center")
        for s in range(players):
            name = self.name(s)
            ready = Text("✓", style="bold green") if view["ready"][s] else Text("·", style="dim")
            cells: list[RenderableType] = [
                Text(name, style="bold" if s == self.seat else ""),
                str(view["hand_counts"][s] + len(view["set_aside"][s])),
                ready,
            ]
            if proposal:
                agreed = s in proposal["agreed"]
                cells.append(Text(say("term.agrees") if agreed else "?", style="green" if agreed else "yellow"))
            seats.add_row(*cells)

        parts: list[RenderableType] = [header, phase, Text(""), pile, Text(""), seats, Text("")]
        if self.seat is not None:
            parts.append(_hand_line(view, self.seat, say))
        if self.alert is not None and (now - self.alert.at < ALERT_MS or self.match.is_over):
            parts.append(Text(""))
            parts.append(Text(f" {self.alert.text} ", style=self.alert.style or "bold"))
        log = Text()
        for index, message in enumerate(self.messages):
            if index:
                log.append("\n")
            log.append(f"{_clock(message.at)} ", style="dim")
            log.append(message.text, style=message.style)
        parts.append(Panel(log, title=say("term.messages"), title_align="left", border_style="dim"))
        parts.append(self._keys_line())
        mode = say("term.mode.blind" if blind else "term.mode.normal")
        detection = say("tm.detection.players" if view["detection"] == "players" else "term.detection.table")
        title = Text(say("game.title"), style="bold")
        title.append(" · " + " · ".join((say("term.players", n=players), mode, detection)))
        return Panel(Group(*parts), title=title, border_style="blue", padding=(0, 1))

    def _keys_line(self) -> Text:
        say = self.say
        line = Text(say("term.keys") + " ", style="bold")
        if self.replaying:
            line.append(say("term.keys.replay"), style="")
            return line
        if self.match.is_over:
            line.append(say("term.keys.over"), style="bold")
            return line
        if self.seat is None:
            line.append(say("term.keys.watching"), style="")
            return line
        legal = set(self.legal_types())
        shown = ["play", "ready", "propose_star", "agree", "reject"]
        if self.match.view(self.seat)["detection"] == "players":
            shown.append("stop")
        if "propose_end" in legal:
            shown.append("propose_end")
        if "withdraw" in legal:
            shown.append("withdraw")
        for kind in shown:
            active = kind in legal
            line.append(KEY_LABELS[kind] or say(f"term.key.{kind}"), style="bold cyan" if active else "dim")
            line.append(f" {say(f'term.act.{kind}')}", style="" if active else "dim")
            line.append(" · ", style="dim")
        line.append("q", style="bold cyan")
        line.append(f" {say('term.act.quit')}")
        return line


def _clock(ms: int) -> str:
    seconds = max(ms, 0) // 1000
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def _lowest(view: dict[str, Any], seat: int) -> int | None:
    cards = list(view["hand"] or []) + list(view["set_aside"][seat])
    return min(cards) if cards else None


def _hand_line(view: dict[str, Any], seat: int, say: Catalogue) -> Text:
    line = Text(f"{say('tm.your_hand')}  ", style="bold")
    hand = list(view["hand"] or [])
    aside = list(view["set_aside"][seat])
    lowest = _lowest(view, seat)
    if not hand and not aside:
        line.append(say("term.hand_empty"), style="dim")
        return line
    for card in sorted(hand + aside):
        if card in aside:
            style = "bold black on yellow"
        elif card == lowest:
            style = "bold white on blue"
        else:
            style = "black on white"
        line.append(f" {card:>3} ", style=style)
        line.append(" ")
    if aside:
        line.append(" " + say("term.hand_aside_hint"), style="dim")
    return line


def _reason(say: Catalogue, reason: str) -> str:
    """ " (why the game ended)" when the outcome alone does not say it (a blind run ended or lost), else ""."""
    if reason in ("won", "lost"):
        return ""
    key = f"term.reason.{reason}"
    return " " + say("term.reason", reason=say(key) if say.has(key) else reason)


def _phase_line(
    view: dict[str, Any], seat: int | None, match: Match, name: Callable[[Any], str], say: Catalogue
) -> Text:
    result = match.result
    if result is not None:
        won = bool(result.winners)
        outcome = say(
            ("term.phase.won_you" if seat is not None else "term.phase.won_team") if won else "term.phase.lost"
        )
        details = result.details or {}
        levels = say("term.phase.levels", n=details.get("progress", view["levels_completed"]))
        return Text(
            f" {outcome}: {levels}{_reason(say, result.reason)} ",
            style="bold black on green" if won else "bold white on red",
        )
    proposal = view["proposal"]
    if proposal is not None:
        what = "star" if proposal["kind"] == "star" else "end"
        waiting = seat is not None and seat not in proposal["agreed"]
        key = f"term.phase.proposed_{what}_{'answer' if waiting else 'wait'}"
        return Text(f" {say(key, name=name(proposal.get('by')))} ", style="bold black on magenta")
    if view["phase"] == "refocus":
        if seat is not None and not view["ready"][seat]:
            return Text(f" {say('term.phase.refocus')} ", style="bold black on yellow")
        return Text(f" {say('term.phase.waiting_ready')} ", style="black on yellow")
    if seat is not None:
        lowest = _lowest(view, seat)
        if lowest is None:
            return Text(f" {say('term.phase.hand_empty')} ", style="black on green")
        return Text(f" {say('term.phase.play', lowest=lowest)} ", style="bold black on green")
    return Text(f" {say('term.phase.playing')} ", style="bold black on green")


class _Idle:
    """Stands in for the other seats of a replay: it never acts."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def decide(self, observation: Any) -> None:
        return None


def replay_screen(
    match: Match, seat: int | None, *, language: str | None = None
) -> Callable[[Match, dict[str, Any] | None, list[Event]], Any]:
    """For ``mindtable replay``: the play screen at each step of a record as ``seat`` saw it (``None``: a
    spectator), with its messages, in ``language`` (default: the match's ``language`` option, else English)."""
    others = {s: _Idle(s) for s in range(match.players) if s != seat}
    say = words(screen_language(language, match.options))
    names = {s: say("term.player", n=s + 1) for s in others}
    session = TerminalSession(match, seat, others, names=names, language=language)
    session.replaying = True

    def draw(current: Match, action: dict[str, Any] | None, events: list[Event]) -> Any:
        session.match = current
        if action is not None:
            session._record(action, events)
        return session.render(current.clock)

    return draw


# -- I/O ---------------------------------------------------------------------------------------------
class KeySource(Protocol):
    def __enter__(self) -> KeySource: ...

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...

    def read(self, timeout: float) -> str | None:
        """Keys pressed within ``timeout`` seconds (possibly several), or ``None``."""
        ...


class Clock(Protocol):
    def now(self) -> int:
        """Ms since the match began."""
        ...


class WallClock:
    """Monotonic wall-clock ms since creation, plus ``offset``; never goes backwards."""

    def __init__(self, offset: int = 0) -> None:
        self._start = time.monotonic()
        self._offset = offset
        self._last = offset

    def now(self) -> int:
        self._last = max(self._last, self._offset + int((time.monotonic() - self._start) * 1000))
        return self._last


class TerminalKeys:
    """Keys from a terminal, without waiting for enter or echoing (cbreak); the settings come back on exit."""

    def __init__(self, stream: Any = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self.fd = self.stream.fileno()
        self._saved: Any = None

    def __enter__(self) -> TerminalKeys:
        import termios
        import tty

        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        import termios

        if self._saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def read(self, timeout: float) -> str | None:
        ready, _, _ = select.select([self.fd], [], [], max(timeout, 0.0))
        if not ready:
            return None
        data = os.read(self.fd, 64)
        if not data:
            return "q"  # end of input
        text = data.decode("utf-8", errors="ignore")
        if text.startswith("\x1b"):
            return None  # arrow keys and other escape sequences
        return text


class VirtualClock:
    """A clock that only moves when told: for scripted sessions (tests, demos)."""

    def __init__(self, start: int = 0) -> None:
        self.time = start

    def now(self) -> int:
        return self.time


class ScriptedKeys:
    """Keys pressed at given times on a :class:`VirtualClock`; ``q`` once the script runs out.

    ``read(timeout)`` moves the clock to the next key if it comes within ``timeout``, else by ``timeout``.
    """

    def __init__(self, clock: VirtualClock, presses: Sequence[tuple[int, str]]) -> None:
        self.clock = clock
        self.presses = sorted(presses, key=lambda press: press[0])
        self.index = 0

    def __enter__(self) -> ScriptedKeys:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        return None

    def read(self, timeout: float) -> str | None:
        if self.index >= len(self.presses):
            return "q"
        at, key = self.presses[self.index]
        wait_ms = max(int(timeout * 1000), 1)
        if at <= self.clock.time + wait_ms:
            self.clock.time = max(self.clock.time, at)
            self.index += 1
            return key
        self.clock.time += wait_ms
        return None


def run_terminal(
    match: Match,
    human_seats: list[int],
    bots: dict[int, Bot],
    *,
    keys: KeySource | None = None,
    clock: Clock | None = None,
    console: Console | None = None,
    frame_ms: int = 50,
    language: str | None = None,
) -> None:
    """Play ``match`` in this terminal in real time: one human seat (or none, to watch) against ``bots``.

    ``keys``, ``clock`` and ``console`` default to the real terminal, a monotonic wall clock and stdout;
    tests pass :class:`ScriptedKeys` and a :class:`VirtualClock`. Everything is said in ``language`` (default:
    the match's ``language`` option, else English).
    """
    say = words(screen_language(language, match.options))
    if len(human_seats) > 1:
        raise TerminalError(say("term.error.one_keyboard", humans=len(human_seats)))
    seat = human_seats[0] if human_seats else None
    session = TerminalSession(match, seat, bots, language=language)
    console = console or Console()
    interactive = keys is None
    if keys is None:
        if not sys.stdin.isatty():
            raise TerminalError(say("term.error.no_tty"))
        keys = TerminalKeys(sys.stdin)
    clock = clock or WallClock(offset=match.clock)
    run_session(session, keys, clock, console, frame_ms=frame_ms, screen=interactive)


def run_session(
    session: TerminalSession,
    keys: KeySource,
    clock: Clock,
    console: Console,
    *,
    frame_ms: int = 50,
    screen: bool = False,
    on_frame: Callable[[int], None] | None = None,
) -> None:
    """The loop: apply due bot actions, draw, wait for a key or the next bot action, handle the key."""
    now = clock.now()
    try:
        with keys, Live(session.render(now), console=console, auto_refresh=False, screen=screen) as live:
            while not session.finished:
                now = clock.now()
                session.advance(now)
                live.update(session.render(now), refresh=True)
                if on_frame is not None:
                    on_frame(now)
                due = session.next_due()
                wait_ms = frame_ms if due is None else min(frame_ms, max(due - now, 0))
                pressed = keys.read(wait_ms / 1000)
                if not pressed:
                    continue
                now = clock.now()
                session.advance(now)
                for key in pressed:
                    session.press(key, now)
                    if session.finished:
                        break
    except KeyboardInterrupt:
        session.finished = True
    if screen:
        console.print(session.render(clock.now()))
    say = session.say
    result = session.match.result
    if result is None:
        console.print(say("term.end.left"), highlight=False)
    else:
        details = result.details or {}
        key = "term.end.won" if result.winners else "term.end.lost"
        console.print(say(key, n=details.get("progress", 0), reason=_reason(say, result.reason)), highlight=False)
