"""Every game's live web page, served by the bot process itself (``WEB_PORT``; off unless set; docs/web.md).

* ``links`` — the unguessable public token and the signed, expiring, revocable personal links (table ``web_page``);
* ``pages`` — what a page shows at one step, from the bot's own replay and presenter (blocking);
* ``live`` — the server-sent events that tell open pages of a move within a second;
* ``server`` — the read-only aiohttp application: routes, security headers, limits;
* ``templates/`` and ``static/`` — the Jinja2 templates and the page's one script and style sheet.

Nothing here names a game: a page is whatever the game's presenter draws for ``/game status`` and its private
views.
"""
