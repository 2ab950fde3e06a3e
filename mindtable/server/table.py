"""The table screen's join code: ``GET /api/rooms/{code}/qr.svg``, a QR code (SVG, made by ``segno``) of the
address that opens the room on a phone — ``room.html?code=<CODE>`` on the host the request came to.

The address is built here, from the request (its scheme, host and root path; behind a trusted proxy its
``X-Forwarded-Proto``), never taken from the client: the endpoint encodes nothing but a room's own join
address. An unknown room answers ``404 unknown_room`` like every room path (and costs from the same budget
of failed lookups).
"""

from __future__ import annotations

import io
from typing import Any

import segno
from fastapi import APIRouter, Request, Response

from mindtable.server.limits import Network, _trusted
from mindtable.server.lobby import manager_of
from mindtable.server.models import answers
from mindtable.server.room import RoomError

router = APIRouter()

#: The page a phone opens to join (or watch) a room, beside the other pages at the site's root.
JOIN_PAGE = "room.html"
#: Size of one QR module in the SVG's own units, and the quiet zone around the code (in modules).
QR_SCALE = 8
QR_BORDER = 2


def join_url(request: Request, code: str) -> str:
    """The address that opens room ``code`` on a phone, on the host this request came to.

    >>> from starlette.requests import Request
    >>> scope = {"type": "http", "scheme": "http", "server": ("tv.local", 8000), "path": "/", "root_path": "",
    ...          "headers": [(b"host", b"tv.local:8000")], "query_string": b"", "client": ("10.0.0.9", 1)}
    >>> join_url(Request(scope), "ABC234")
    'http://tv.local:8000/room.html?code=ABC234'
    """
    base = str(request.base_url)
    trusted: list[Network] = getattr(request.app.state, "trusted_proxies", []) if "app" in request.scope else []
    peer = request.client.host if request.client else ""
    forwarded = (request.headers.get("x-forwarded-proto") or "").split(",")[0].strip().lower()
    if trusted and _trusted(peer, trusted) and forwarded in ("http", "https"):
        base = forwarded + base[base.index(":") :]
    return f"{base}{JOIN_PAGE}?code={code}"


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as ``segno`` writes it: a scalable SVG document (no XML declaration, no fixed size),
    dark modules on a white ground with its quiet zone, that a page may show as it is or put in its own DOM."""
    out = io.BytesIO()
    code = segno.make(url, error="m")
    code.save(out, kind="svg", scale=QR_SCALE, border=QR_BORDER, light="#fff", xmldecl=False, omitsize=True, nl=False)
    return out.getvalue().decode("utf-8")


@router.get(
    "/api/rooms/{code}/qr.svg",
    responses={
        200: {"content": {"image/svg+xml": {}}, "description": "the QR code of the room's join address"},
        **answers(404, 409, 422, 429, 503),
    },
    response_class=Response,
    tags=["lobby"],
    summary="A QR code (SVG) of the address that opens the room on a phone (for the table screen)",
)
async def room_qr(code: str, request: Request) -> Response:
    """The address is this server's ``room.html?code=<CODE>``, on the host the request was sent to; the room
    must exist (``404 unknown_room``)."""
    room = await manager_of(request).require(code)
    try:
        svg = qr_svg(join_url(request, room.code))
    except segno.DataOverflowError:
        raise RoomError(422, "address_too_long", "this server's address is too long for a QR code") from None
    headers: dict[str, Any] = {"Cache-Control": "private, max-age=300", "Vary": "Host"}
    return Response(svg, media_type="image/svg+xml", headers=headers)
