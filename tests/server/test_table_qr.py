"""Issue 28 (the table screen), server side: ``GET /api/rooms/{code}/qr.svg`` is segno's QR code of exactly the
room's join address on the host the request came to; an unknown or malformed code is a ``404 unknown_room``;
the client cannot make it encode anything else (query parameters are ignored); a trusted proxy's
``X-Forwarded-Proto`` is honoured, anyone else's is not."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import segno
from starlette.testclient import TestClient

from mindtable.server import create_app
from mindtable.server.table import qr_svg

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(db_url=str(tmp_path / "qr.sqlite3"), trusted_proxies="10.0.0.0/8")


def _room(http: TestClient) -> str:
    created = http.post("/api/rooms", json={"game": "the-mind", "players": 2, "name": "Ana"})
    assert created.status_code == 201, created.text
    return str(created.json()["code"])


def test_the_qr_code_is_segnos_code_of_the_rooms_join_address(app: Any) -> None:
    with TestClient(app, base_url="http://tv.example:8000") as http:
        code = _room(http)
        answer = http.get(f"/api/rooms/{code}/qr.svg")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("image/svg+xml")
        url = f"http://tv.example:8000/room.html?code={code}"
        assert answer.text == qr_svg(url)
        made = io.BytesIO()
        segno.make(url, error="m").save(
            made, kind="svg", scale=8, border=2, light="#fff", xmldecl=False, omitsize=True, nl=False
        )
        assert answer.text == made.getvalue().decode()
        assert answer.text.startswith("<svg") and "<script" not in answer.text
        # A lower-case code names the same room and the same address; a query cannot change what is encoded.
        assert http.get(f"/api/rooms/{code.lower()}/qr.svg").text == answer.text
        steered = http.get(f"/api/rooms/{code}/qr.svg", params={"url": "http://evil.example/", "path": "/x"})
        assert steered.status_code == 200 and steered.text == answer.text
        # Another host the server is reached by gets its own address.
        other = http.get(f"/api/rooms/{code}/qr.svg", headers={"host": "192.168.1.20:8000"})
        assert other.text == qr_svg(f"http://192.168.1.20:8000/room.html?code={code}")


@pytest.mark.parametrize("code", ["ZZZZZZ", "nope", "A" * 40, "..%2F..%2Fetc"])
def test_an_unknown_or_malformed_code_is_not_found(app: Any, code: str) -> None:
    with TestClient(app) as http:
        answer = http.get(f"/api/rooms/{code}/qr.svg")
        assert answer.status_code == 404
        assert answer.json()["detail"]["code"] in ("unknown_room", "not_found")
        assert "svg" not in answer.headers["content-type"]


def test_only_a_trusted_proxy_names_the_scheme(app: Any) -> None:
    with TestClient(app, base_url="http://tv.example") as http:
        code = _room(http)
    https = qr_svg(f"https://tv.example/room.html?code={code}")
    plain = qr_svg(f"http://tv.example/room.html?code={code}")
    with TestClient(app, base_url="http://tv.example", client=("10.0.0.5", 4000)) as behind:
        assert behind.get(f"/api/rooms/{code}/qr.svg", headers={"x-forwarded-proto": "https"}).text == https
        assert behind.get(f"/api/rooms/{code}/qr.svg", headers={"x-forwarded-proto": "gopher"}).text == plain
    with TestClient(app, base_url="http://tv.example", client=("203.0.113.9", 4000)) as anyone:
        assert anyone.get(f"/api/rooms/{code}/qr.svg", headers={"x-forwarded-proto": "https"}).text == plain


def test_only_get_is_served(app: Any) -> None:
    with TestClient(app) as http:
        code = _room(http)
        answer = http.post(f"/api/rooms/{code}/qr.svg")
        assert answer.status_code == 405 and "GET" in answer.headers["allow"]
