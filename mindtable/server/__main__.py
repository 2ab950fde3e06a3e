"""``python -m mindtable.server [--host H] [--port P] [--db URL]``: the server without the rest of the CLI."""

from __future__ import annotations

import argparse

from mindtable.server.run import serve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m mindtable.server", description="Run the mindtable server.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None, help="SQLAlchemy URL or SQLite file (default: mindtable.sqlite3)")
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--rate", type=float, default=20.0, help="messages per second per connection")
    args = parser.parse_args(argv)
    serve(host=args.host, port=args.port, db=args.db, log_level=args.log_level, rate_per_s=args.rate)


if __name__ == "__main__":
    main()
