"""Files a group brings (uploads) and rematch seat holds that survive a restart.

``uploads`` keeps a question or board file a room's creator sent (at most ``upload_max_bytes``), checked
before it was stored, with the game and option it was checked for and the room it went into: a rematch of
that room reads it again; the room's own record never does (its content is in its start snapshot).
``seats.held_for``/``held_until``: an open seat of a rematch room held for the token hash of its player of
the previous match until that time (it was kept in memory only, so a restart let a stranger take it).
``rooms.creator_network``: the hash of the creator's network (/24, /64), counted against ``rooms_per_network``.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "uploads",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("option", sa.String(64), nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("held_for", sa.String(64), nullable=True))
        batch.add_column(sa.Column("held_until", sa.Float, nullable=True))
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("creator_network", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("creator_network")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("held_until")
        batch.drop_column("held_for")
    op.drop_table("uploads")
