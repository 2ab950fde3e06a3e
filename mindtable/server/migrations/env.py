"""Alembic environment: run with the connection that :func:`mindtable.server.storage.migrate` passes in."""

from __future__ import annotations

from alembic import context

from mindtable.server.storage import metadata


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run mindtable migrations through mindtable.server.storage.migrate(engine)")
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


try:
    _running = context.config is not None
except (NameError, AttributeError):  # imported outside Alembic (e.g. by a doctest collector)
    _running = False
if _running:
    run()
