"""The FastAPI application: the REST lobby, the WebSocket play endpoint and the static web pages.

>>> app = create_app(db_url="sqlite:///:memory:")
>>> sorted(path for path in app.openapi()["paths"] if path.startswith("/api/rooms"))[:2]
['/api/rooms', '/api/rooms/{code}']
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import re
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from mindtable.core import get_game
from mindtable.core.registry import game_ids
from mindtable.server.content import HostContent
from mindtable.server.limits import TRUSTED_PROXIES_ENV, Limits, Network, client_address, parse_networks
from mindtable.server.live import router as live_router
from mindtable.server.lobby import UPLOADS_PATH, address_of, manager_of
from mindtable.server.lobby import router as lobby_router
from mindtable.server.manager import RoomManager
from mindtable.server.models import name_problem
from mindtable.server.protocol import safe_text
from mindtable.server.room import CODE_ALPHABET, CODE_LENGTH, RoomError
from mindtable.server.storage import Storage, normalize_url
from mindtable.server.table import router as table_router

log = logging.getLogger("mindtable.server")

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
#: Largest client message accepted over the WebSocket (bytes); the default of ``Limits.ws_max_message_bytes``.
MAX_MESSAGE_BYTES = 4096
#: Frames larger than this are not even read: uvicorn closes the connection (code 1009).
WS_MAX_FRAME = 65536
#: Garbage-collector thresholds when tuned: young collections every 50,000 allocations, full ones rarely.
GC_THRESHOLDS = (50_000, 50, 100)
#: Largest REST request body; the default of ``Limits.max_body_bytes``.
MAX_BODY_BYTES = 65536


def create_app(
    db_url: str | None = None,
    *,
    static_dir: str | Path | None = None,
    limits: Limits | None = None,
    trusted_proxies: str | Iterable[str] | None = None,
    rate_per_s: float | None = None,
    max_message_bytes: int | None = None,
    max_rooms: int | None = None,
    hello_timeout_s: float | None = None,
    tune_gc: bool = False,
    content: Iterable[str | os.PathLike[str]] = (),
    redis_url: str | None = None,
    lease_s: float | None = None,
) -> FastAPI:
    """Build the server. ``db_url``: a SQLAlchemy URL or SQLite path (default ``mindtable.sqlite3``).

    ``limits`` (default: :meth:`Limits.from_overrides`, i.e. the defaults and any ``MINDTABLE_LIMIT_*``
    variables) holds every limit; ``rate_per_s``, ``max_message_bytes``, ``max_rooms`` and
    ``hello_timeout_s`` override single ones. ``trusted_proxies`` (default: ``MINDTABLE_TRUSTED_PROXIES``)
    lists the reverse proxies whose ``X-Forwarded-For`` names the client. ``tune_gc`` adjusts the
    process-wide garbage collector for latency (``mindtable serve`` sets it). ``content``: folders whose
    question and board files rooms may choose by name (``mindtable serve --content DIR``). ``redis_url``:
    this process is one of several sharing the database and this Redis (``mindtable serve --redis``; see
    :mod:`mindtable.server.cluster`), with room leases of ``lease_s`` seconds (default 3).
    """
    content_folders = [Path(folder) for folder in content]
    for folder in content_folders:
        if not folder.is_dir():
            raise ValueError(f"content folder {str(folder)!r} is not a folder")

    url = normalize_url(db_url)
    limits = limits or Limits.from_overrides()
    overrides = {
        "ws_rate_per_s": rate_per_s,
        "ws_max_message_bytes": max_message_bytes,
        "max_rooms": max_rooms,
        "ws_hello_timeout_s": hello_timeout_s,
    }
    limits = limits.with_overrides({k: v for k, v in overrides.items() if v is not None})
    trusted = parse_networks(os.environ.get(TRUSTED_PROXIES_ENV) if trusted_proxies is None else trusted_proxies)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(url)
        await asyncio.to_thread(storage.start)
        host_content = await asyncio.to_thread(HostContent.scan, content_folders)
        app.state.content = host_content
        cluster = None
        if redis_url:
            from mindtable.server.cluster import LEASE_S, Cluster

            cluster = Cluster(redis_url, lease_s=lease_s or LEASE_S)
            cluster.app = app
        manager = RoomManager(storage, limits=limits, content=host_content, cluster=cluster)
        if cluster is not None:
            await cluster.start()
        await manager.load()
        if tune_gc:
            # Everything loaded so far lives as long as the server: keep the collector from scanning it
            # again, and collect young objects less often (fewer, shorter pauses for every room).
            gc.collect()
            gc.freeze()
            gc.set_threshold(*GC_THRESHOLDS)
            manager.freeze_heap = True  # and what each game loads with its first room (RoomManager._settle_heap)
        app.state.manager = manager
        app.state.storage = storage
        try:
            yield
        finally:
            await manager.shutdown()
            if cluster is not None:
                await cluster.stop()
            await asyncio.to_thread(storage.stop)

    docs_assets = _docs_assets()
    app = FastAPI(
        title="mindtable",
        summary="Lobby and live play for mindtable's games",
        description="REST lobby under /api; live play over the WebSocket /ws/{code}. See docs/protocol.md.",
        version="1",
        lifespan=lifespan,
        # FastAPI's own /docs and /redoc load their scripts from a CDN (blank offline): served locally below.
        docs_url=None,
        redoc_url=None,
    )
    if docs_assets is not None:
        _serve_docs(app, docs_assets)

    app.state.limits = limits
    app.state.trusted_proxies = trusted  # the table screen's join address honours their X-Forwarded-Proto

    @app.exception_handler(RoomError)
    async def room_error(request: Request, exc: RoomError) -> JSONResponse:
        headers = {}
        if exc.code == "unknown_room":
            # Failed lookups cost from their own small budget: room codes cannot be probed quickly.
            await manager_of(request).book.take_async("miss", address_of(request))
        if exc.status == 429:
            headers["Retry-After"] = "60"
        detail = {"code": exc.code, "message": safe_text(exc.message), "params": exc.params}
        return JSONResponse({"detail": detail}, status_code=exc.status, headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "bad_body" if exc.status_code == 400 else f"http_{exc.status_code}"
        return JSONResponse(
            {"detail": {"code": code, "message": safe_text(str(exc.detail))}},
            status_code=exc.status_code,
            headers=exc.headers,
        )

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # The name is what a person types on the page: a problem with it gets its own code, in words.
        named = name_problem(exc.errors())
        if named is not None:
            code, message, params = named
            return JSONResponse({"detail": {"code": code, "message": message, "params": params}}, status_code=422)
        # FastAPI's default answer echoes the input, which may not even be JSON (NaN, lone surrogates).
        errors = [
            {
                "loc": [item if isinstance(item, int) else safe_text(str(item), 80) for item in error.get("loc", ())],
                "msg": safe_text(str(error.get("msg", "")), 300),
                "type": safe_text(str(error.get("type", "")), 80),
            }
            for error in list(exc.errors())[:20]
        ]
        return JSONResponse({"detail": errors}, status_code=422)

    app.add_middleware(
        Guard, owner=app, limits=limits, trusted=trusted, routers=(lobby_router, live_router, table_router)
    )
    # Answers of 1 KiB and more (a finished room's record and replay, the game list, the pages' scripts) go
    # compressed to clients that accept it; WebSocket frames are left alone (small JSON: see run.py).
    app.add_middleware(GZipMiddleware, minimum_size=1024)

    app.include_router(lobby_router)
    app.include_router(live_router)
    app.include_router(table_router)

    # Each game's page from its own package (a plugin's too): /games/<web_module>/index.js, style.css, i18n/.
    for page, folder in game_pages().items():
        app.mount(f"/games/{page}", StaticFiles(directory=str(folder)), name=f"game-{page}")
    if static_dir is None:
        static_dir = STATIC_DIR
    app.mount("/", StaticFiles(directory=str(static_dir), html=True, check_dir=False), name="web")

    return app


def game_pages() -> dict[str, Path]:
    """web_module -> the folder of that game's page, for every registered game that has one."""
    pages: dict[str, Path] = {}
    for game_id in game_ids():
        try:
            game = get_game(game_id)
            folder = game.web_folder()
        except Exception as exc:  # a broken plugin is left out, never breaks the server
            log.warning("game %s: its page is not served: %s", game_id, exc)
            continue
        if game.web_module and folder is not None and (folder / "index.js").is_file():
            pages.setdefault(game.web_module, folder)
    return pages


