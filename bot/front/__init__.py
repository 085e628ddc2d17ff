"""The two front ends over the one service: the Discord client (``client``, with ``inbound`` checking what
arrives before discord.py hands it on) and the terminal runner (``offline``)."""
