"""``python -m mindtable.server [--host H] [--port P] [--db URL] [--limit NAME=VALUE ...]``: the server without
the rest of the CLI."""

from __future__ import annotations

import argparse
import os
import sys

from mindtable.server.limits import Limits
from mindtable.server.redis_link import redis_problem
from mindtable.server.run import serve
from mindtable.server.storage import database_problem


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m mindtable.server", description="Run the mindtable server.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None, help="SQLAlchemy URL or SQLite file (default: mindtable.sqlite3)")
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--rate", type=float, default=None, help="messages per second per connection (20)")
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"change a limit (repeatable); names: {', '.join(Limits.names())}",
    )
    parser.add_argument(
        "--trusted-proxies",
        default=None,
        help="comma-separated addresses/networks of reverse proxies whose X-Forwarded-For is believed",
    )
    parser.add_argument(
        "--content",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of question and board files rooms may choose by name (repeatable)",
    )
    parser.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="redis://host:port/db: run as one of several processes sharing --db (PostgreSQL) and this Redis",
    )
    parser.add_argument(
        "--reuse-port", action="store_true", help="listen with SO_REUSEPORT (several processes share the port)"
    )
    parser.add_argument("--lease", type=float, default=None, help="room lease in seconds with --redis (3)")
    args = parser.parse_args(argv)
    for folder in args.content:
        if not os.path.isdir(folder):
            parser.error(f"--content {folder}: not a folder")
    try:
        Limits.from_overrides(args.limit)
    except ValueError as exc:
        parser.error(str(exc))
    problem = database_problem(args.db) or (redis_problem(args.redis) if args.redis else None)
    if problem is not None:
        sys.stderr.write(f"mindtable: {problem}\n")
        raise SystemExit(2)
    serve(
        host=args.host,
        port=args.port,
        db=args.db,
        log_level=args.log_level,
        rate_per_s=args.rate,
        limits=args.limit,
        trusted_proxies=args.trusted_proxies,
        content=args.content,
        redis=args.redis,
        reuse_port=args.reuse_port,
        lease_s=args.lease,
    )


if __name__ == "__main__":
    main()
