"""``mindtable serve``: host games for friends' browsers."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", help="address to listen on (0.0.0.0: every interface)"),
        port: int = typer.Option(8000, help="TCP port"),
        db: str | None = typer.Option(
            None,
            help="database: a SQLite file or URL (default ./mindtable.sqlite3), or postgresql://user@host/dbname",
        ),
        log_level: str = typer.Option("info", help="debug, info, warning or error"),
        content: list[str] = typer.Option(  # noqa: B008
            [], "--content", help="a folder of question and board files rooms may choose by name (repeatable)"
        ),
        redis: str | None = typer.Option(
            None,
            help="redis://host:port/db: one of several processes sharing --db (PostgreSQL) and this Redis",
        ),
        reuse_port: bool = typer.Option(
            False, "--reuse-port", help="listen with SO_REUSEPORT: several processes of this machine share the port"
        ),
    ) -> None:
        """Start the server: lobby, live play and web pages at http://HOST:PORT/."""
        from mindtable.cli.play import fail
        from mindtable.server.run import serve as run_server
        from mindtable.server.storage import database_problem, normalize_url, safe_url

        problem = database_problem(db)
        if problem is None and redis:
            from mindtable.server.redis_link import redis_problem

            problem = redis_problem(redis)
        if problem is not None:
            fail(problem)  # one line, exit code 2; nothing was served
        for folder in content:
            if not Path(folder).is_dir():
                fail(f"--content {folder}: not a folder")
        shared = f", with the other processes of Redis {redis.split('@')[-1]}" if redis else ""
        typer.echo(f"mindtable: serving on http://{host}:{port}/ (database: {safe_url(normalize_url(db))}{shared})")
        run_server(
            host=host, port=port, db=db, log_level=log_level, content=content, redis=redis, reuse_port=reuse_port
        )
