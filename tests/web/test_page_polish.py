"""Small things a player notices on the lobby, table and replay pages (issue 28, "Polish"), in the browser:

* the connection pill says nothing before the page has tried to connect (no grey "sin conexión" over a join form);
* the lobby's right-hand panels stack without gaps, and no option's placeholder is cut off (desktop and phone,
  en/es/et); an option's help line never just repeats its label (the option would read twice);
* the replay's list of steps shows its numbers whole past 999;
* Caída Libre's "?" and "!" marks (who asks, who answers) have a name and a tooltip in each language;
* a question's options are shown once: as the answer buttons to the one answering, on the card to the others.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from tests.web.conftest import REPO, get_json, post_json

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 10_000


def new_page(browser: Any, viewport: dict[str, int] = DESKTOP, locale: str = "en-US") -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def test_the_connection_pill_says_nothing_before_the_page_connects(browser: Any, server_url: str) -> None:
    created = post_json(f"{server_url}/api/rooms", {"game": "the-mind", "players": 2, "name": "Ana"})
    context, page, errors = new_page(browser, locale="es-ES")
    page.goto(f"{server_url}/room.html?code={created['code']}")
    page.wait_for_selector("#join-panel:not([hidden])")
    pill = page.locator('[data-testid="conn-status"]')
    assert not pill.is_visible(), f"before joining the pill reads {pill.inner_text()!r}"
    assert "sin conexión" not in page.locator("header").inner_text()
    page.fill("#join-name", "Bea")
    page.click("#join-button")
    page.wait_for_selector('[data-testid="conn-status"][data-status="open"]')
    assert pill.is_visible() and pill.inner_text() == "conectado"
    assert errors == []
    context.close()


def _stack_gaps(page: Any, selectors: list[str]) -> list[float]:
    boxes = [page.locator(selector).bounding_box() for selector in selectors]
    return [below["y"] - (above["y"] + above["height"]) for above, below in itertools.pairwise(boxes)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_lobby_panels_stack_without_gaps(browser: Any, server_url: str, viewport: dict[str, int]) -> None:
    created = post_json(f"{server_url}/api/rooms", {"game": "the-mind", "players": 2, "name": "Ana"})
    context, page, errors = new_page(browser, viewport)
    saved = json.dumps({"seat": 0, "token": created["token"], "name": "Ana", "saved": 1, "game": "the-mind"})
    context.add_init_script(f"localStorage.setItem('mindtable:seat:{created['code']}', {json.dumps(saved)})")
    page.goto(f"{server_url}/index.html")
    page.wait_for_selector("#mine-panel:not([hidden])")
    page.wait_for_selector('#game-select option[value="the-mind"]', state="attached")
    gap = float(page.evaluate("parseFloat(getComputedStyle(document.querySelector('main.lobby')).rowGap)"))
    gaps = _stack_gaps(page, ["#join-panel", "#mine-panel", "#rooms-panel"])
    assert all(abs(found - gap) <= 1 for found in gaps), f"gaps between the lobby's panels: {gaps} (want {gap})"
    if viewport is DESKTOP:  # the two columns start level
        tops = [page.locator(selector).bounding_box()["y"] for selector in ("#create-panel", "#join-panel")]
        assert abs(tops[0] - tops[1]) <= 1, tops
    else:
        assert _stack_gaps(page, ["#create-panel", "#join-panel"]) == pytest.approx([gap], abs=1)
    assert errors == []
    context.close()


# Each visible field with a placeholder, as a text field of the same size holding the placeholder as its value:
# the value's scroll width is what the placeholder needs (a number field's text stops short of its spin buttons).
CUT_PLACEHOLDERS = """() => [...document.querySelectorAll('input[placeholder]')]
  .filter((input) => input.placeholder && input.offsetParent)
  .map((input) => {
    const probe = input.cloneNode();
    probe.type = 'text';
    probe.removeAttribute('id');
    const spin = input.type === 'number' ? 16 : 0;
    probe.style.width = `calc(${getComputedStyle(input).width} - ${spin}px)`;
    probe.value = input.placeholder;
    input.after(probe);
    const cut = probe.scrollWidth > probe.clientWidth;
    probe.remove();
    return cut ? `${input.dataset.option || input.id}: ${input.placeholder}` : null;
  })
  .filter(Boolean)"""


@pytest.mark.parametrize("locale", ["en-US", "es-ES", "et-EE"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_no_placeholder_in_the_lobby_is_cut_off(
    browser: Any, server_url: str, viewport: dict[str, int], locale: str
) -> None:
    context, page, errors = new_page(browser, viewport, locale)
    page.goto(f"{server_url}/index.html")
    page.wait_for_selector('#game-select option[value="the-mind"]', state="attached")
    checked = 0
    for game in get_json(f"{server_url}/api/games"):
        if game.get("available") is False:
            continue
        page.select_option("#game-select", game["id"])
        page.wait_for_selector("#options-fields [data-option], #options-fields p.muted")
        checked += page.locator("#options-fields input[placeholder]:visible").count()
        cut = page.evaluate(CUT_PLACEHOLDERS)
        assert cut == [], f"{game['id']}: placeholders cut off at {viewport['width']} px: {cut}"
    assert checked >= 3  # The Mind's lives, stars and last level at least
    # What the field holds is still the whole of the game's words, as its tooltip when shortened.
    page.select_option("#game-select", "the-mind")
    lives = page.locator("#opt-lives")
    whole = lives.get_attribute("data-placeholder")
    assert whole and whole in (lives.get_attribute("placeholder"), lives.get_attribute("title"))
    assert errors == []
    context.close()


def test_no_option_help_repeats_its_label(browser: Any, server_url: str) -> None:
    context, page, errors = new_page(browser)
    page.goto(f"{server_url}/index.html")
    page.wait_for_selector('#game-select option[value="the-mind"]', state="attached")
    repeated = []
    for game in get_json(f"{server_url}/api/games"):
        if game.get("available") is False:
            continue
        page.select_option("#game-select", game["id"])
        page.wait_for_selector("#options-fields [data-option], #options-fields p.muted")
        repeated += page.evaluate(
            """(game) => [...document.querySelectorAll('#options-fields label')].map((field) => {
                const plain = (el) => (el ? el.textContent : '').trim().replace(/[.\\s]+$/, '').toLowerCase();
                const title = plain(field.querySelector(':scope > span'));
                const help = plain(field.querySelector(':scope > small.help'));
                return title && title === help ? `${game}: ${title}` : null;
              }).filter(Boolean)""",
            game["id"],
        )
    assert repeated == [], f"options whose help only says the label again: {repeated}"
    assert errors == []
    context.close()


def test_the_replay_shows_step_numbers_past_a_thousand_whole(browser: Any, server_url: str) -> None:
    code = "QQ9QQ9"
    steps = 1234
    record = {
        "game": "riddle-relay",
        "players": 2,
        "options": {},
        "actions": [{"type": "guess", "seat": i % 2, "at": i * 100} for i in range(steps)],
        "result": {"winners": [0], "reason": "target"},
    }
    context, page, errors = new_page(browser)
    page.route(
        f"**/api/rooms/{code}/record",
        lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(record)),
    )
    page.goto(f"{server_url}/replay.html?code={code}")
    page.wait_for_selector(f'#steps li[data-step="{steps}"].current')
    clipped = page.evaluate(
        """(numbers) => {
          const list = document.querySelector('#steps');
          const room = parseFloat(getComputedStyle(list).paddingLeft);
          const measure = document.createElement('canvas').getContext('2d');
          return numbers.map((n) => {
            const item = list.querySelector(`li[data-step="${n}"]`);
            measure.font = getComputedStyle(item, '::marker').font || getComputedStyle(item).font;
            const width = measure.measureText(`${n}. `).width;
            return width > room ? `${n}: ${width.toFixed(1)} px in ${room} px` : null;
          }).filter(Boolean);
        }""",
        [9, 99, 999, 1000, steps],
    )
    assert clipped == [], f"step numbers cut off at the list's left edge: {clipped}"
    assert page.evaluate("document.querySelector('#steps').scrollLeft") == 0
    assert errors == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "es", "et"])
def test_caida_libres_ask_and_answer_marks_are_named_and_explained(browser: Any, server_url: str, lang: str) -> None:
    words = json.loads((REPO / "mindtable/games/caida_libre/web/i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    created = post_json(
        f"{server_url}/api/rooms",
        {"game": "caida-libre", "players": 2, "name": "Ana", "options": {"starter": 0}, "bots": {"1": "random"}},
    )
    context, page, errors = new_page(browser, locale={"en": "en-US", "es": "es-ES", "et": "et-EE"}[lang])
    page.goto(f"{server_url}/room.html?code={created['code']}&spectate=1")
    for role, mark, key in (("asker", "?", "cl.badge_asker"), ("answerer", "!", "cl.badge_answerer")):
        badge = page.locator(f'[data-testid="badge-{role}"]')
        badge.wait_for()
        assert badge.inner_text() == mark
        assert badge.get_attribute("aria-label") == words[key]
        assert badge.get_attribute("title") == words[key]
        assert page.get_by_role("img", name=words[key]).count() == 1
    assert errors == []
    context.close()


SHOW_QUESTION = """async ([legal, role]) => {
  const { mountQuiz } = await import('/js/quiz.js');
  const root = document.createElement('section');
  document.body.append(root);
  const quiz = mountQuiz(root, { seat: 0, send: () => Promise.resolve(), seatName: (s) => `Seat ${s + 1}` });
  const options = ['Sydney', 'Canberra', 'Melbourne'];
  const question = { prompt: 'Which city is the capital of Australia?', kind: 'open', options };
  const ask = { phase: 'answer', role, answerers: [0], reader: 1, question, results: [] };
  quiz.update({ kind: 'state', view: { ask }, legal: legal.map((type) => ({ type })), clock: 0 });
  const shown = root.innerText.split('Canberra').length - 1;
  const buttons = root.querySelectorAll('[data-testid^="quiz-letter-"]').length;
  quiz.destroy();
  root.remove();
  return { shown, buttons };
}"""


def test_a_questions_options_are_shown_once(browser: Any, server_url: str) -> None:
    context, page, errors = new_page(browser)
    page.goto(f"{server_url}/index.html")
    page.wait_for_selector('#game-select option[value="the-mind"]', state="attached")
    # The one answering picks an option with its button: the card above does not list the options again.
    answering = page.evaluate(SHOW_QUESTION, [["ask_answer", "ask_pass"], "answerer"])
    assert answering == {"shown": 1, "buttons": 3}, answering
    # Everyone else reads them on the card.
    watching = page.evaluate(SHOW_QUESTION, [[], "spectator"])
    assert watching == {"shown": 1, "buttons": 0}, watching
    assert errors == []
    context.close()