#: Where the Swagger UI and ReDoc scripts are served from (never under /api).
DOCS_ASSETS_URL = "/docs-assets"


def _docs_assets() -> Path | None:
    """The folder of the Swagger UI and ReDoc files shipped by the ``fastapi-offline`` package, if installed."""
    try:
        import fastapi_offline
    except ImportError:
        return None
    folder = Path(fastapi_offline.__file__).parent / "static"
    needed = ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js")
    return folder if all((folder / name).is_file() for name in needed) else None


def _serve_docs(app: FastAPI, folder: Path) -> None:
    """``/docs`` (Swagger UI) and ``/redoc`` with their scripts served by this server: they work offline."""
    from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
    from fastapi.responses import HTMLResponse

    app.mount(DOCS_ASSETS_URL, StaticFiles(directory=str(folder)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="mindtable API",
            swagger_js_url=f"{DOCS_ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS_URL}/favicon.png",
        )

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url="/openapi.json",
            title="mindtable API",
            redoc_js_url=f"{DOCS_ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{DOCS_ASSETS_URL}/favicon.png",
            with_google_fonts=False,
        )


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"detail": {"code": code, "message": message}}, status_code=status, headers=headers)


_ROOM_PATH = re.compile(r"^/api/rooms/[^/]+")
#: The room code of a room's REST path or WebSocket (requests another process may have to serve).
_ROOM_CODE = re.compile(r"^/(?:api/rooms|ws)/([^/]+)")


