"""The game's web page (``bot/web``): each game's unguessable public token, the key its personal links are
signed with, and each seat's link generation (``/game web revoke`` raises it, so every earlier link of that
seat stops working).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_page",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), primary_key=True, autoincrement=False),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("generations", sa.Text, nullable=False, server_default="{}"),
        sa.Column("created_at", sa.Float, nullable=False, server_default="0"),
    )
    op.create_index("ix_web_page_token", "web_page", ["token"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_web_page_token", table_name="web_page")
    op.drop_table("web_page")
