"""A game's language: what its thread, its pictures and its tellings are written in (``en``, ``hu``, ``el``,
``ja``), chosen at ``/game new language:`` or taken from the server's preferred locale."""

import sqlalchemy as sa

from bot.store.migrating import add_columns, drop_columns, required

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    add_columns("game", required("language", sa.String(8), server_default="en"))


def downgrade() -> None:
    drop_columns("game", "language")
