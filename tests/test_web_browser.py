"""The web page in a real browser: headless Chromium from the distribution's packages, driven by Selenium.

One browser for the module.  It opens a game's page, sees the board, zooms (buttons, keys, a pinch), steps the
history back and forward (buttons, arrow keys, the slider), sees the open page follow a move pressed through the
loopback Discord, opens a personal link and sees that seat's hand while the public page has none of it, and
checks a phone's width (390×844) and a desktop's for horizontal overflow.  Screenshots are kept in
``$TABULA_ARTIFACTS/web`` (default: the system's temp directory) for a person to look at.

Where no Chromium and chromedriver are installed (``apt-get install chromium chromium-driver``), the module
skips with one line saying so.  The page's server runs on the test's own event loop, so every browser call is
made from a worker thread."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.store.db import Database
from tests.fakediscord import FakeDiscordHarness, walk_components
from tests.tabula_harness import bot_factory, uid
from tests.test_discord import last, start_game
from tests.test_web_discord import links_of
from tests.web_helpers import play, serving

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if CHROMIUM is None or DRIVER is None:
    pytest.skip("no headless Chromium here (apt-get install chromium chromium-driver): browser tests skipped",
                allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

pytestmark = pytest.mark.slow  # whole games and picture sweeps: left out of the quick subset

T = TypeVar("T")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,900")


def artifacts() -> Path:
    folder = Path(os.environ.get("TABULA_ARTIFACTS") or Path(tempfile.gettempdir()) / "tabula-artifacts") / "web"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    profile = tempfile.mkdtemp(prefix="tabula-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(executable_path=str(DRIVER)), options=options)
    driver.set_page_load_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


async def on(call: Callable[..., T], *args: Any) -> T:
    """A blocking browser call, off the event loop that serves the page."""
    return await asyncio.to_thread(call, *args)


async def until(browser: webdriver.Chrome, script: str, timeout: float = 5.0) -> Any:
    """Wait until ``script`` returns something truthy in the page; returns it."""
    deadline = time.monotonic() + timeout
    while True:
        found = await on(browser.execute_script, script)
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"the page never satisfied: {script}")
        await asyncio.sleep(0.1)


async def viewport(browser: webdriver.Chrome, width: int, height: int, mobile: bool) -> None:
    await on(browser.execute_cdp_cmd, "Emulation.setDeviceMetricsOverride",
             {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    await on(browser.execute_cdp_cmd, "Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5})


async def no_overflow(browser: webdriver.Chrome, name: str) -> None:
    await asyncio.sleep(0.2)
    wide, inner = await on(browser.execute_script,
                           "return [document.documentElement.scrollWidth, window.innerWidth]")
    await on(browser.save_screenshot, str(artifacts() / f"{name}.png"))
    assert wide <= inner, f"{name}: the page is {wide} px wide in a {inner} px window"


SCALE = "return Number(document.getElementById('viewer').dataset.scale || 0)"
STEP = "return Number(document.body.dataset.step)"


async def test_the_page_in_a_browser_board_zoom_history_live_and_widths(db: Database,
                                                                         browser: webdriver.Chrome) -> None:
    async with FakeDiscordHarness(bot_factory(db, web_port=0)) as h:
        thread, _game_id = await start_game(h, h.bob)
        for _ in range(3):  # a few moves through the thread's own menus
            prompt = last(h, thread.id)
            mover = h.alice if uid(h.alice) in prompt.pings.users else h.bob
            pick = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
            values = [o["value"] for c in walk_components(prompt.components) for o in c.get("options", [])]
            await h.select(mover, prompt, pick, [values[0]])
        prompt = last(h, thread.id)
        [(_label, url)] = links_of(prompt)

        await viewport(browser, 1280, 900, False)
        await on(browser.get, url)
        assert await until(browser, "const i = document.getElementById('board'); return i && i.complete && "
                                    "i.naturalWidth > 800")
        assert "Dungeon board" in await on(browser.execute_script,
                                           "return document.getElementById('board').alt")
        await until(browser, "return document.getElementById('live').classList.contains('on')")
        await no_overflow(browser, "desktop-board")

        fitted = await until(browser, SCALE)
        await on(browser.find_element(By.ID, "zoom-in").click)
        assert await until(browser, SCALE) > fitted * 1.3
        viewer = await on(browser.find_element, By.ID, "viewer")
        await on(viewer.send_keys, "0")
        assert abs(await until(browser, SCALE) - fitted) < 1e-3
        await on(viewer.send_keys, "+")
        assert await until(browser, SCALE) > fitted
        await on(browser.save_screenshot, str(artifacts() / "desktop-zoomed.png"))

        newest = await on(browser.execute_script, STEP)
        assert newest >= 3
        await on(browser.find_element(By.ID, "go-first").click)
        await until(browser, "return document.body.dataset.step === '0'")
        assert "start" in await on(browser.execute_script, "return document.getElementById('where').textContent")
        body = await on(browser.find_element, By.TAG_NAME, "body")
        await on(body.send_keys, Keys.ARROW_RIGHT)
        await until(browser, "return Number(document.body.dataset.step) > 0")
        await on(browser.save_screenshot, str(artifacts() / "desktop-history.png"))
        await on(browser.execute_script, "const s = document.getElementById('slider'); s.value = '2';"
                                         "s.dispatchEvent(new Event('input'))")
        await until(browser, "return document.getElementById('slider').value === '2' && "
                             "document.getElementById('where').textContent.indexOf('Step 3 of') === 0")
        await on(body.send_keys, Keys.END)
        await until(browser, f"return Number(document.body.dataset.step) === {newest}")

        # a move pressed in the thread reaches the open page by itself
        mover = h.alice if uid(h.alice) in prompt.pings.users else h.bob
        pick = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
        values = [o["value"] for c in walk_components(prompt.components) for o in c.get("options", [])]
        started = time.monotonic()
        await h.select(mover, prompt, pick, [values[0]])
        await until(browser, f"return Number(document.body.dataset.step) > {newest}", timeout=4)
        took = time.monotonic() - started
        assert took < 3.0, f"the page took {took:.1f} s to follow the move"

        await viewport(browser, 390, 844, True)
        await on(browser.get, url)
        await until(browser, "const i = document.getElementById('board'); return i && i.complete && i.naturalWidth")
        await no_overflow(browser, "phone-board")
        fitted = await until(browser, SCALE)
        # a pinch: two fingers moving apart over the board
        box = await on(browser.execute_script, "const r = document.getElementById('viewer').getBoundingClientRect();"
                                               "return [r.left + r.width / 2, r.top + r.height / 2]")
        cx, cy = box

        def touch(kind: str, spread: float) -> None:
            points = [{"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}]
            browser.execute_cdp_cmd("Input.dispatchTouchEvent",
                                    {"type": kind, "touchPoints": [] if kind == "touchEnd" else points})
        await on(touch, "touchStart", 30)
        for spread in (50, 80, 110, 140):
            await on(touch, "touchMove", spread)
        await on(touch, "touchEnd", 0)
        assert await until(browser, SCALE) > fitted * 2
        await on(browser.save_screenshot, str(artifacts() / "phone-pinched.png"))
        await on(browser.execute_script, "window.scrollTo(0, document.body.scrollHeight)")
        await no_overflow(browser, "phone-panels")
        await viewport(browser, 1280, 900, False)


async def test_a_personal_link_shows_that_hand_and_the_public_page_does_not(db: Database,
                                                                          browser: webdriver.Chrome) -> None:
    played = await play(db, "autokrator", players=2, moves=0)
    async with serving(db) as server:
        public = await server.public_url(played.game_id)
        personal, _expires = await server.personal_url(played.game_id, 0, 1)
        await viewport(browser, 1280, 900, False)
        await on(browser.get, personal)
        hand = await until(browser, "const p = document.getElementById('private'); return p && p.innerText")
        cards = await on(browser.execute_script,
                         "return [...document.querySelectorAll('#private img')].map(i => i.alt).join(' ')")
        assert cards, "the personal page shows no picture of the hand"
        await on(browser.execute_script, "document.getElementById('private').scrollIntoView()")
        await on(browser.save_screenshot, str(artifacts() / "personal-hand.png"))
        await on(browser.get, public)
        await until(browser, "const i = document.getElementById('board'); return i && i.complete && i.naturalWidth")
        source = await on(lambda: browser.page_source)
        assert "id=\"private\"" not in source
        for line in [x for x in hand.splitlines()[2:] if len(x) > 12]:
            assert line not in source, f"the public page shows the hand: {line}"
        assert cards not in source
