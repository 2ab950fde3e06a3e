"""Rooms keep what their record pins: the starting snapshot, the rules revision and the content digest.

A room rebuilt at start-up replays from that start, so content dealt into it (questions, decks) and the
generator it was created with never come from files or code that changed since. Rooms stored before this
revision have none: they replay as records of format 1.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("pinned", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("pinned")
