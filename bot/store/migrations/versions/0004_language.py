"""A game's language: what its thread, its pictures and its tellings are written in (``en``, ``hu``, ``el``,
``ja``), chosen at ``/game new language:`` or taken from the server's preferred locale."""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=False, server_default="en"))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("language")
