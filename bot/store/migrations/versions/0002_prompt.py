"""Each game's newest prompt (the one message whose controls are live) is kept with the game, so that after a
restart, or in another process, the next prompt still retires it."""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("prompt_channel_id", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("prompt_message_id", sa.BigInteger, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("prompt_message_id")
        batch.drop_column("prompt_channel_id")
