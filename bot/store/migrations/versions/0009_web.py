"""The game's web page (``bot/web``): each game's unguessable public token, the key its personal links are
signed with, and each seat's link generation (``/game web revoke`` raises it, so every earlier link of that
seat stops working)."""

import sqlalchemy as sa
from alembic import op

from bot.store.migrating import moment, required

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    op.create_table(
        "web_page",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), primary_key=True, autoincrement=False),
        required("token", sa.String(64)),
        required("secret", sa.String(64)),
        required("generations", sa.Text, server_default="{}"),
        moment("created_at"),
    )
    op.create_index("ix_web_page_token", "web_page", ["token"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_web_page_token", table_name="web_page")
    op.drop_table("web_page")
