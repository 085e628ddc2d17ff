"""A server's default level for Tabula's seats (``/game defaults tabula_level:``), beside its clock and policy.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("guild_setting") as batch:
        batch.add_column(sa.Column("tabula_level", sa.String, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("guild_setting") as batch:
        batch.drop_column("tabula_level")