class Guard:
    """Pure ASGI middleware in front of everything: who the client is (trusted proxies), per-address REST
    limits, ``405`` with the right ``Allow`` for the API's paths, and the body limit on what is actually read
    (``Content-Length`` or chunked alike)."""

    def __init__(
        self, app: Any, owner: FastAPI, limits: Limits, trusted: list[Network], routers: tuple[Any, ...] = ()
    ) -> None:
        self.app = app
        self.owner = owner
        #: the routers included in ``owner`` (their routes are not listed in ``owner.routes`` itself)
        self.routers = routers
        self.limits = limits
        self.trusted = trusted
        self._routes: list[APIRoute] | None = None

    def _allowed(self, path: str) -> set[str] | None:
        """The methods the API serves at ``path`` (``None``: no API route there)."""
        if self._routes is None:
            every = [*self.owner.routes, *(route for router in self.routers for route in router.routes)]
            self._routes = [r for r in every if isinstance(r, APIRoute)]
        methods: set[str] = set()
        for route in self._routes:
            if route.path_regex.match(path):
                methods |= route.methods or set()
        if not methods:
            return None
        if "GET" in methods:
            methods.add("HEAD")
        return methods

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if scope.get("mindtable.relayed"):
            # Forwarded by another process of the deployment, which resolved the client and applied the
            # REST limits: served here as it is.
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            scope["mindtable.address"] = client_address(scope, self.trusted)
            scope["mindtable.raw_send"] = send
            owner = await self._owner(scope)
            if owner is not None:
                manager = self.owner.state.manager
                await manager.cluster.relay_websocket(owner, scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        if kind != "http" or not scope["path"].startswith("/api"):
            await self.app(scope, receive, send)
            return
        address = scope["mindtable.address"] = client_address(scope, self.trusted)
        path = scope["path"]
        allowed = self._allowed(path)
        if allowed is None:
            response = _error(404, "not_found", "no such API path; see /openapi.json")
            await response(scope, receive, send)
            return
        if scope["method"] not in allowed:
            order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
            allow = ", ".join(sorted(allowed, key=lambda m: order.index(m) if m in order else 99))
            response = _error(405, "method_not_allowed", f"{path} answers {allow}", {"Allow": allow})
            await response(scope, receive, send)
            return
        manager = getattr(self.owner.state, "manager", None)
        if manager is not None:
            book = manager.book
            if not await book.take_async("rest", address):
                retry = book.bucket("rest", address).retry_after()
                response = _error(
                    429,
                    "rate_limited",
                    f"more than {self.limits.rest_per_address_per_s:g} requests a second from your address",
                    {"Retry-After": f"{retry:.0f}"},
                )
                await response(scope, receive, send)
                return
            if _ROOM_PATH.match(path) and not await book.has_async("miss", address):
                response = _error(
                    429,
                    "rate_limited",
                    "too many lookups of unknown rooms from your address; wait a minute",
                    {"Retry-After": "60"},
                )
                await response(scope, receive, send)
                return
        body = await self._read_body(scope, receive, send)
        if body is None:
            return
        owner = await self._owner(scope)
        if owner is not None:
            await self.owner.state.manager.cluster.forward_http(owner, scope, body, send)
            return
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _owner(self, scope: Any) -> str | None:
        """The other process of the deployment that owns the room this request is about, if any (``None``:
        this process serves it: one process alone, no room named, or this process owns it now)."""
        manager = getattr(self.owner.state, "manager", None)
        cluster = manager.cluster if manager is not None else None
        if manager is None or cluster is None:
            return None
        found = _ROOM_CODE.match(scope["path"])
        if found is None:
            return None
        code = found.group(1).strip().upper()
        if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
            return None
        if code in manager.rooms:
            return None
        try:
            return await cluster.claim(code)
        except Exception:
            log.warning("room %s: its owner cannot be looked up now", code, exc_info=True)
            return None  # served here: the manager answers 503 if Redis is really gone

    async def _read_body(self, scope: Any, receive: Any, send: Any) -> bytes | None:
        """The whole body, reading at most ``max_body_bytes`` (uploads: ``upload_max_bytes``) + 1 bytes
        (``None``: refused, 413 sent)."""
        limit = self.limits.upload_max_bytes if scope["path"] == UPLOADS_PATH else self.limits.max_body_bytes
        too_large = _error(413, "too_large", f"request bodies are limited to {limit} bytes")
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                await too_large(scope, receive, send)
                return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await too_large(scope, receive, send)
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)
