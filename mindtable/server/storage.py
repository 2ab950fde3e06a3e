"""Persistence: rooms, seats and the append-only action log, in SQLite or PostgreSQL (SQLAlchemy 2 Core).

Every database call runs on one worker thread, so the event loop never blocks on disk or network. Action
appends that arrive while the worker is busy are written together in one transaction ("group commit"):
each caller's future resolves only after *its* transaction has committed, so an action is never
acknowledged before it is durable, and a busy server still does one commit per batch rather than per
action.

The schema is created and upgraded by the Alembic migrations shipped in ``mindtable/server/migrations``;
:func:`migrate` runs them and :class:`Storage` runs it at start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

log = logging.getLogger("mindtable.server.storage")

T = TypeVar("T")

metadata = sa.MetaData()

rooms_table = sa.Table(
    "rooms",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(16), nullable=False, unique=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("result", sa.Text, nullable=True),
    sa.Column("rematch", sa.String(16), nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("creator", sa.String(64), nullable=True),
    sa.Column("creator_network", sa.String(64), nullable=True),
    sa.Column("last_active", sa.Float, nullable=True),
    #: JSON: what the match's record pins (format, rules revision, content digest, starting snapshot).
    sa.Column("pinned", sa.Text, nullable=True),
)

seats_table = sa.Table(
    "seats",
    metadata,
    sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("bot", sa.String(64), nullable=True),
    sa.Column("bot_params", sa.Text, nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("replaced", sa.Boolean, nullable=False, default=False),
    #: An open seat of a rematch room held for this token hash (its player of the previous match) until then.
    sa.Column("held_for", sa.String(64), nullable=True),
    sa.Column("held_until", sa.Float, nullable=True),
)

uploads_table = sa.Table(
    "uploads",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("option", sa.String(64), nullable=False),
    sa.Column("name", sa.String(128), nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),
    sa.Column("owner", sa.String(64), nullable=False),
    sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

actions_table = sa.Table(
    "actions",
    metadata,
    sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("action", sa.Text, nullable=False),
)

MIGRATIONS = Path(__file__).with_name("migrations")


def normalize_url(db: str | None) -> str:
    """A SQLAlchemy URL from ``--db``: a URL, a plain file path (SQLite) or nothing (``mindtable.sqlite3``).

    >>> normalize_url(None)
    'sqlite:///mindtable.sqlite3'
    >>> normalize_url("games.db")
    'sqlite:///games.db'
    >>> normalize_url("postgresql://me@localhost/mt")
    'postgresql+psycopg://me@localhost/mt'
    """
    if not db:
        return "sqlite:///mindtable.sqlite3"
    if "://" not in db:
        return f"sqlite:///{db}"
    for prefix in ("postgresql://", "postgres://"):
        if db.startswith(prefix):
            return "postgresql+psycopg://" + db[len(prefix) :]
    return db


def safe_url(url: str) -> str:
    """The URL without its password.

    >>> safe_url("postgresql+psycopg://me:secret@db.example/mt")
    'postgresql+psycopg://me@db.example/mt'
    """
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        credentials, _, host = rest.rpartition("@")
        user = credentials.split(":", 1)[0]
        return f"{scheme}{sep}{user}@{host}"
    return url


def _first_line(exc: BaseException) -> str:
    """An exception's own message on one line (SQLAlchemy's wrapper and its background link left out)."""
    inner = getattr(exc, "orig", None)
    text = str(inner if inner is not None else exc).strip()
    line = next((part.strip() for part in text.splitlines() if part.strip()), type(exc).__name__)
    return line.removeprefix("(Background on this error at: ").rstrip(")") if line.startswith("(Background") else line


def database_problem(db: str | None) -> str | None:
    """What is wrong with ``--db`` (the URL, the driver, the database), in one line, or ``None`` if it works.

    Opens the database and brings its schema up to date, as the server will at start-up.

    >>> database_problem("nosuch://x")
    "the database URL 'nosuch://x' is not usable: its kind 'nosuch' is not one SQLAlchemy knows (use a SQLite file or postgresql://user@host/dbname)"
    """
    url = normalize_url(db)
    shown = safe_url(url)
    try:
        engine = make_engine(url)
    except sa.exc.NoSuchModuleError:
        kind = url.split("://", 1)[0]
        return (
            f"the database URL {shown!r} is not usable: its kind {kind!r} is not one SQLAlchemy knows "
            "(use a SQLite file or postgresql://user@host/dbname)"
        )
    except sa.exc.ArgumentError as exc:
        return f"the database URL {shown!r} is not a valid URL: {_first_line(exc)}"
    except ImportError as exc:
        return f"the database URL {shown!r} needs a driver that is not installed: {_first_line(exc)}"
    try:
        migrate(engine)
    except Exception as exc:
        why = _first_line(exc)
        if url.startswith("sqlite") and "unable to open" in why:
            why += " (check that its folder exists and can be written)"
        return f"cannot open the database {shown!r}: {why}"
    finally:
        engine.dispose()
    return None


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            # WAL + NORMAL: a committed transaction survives the process being killed at any moment (the
            # log is in the operating system's hands); only a power cut can lose the last commits.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_size=2, max_overflow=0, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema up to date with the shipped Alembic migrations."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    logging.getLogger("alembic").setLevel(logging.WARNING)  # its plugin chatter is not news to a host
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several processes starting at once (mindtable serve --redis): one migrates, the others wait.
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(7274638)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@dataclass
class StoredRoom:
    """One room as stored: its row, its seats and its actions (decoded)."""

    row: dict[str, Any]
    seats: list[dict[str, Any]]
    actions: list[dict[str, Any]]


class _Batch:
    """Actions appended during one turn of the event loop, written in one transaction."""

    __slots__ = ("futures", "loop", "rows")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.rows: list[tuple[int, int, str]] = []
        self.futures: list[asyncio.Future[None]] = []


class _Job:
    __slots__ = ("fn", "future", "loop")

    def __init__(self, fn: Callable[[Connection], Any], loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any]):
        self.fn = fn
        self.loop = loop
        self.future = future


def _resolve(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


class Storage:
    """The database, reached through one worker thread. Build it, then :meth:`start` it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._queue: queue.SimpleQueue[_Batch | _Job | None] = queue.SimpleQueue()
        self._batch: _Batch | None = None
        style = self.engine.dialect.paramstyle
        marks = "?, ?, ?" if style == "qmark" else "%s, %s, %s" if style in ("format", "pyformat") else None
        self._insert_sql = f"INSERT INTO actions (room_id, idx, action) VALUES ({marks})" if marks else None
        self._thread: threading.Thread | None = None
        #: Number of commits of action batches, and of actions written (for benchmarks and tests).
        self.batches = 0
        self.appended = 0

    # -- life cycle ----------------------------------------------------------------------------------
    def start(self) -> None:
        migrate(self.engine)
        self._thread = threading.Thread(target=self._work, name="mindtable-db", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=10)
            self._thread = None
        self.engine.dispose()

    # -- async API -----------------------------------------------------------------------------------
    async def run(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn(connection)`` in one transaction on the worker thread and return its result."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put(_Job(fn, loop, future))
        return await future

    async def append(self, room_id: int, idx: int, action: dict[str, Any]) -> None:
        """Append action number ``idx`` of a room; returns once it is committed.

        Appends made during one turn of the event loop share one transaction (and one hand-over to the
        database thread).
        """
        batch = self._batch
        if batch is None:
            loop = asyncio.get_running_loop()
            batch = self._batch = _Batch(loop)
            loop.call_soon(self._flush)
        future: asyncio.Future[None] = batch.loop.create_future()
        batch.rows.append((room_id, idx, json.dumps(action, separators=(",", ":"))))
        batch.futures.append(future)
        await future

    def _flush(self) -> None:
        batch, self._batch = self._batch, None
        if batch is not None:
            self._queue.put(batch)

    # -- worker --------------------------------------------------------------------------------------
    def _work(self) -> None:
        connection: Connection | None = None
        try:
            while True:
                item = self._queue.get()
                if item is None:
                    return
                items = [item]
                stop = False
                while True:
                    try:
                        more = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        stop = True
                        break
                    items.append(more)
                if connection is None or connection.invalidated or connection.closed:
                    # (Re)connect: the first time, and after the database dropped the connection.
                    if connection is not None:
                        with contextlib.suppress(Exception):
                            connection.close()
                    try:
                        connection = self.engine.connect()
                    except Exception as exc:
                        log.exception("cannot connect to the database")
                        connection = None
                        self._fail(items, exc)
                        continue
                self._process(connection, items)
                if stop:
                    return
        finally:
            if connection is not None:
                with contextlib.suppress(Exception):
                    connection.close()

    def _fail(self, items: list[_Batch | _Job], error: BaseException) -> None:
        for item in items:
            if isinstance(item, _Job):
                item.loop.call_soon_threadsafe(_resolve, item.future, None, error)
            else:
                item.loop.call_soon_threadsafe(_resolve_all, item.futures, error)

    def _process(self, connection: Connection, items: list[_Batch | _Job]) -> None:
        index = 0
        while index < len(items):
            item = items[index]
            if isinstance(item, _Job):
                self._run_job(connection, item)
                index += 1
                continue
            batches: list[_Batch] = []
            while index < len(items) and isinstance(items[index], _Batch):
                batches.append(items[index])  # type: ignore[arg-type]
                index += 1
            self._run_batches(connection, batches)

    def _run_job(self, connection: Connection, job: _Job) -> None:
        try:
            with connection.begin():
                value = job.fn(connection)
        except BaseException as exc:
            log.exception("database job failed")
            job.loop.call_soon_threadsafe(_resolve, job.future, None, exc)
            return
        job.loop.call_soon_threadsafe(_resolve, job.future, value, None)

    def _run_batches(self, connection: Connection, batches: list[_Batch]) -> None:
        started = time.perf_counter()
        rows = [row for batch in batches for row in batch.rows]
        error: BaseException | None = None
        try:
            with connection.begin():
                if self._insert_sql is not None:
                    connection.exec_driver_sql(self._insert_sql, rows)
                else:
                    connection.execute(
                        actions_table.insert(), [{"room_id": r, "idx": i, "action": a} for r, i, a in rows]
                    )
        except sa.exc.IntegrityError as exc:
            if len(rows) == 1:
                log.error("appending an action failed: %s", _first_line(exc))
                error = exc
            else:
                # One of them is refused (an action index another process wrote first): the others are
                # written each on its own, so that only that room's action fails.
                self._run_one_by_one(connection, batches)
                return
        except BaseException as exc:
            log.exception("appending %d actions failed", len(rows))
            error = exc
        took = time.perf_counter() - started
        if took > 0.2:
            log.warning("committing %d actions took %.0f ms", len(rows), took * 1000)
        if error is None:
            self.batches += 1
            self.appended += len(rows)
        for batch in batches:
            batch.loop.call_soon_threadsafe(_resolve_all, batch.futures, error)

    def _run_one_by_one(self, connection: Connection, batches: list[_Batch]) -> None:
        for batch in batches:
            for row, future in zip(batch.rows, batch.futures, strict=True):
                error: BaseException | None = None
                try:
                    with connection.begin():
                        connection.execute(
                            actions_table.insert(), [{"room_id": row[0], "idx": row[1], "action": row[2]}]
                        )
                except BaseException as exc:
                    log.error("appending action %d of room %d failed: %s", row[1], row[0], _first_line(exc))
                    error = exc
                else:
                    self.appended += 1
                batch.loop.call_soon_threadsafe(_resolve, future, None, error)
        self.batches += 1


def _resolve_all(futures: list[asyncio.Future[None]], error: BaseException | None) -> None:
    for future in futures:
        _resolve(future, None, error)


# -- queries (run on the worker thread through Storage.run) ------------------------------------------------
def insert_room(connection: Connection, row: dict[str, Any], seats: list[dict[str, Any]]) -> int:
    room_id = connection.execute(rooms_table.insert().values(**row)).inserted_primary_key[0]  # type: ignore[index]
    connection.execute(seats_table.insert(), [{**seat, "room_id": room_id} for seat in seats])
    return int(room_id)


def update_room(connection: Connection, room_id: int, **values: Any) -> None:
    connection.execute(rooms_table.update().where(rooms_table.c.id == room_id).values(**values))


def update_seat(
    connection: Connection, room_id: int, seat: int, *, room_values: dict[str, Any] | None = None, **values: Any
) -> None:
    """Change a seat (and, in the same transaction, the room's ``room_values``)."""
    connection.execute(
        seats_table.update().where(seats_table.c.room_id == room_id, seats_table.c.seat == seat).values(**values)
    )
    if room_values:
        update_room(connection, room_id, **room_values)


def delete_rooms(connection: Connection, room_ids: list[int]) -> None:
    """Delete rooms (expired waiting rooms: nothing was played in them) with their seats and actions."""
    for chunk in range(0, len(room_ids), 500):
        ids = room_ids[chunk : chunk + 500]
        connection.execute(actions_table.delete().where(actions_table.c.room_id.in_(ids)))
        connection.execute(seats_table.delete().where(seats_table.c.room_id.in_(ids)))
        connection.execute(uploads_table.delete().where(uploads_table.c.room_id.in_(ids)))
        connection.execute(rooms_table.delete().where(rooms_table.c.id.in_(ids)))


def hold_seats(connection: Connection, room_id: int, holds: dict[int, tuple[str, float]]) -> None:
    """Hold open seats of a room for their players of the previous match (``seat -> (token hash, until)``)."""
    for seat, (token_hash, until) in holds.items():
        connection.execute(
            seats_table.update()
            .where(seats_table.c.room_id == room_id, seats_table.c.seat == seat)
            .values(held_for=token_hash, held_until=until)
        )


def insert_upload(connection: Connection, row: dict[str, Any]) -> None:
    connection.execute(uploads_table.insert().values(**row))


def load_upload(connection: Connection, upload_id: str) -> dict[str, Any] | None:
    found = connection.execute(sa.select(uploads_table).where(uploads_table.c.id == upload_id)).first()
    return dict(found._mapping) if found is not None else None


def bind_upload(connection: Connection, upload_id: str, room_id: int) -> None:
    connection.execute(uploads_table.update().where(uploads_table.c.id == upload_id).values(room_id=room_id))


def delete_stale_uploads(connection: Connection, before: float) -> int:
    """Uploads no room took, sent before ``before``: forgotten."""
    gone = connection.execute(
        uploads_table.delete().where(uploads_table.c.room_id.is_(None), uploads_table.c.created_at < before)
    )
    return int(gone.rowcount or 0)


def count_uploads(connection: Connection, owner: str, since: float) -> int:
    query = sa.select(sa.func.count()).where(uploads_table.c.owner == owner, uploads_table.c.created_at >= since)
    return int(connection.execute(query).scalar_one())


def code_exists(connection: Connection, code: str) -> bool:
    return connection.execute(sa.select(rooms_table.c.id).where(rooms_table.c.code == code)).first() is not None


def _load(connection: Connection, rows: list[Any]) -> list[StoredRoom]:
    result = []
    for row in rows:
        room_id = row.id
        seats = [
            dict(seat._mapping)
            for seat in connection.execute(
                sa.select(seats_table).where(seats_table.c.room_id == room_id).order_by(seats_table.c.seat)
            )
        ]
        actions = [
            json.loads(text)
            for (text,) in connection.execute(
                sa.select(actions_table.c.action)
                .where(actions_table.c.room_id == room_id)
                .order_by(actions_table.c.idx)
            )
        ]
        result.append(StoredRoom(dict(row._mapping), seats, actions))
    return result


def load_unfinished(connection: Connection) -> list[StoredRoom]:
    rows = list(
        connection.execute(sa.select(rooms_table).where(rooms_table.c.status != "over").order_by(rooms_table.c.id))
    )
    return _load(connection, rows)


def load_by_code(connection: Connection, code: str) -> StoredRoom | None:
    rows = list(connection.execute(sa.select(rooms_table).where(rooms_table.c.code == code)))
    loaded = _load(connection, rows)
    return loaded[0] if loaded else None


def unfinished_codes(connection: Connection) -> list[str]:
    """The codes of every room that is not over (waiting or playing)."""
    query = sa.select(rooms_table.c.code).where(rooms_table.c.status != "over")
    return [str(code) for (code,) in connection.execute(query)]


def count_unfinished(connection: Connection, creator: str | None, network: str | None) -> tuple[int, int, int]:
    """Unfinished rooms in all, of ``creator`` and of ``network`` (the room limits of several processes)."""
    unfinished = rooms_table.c.status != "over"
    query = sa.select(
        sa.func.count(),
        sa.func.coalesce(sa.func.sum(sa.case((rooms_table.c.creator == creator, 1), else_=0)), 0),
        sa.func.coalesce(sa.func.sum(sa.case((rooms_table.c.creator_network == network, 1), else_=0)), 0),
    ).where(unfinished)
    total, mine, ours = connection.execute(query).one()
    return int(total), int(mine), int(ours)
