"""The lobby offers a game's file options without ever sending a path: the game's own content, the host's files
by name, or a file of the group's own that the page sends to the server, which checks it and answers with
line and field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.server.test_host_safety import QUIZ_CSV as GOOD_CSV
from tests.web.conftest import get_json, room_code

pytestmark = pytest.mark.browser


BAD_YAML = "questions:\n  - id: a\n    question: What?\n"


def test_a_group_sends_its_own_questions_and_plays_them(browser: Any, server_url: str, tmp_path: Path) -> None:
    bad, good = tmp_path / "broken.yaml", tmp_path / "pub quiz.csv"
    bad.write_text(BAD_YAML, encoding="utf-8")
    good.write_text(GOOD_CSV, encoding="utf-8")
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(f"{server_url}/index.html")
    page.select_option('[data-testid="game-select"]', "carrera-de-mente")
    field = page.locator('select[data-option="bank_file"]')
    assert field.locator("option").first.inner_text() == "the game's own"
    status = page.locator('[data-upload-status="bank_file"]')
    page.set_input_files('input[data-upload="bank_file"]', str(bad))
    page.wait_for_function("() => /line 2/.test(document.querySelector('[data-upload-status=bank_file]').textContent)")
    assert "answer" in status.inner_text() and field.input_value() == ""  # nothing chosen from a bad file
    page.set_input_files('input[data-upload="bank_file"]', str(good))
    page.wait_for_function(
        "() => /is ready/.test(document.querySelector('[data-upload-status=bank_file]').textContent)"
    )
    assert field.input_value().startswith("upload:")
    page.fill('[data-testid="create-name"]', "Ana")
    page.click('[data-testid="create-button"]')
    page.wait_for_url("**/room.html?code=*")
    room = get_json(f"{server_url}/api/rooms/{room_code(page)}")
    assert room["options"]["bank_file"].startswith("upload:")
    context.close()


@pytest.mark.parametrize(
    ("locale", "game", "expected"), [("es-ES", "carrera-de-mente", "es"), ("en-US", "caida-libre", "en")]
)
def test_the_questions_default_to_the_page_language(
    browser: Any, server_url: str, locale: str, game: str, expected: str
) -> None:
    context = browser.new_context(locale=locale)
    page = context.new_page()
    page.goto(f"{server_url}/index.html")
    page.select_option('[data-testid="game-select"]', game)
    assert page.locator('select[data-option="language"]').input_value() == expected
    context.close()
