"""Fixtures every test may use, and how the suite shares its workers (pytest-xdist, docs/tests.md).

Under ``-n`` each worker is its own process with its own temporary directories; ports are taken from the
system (port 0) and databases are SQLite files in ``tmp_path``.  The one thing the workers share is the
PostgreSQL database ``TABULA_TEST_POSTGRES_URL`` names, which a test wipes before it starts: every test that
uses it (marked ``postgres``, or parametrized onto that backend) holds a lock on that database from its setup
to its teardown, so they run one at a time whichever worker runs them (and whichever run: two test runs on one
machine wait for each other too).

How the workers share the tests (``-n``, whose default ``--dist load`` this replaces): the longest tests go
first, so that the workers finish together instead of one running a whole game alone at the end while the
other has nothing left (``LONGEST``, then the other slow tests, then the quick ones); each test is handed out
on its own as a worker frees up, except the tests of a module with a module-scoped fixture (a venv, a
browser), which go to one worker together so that the fixture is made once."""

from __future__ import annotations

import contextlib
import fcntl
import gc
import hashlib
import os
import resource
import shutil
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.store.db import Database, open_database
from tests.delivery_helpers import SHARED_PICTURES

try:  # pytest-xdist is in the test extras; without it the suite runs in one process and nothing is scheduled
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]  # no type marker
except ImportError:  # pragma: no cover - the test extras install it
    LoadScopeScheduling = None

#: The parameter values that mean "this run is on PostgreSQL" in the tests that run on both databases.
POSTGRES_PARAMS = {"postgres", "postgresql"}


def uses_postgres(item: pytest.Item) -> bool:
    """Marked ``postgres`` (a module's or a test's mark), or parametrized onto the PostgreSQL backend."""
    if item.get_closest_marker("postgres") is not None:
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and any(
        isinstance(value, str) and value in POSTGRES_PARAMS for value in callspec.params.values())


#: The longest tests, longest first (test ids, or their start: a function's name covers its parameters; a file
#: covers its tests), from ``--durations`` of a whole run on two workers.  They are started first; a test
#: that grows long belongs here, a test that is gone simply matches nothing.
LONGEST = (
    "tests/test_memory_long_play.py::",  # two fresh processes playing 60 games each
    "tests/test_scale_absent_shard.py::",  # two processes on PostgreSQL, one killed and another started later
    "tests/test_delivery_crash.py::test_kill_9_at_random_and_after_commits_loses_and_doubles_no_telling",
    "tests/test_picture_layers_once.py::test_a_whole_seeded_game_draws_no_static_layer_twice_in_one_process",
    "tests/test_longplay_process.py::test_a_kill_9_while_the_clock_tells_loses_no_line_and_repeats_none",
    "tests/test_readme.py::",  # a venv made once, then the README's commands in it
    "tests/test_tabula_thinking_crash.py::",  # a real bot killed while it thinks, then started again
    "tests/test_entrypoint.py::test_offline_runner_plays_champion_with_private_choices_and_to_the_end",
    "tests/test_legend_i18n_pictures.py::test_every_label_of_every_picture_fits_in_every_language",
    "tests/test_delivery_start.py::test_a_start_killed_at_each_step_is_finished_at_the_next_start_up",
    "tests/test_champion_i18n_pictures.py::test_every_card_fits_its_labels_in_every_language",
    "tests/test_turns_discord.py::test_every_answer_is_in_time_however_slowly_pictures_are_drawn",
    "tests/test_quality.py::test_mypy_strict_on_rules_render_bot_and_cogs",
    "tests/test_web_browser.py::",  # one Chromium for the module
    "tests/test_longplay_process.py::test_a_seat_is_offered_once_kept_up_to_date_then_closed_or_taken",
    "tests/test_legend_i18n_play.py::test_a_whole_game_is_told_in_the_language",
    "tests/test_legend_seam.py::test_the_presenter_tells_every_moment_of_a_game",
    "tests/test_backup.py::test_restore_is_refused_while_the_bot_runs_and_works_once_it_stopped",
    "tests/test_turns_discord.py::test_tabula_never_takes_the_seat_of_a_person_who_is_there",
    "tests/test_champion_ux_fights.py::test_a_card_with_no_alternative_is_played_at_once_and_said_so",
    "tests/test_longplay_process.py::test_a_kill_9_right_after_an_undo_is_saved_still_tells_it_once",
    "tests/test_longplay_process.py::test_resume_pings_whoever_must_act_and_export_and_history_answer_at_once",
    "tests/test_champion_ux_fights.py::test_a_hidden_card_is_told_as_plays_a_card_without_a_map_or_a_ping",
    "tests/test_turns_discord.py::test_pings_follow_the_turn_in_every_game",
    "tests/test_champion_property.py::test_random_games_end_with_a_champion",
    "tests/test_entrypoint.py::test_offline_runner_plays_a_whole_expanded_game_with_party_commands",
    "tests/test_conformance.py::test_the_terminal_runner_plays_it",
    "tests/test_longplay_process.py::test_an_undo_in_the_heroes_road_keeps_the_secret_row_secret",
    "tests/test_longplay_process.py::test_a_vacation_ended_early_gives_the_clock_back_with_the_days",
    "tests/test_stop_states.py::test_sigterm_mid_commit_while_another_connection_holds_the_database",
    "tests/test_backup.py::test_the_commands_and_json_logs",
    "tests/test_odd_input.py::test_an_answer_after_discords_window_is_one_warning_and_the_move_is_told",
    "tests/test_terminal.py::test_auto_is_a_short_demo_with_few_pictures",
    "tests/test_render_champion.py::test_the_shipped_label_layout_is_the_one_placement_gives_today",
    "tests/test_conformance.py::test_no_undo_history_replay_or_export_line_tells_a_secret_move",
    "tests/test_codec_any_text.py::test_any_text_typed_is_a_move_or_a_polite_refusal",
    "tests/test_delivery_stop.py::",
    "tests/test_render_champion.py::test_every_real_card_renders",
    "tests/test_eiyu_i18n.py::test_eiyu_i18n_a_whole_game_told_in_japanese_leaves_no_english",
    "tests/test_champion_i18n.py::test_a_whole_game_reads_in_greek_and_japanese",
    "tests/test_first_contact.py::test_stats_leaderboard_and_a_finished_games_export_come_from_the_local_file",
    "tests/test_pictures_check.py::",
    "tests/test_discord_expanded.py::test_leader_prompt_fight_buttons_cast_and_study",
)

#: Modules whose tests share a module-scoped fixture: each goes to one worker whole (see the module's docstring).
TOGETHER = ("tests/test_readme.py", "tests/test_web_browser.py", "tests/test_i18n_references.py")


def _rank(item: pytest.Item) -> int:
    """Where a test starts: by ``LONGEST``, then the other slow tests, then the quick ones."""
    for place, start in enumerate(LONGEST):
        if item.nodeid.startswith(start) and (start.endswith("::") or item.nodeid[len(start):][:1] in ("", "[")):
            return place
    return len(LONGEST) + (0 if item.get_closest_marker("slow") is not None else 1)


def _shares_a_module_fixture(item: pytest.Item) -> bool:
    """A fixture of module (or wider) scope that the test's own module defines."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    module = item.nodeid.split("::", 1)[0]
    return any(d.scope != "function" and d.baseid == module
               for defs in info.name2fixturedefs.values() for d in defs)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if uses_postgres(item):
            item.add_marker(pytest.mark.postgres)
    apart = sorted({i.nodeid.split("::", 1)[0] for i in items if _shares_a_module_fixture(i)} - set(TOGETHER))
    if apart:
        raise pytest.UsageError(f"{', '.join(apart)}: a module-scoped fixture; add the module to TOGETHER in "
                                "tests/conftest.py so that its tests run on one worker and it is made once")
    items.sort(key=_rank)  # stable: the order of the collection within a rank


if LoadScopeScheduling is not None:
    class LongestFirst(LoadScopeScheduling):  # type: ignore[misc]  # untyped base
        """``--dist load`` in the collection's order (``_rank``'s), one test at a time, ``TOGETHER`` kept whole."""

        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in TOGETHER else nodeid

    def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> LoadScopeScheduling | None:
        if config.getvalue("dist") != "load":
            return None  # a --dist the command line chose is left alone
        config.option.loadscopereorder = False  # the units in the collection's order, not by their size
        return LongestFirst(config, log)


#: Workers per core for ``-n auto``: the suite spends about a third of its time waiting (a ``python -m bot`` starting,
#: the fake Discord's sweeps, timers, libfaketime), and a worker that waits leaves its core to another.
WORKERS_PER_CORE = 2


def pytest_configure(config: pytest.Config) -> None:
    """The test processes keep glibc's own heap: the bot's tuning of it (``bot.ops.allocator.tune``, every
    picture buffer a mapping of its own) is for one long-lived bot's memory, and a worker that draws tens of
    thousands of pictures for hundreds of tests would pay it as page faults, about a seventh more CPU (measured
    on two picture-heavy files: 45.5 s user + 7.9 s system tuned, 44.9 + 0.9 s untuned).  The tuning is still
    what every process the tests start runs with (``python -m bot``, the terminal, the memory run), and
    ``tests/test_allocator.py`` tests it in processes of its own."""
    from bot.ops import allocator
    allocator.tune = lambda: False  # what tune() answers where it does nothing
    gc.disable()  # until the collection is done (see pytest_collection_finish)
    if not hasattr(config, "workerinput") and not os.environ.get(SHARED_PICTURES):
        # One picture folder for every bot process of this run (the workers inherit the variable): the
        # processes share what they drew, as a deployment's processes share a volume.  Removed at the end.
        folder = tempfile.mkdtemp(prefix="tabula-test-pictures-")
        os.environ[SHARED_PICTURES] = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


#: A test process's cyclic collector: a full collection only after this many younger ones (Python's default is
#: 10).  A worker holds half a million objects by mid-run (the modules, the games' content, the pictures' caches)
#: and a full collection walks them all: at the default, the quick subset made 32 of them, 6.5 s of its 110 s of
#: CPU; at 100 with what the collection made frozen (``gc.freeze``), 6 in 0.8 s.
FULL_COLLECTION_EVERY = 100


def pytest_collection_finish(session: pytest.Session) -> None:
    """The modules and what the collection made live as long as the process: frozen out of the collector's sight,
    which runs again from here, its full collections rarer (``FULL_COLLECTION_EVERY``).  Only the test processes:
    the processes the tests start (``python -m bot``) run as a deployment does."""
    _collector_on()


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> None:
    _collector_on()  # (xdist's controller collects nothing: its collector comes on here)


def _collector_on() -> None:
    if gc.isenabled():
        return
    gc.freeze()
    young, middle, _full = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
    gc.enable()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: two workers a core, or one for the quick subset (``-m "not slow"``: it hardly waits, and
    a worker more is a start-up more); ``PYTEST_XDIST_AUTO_NUM_WORKERS``, if set, still decides."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    quick = "not slow" in (config.getoption("markexpr", "") or "")
    return (1 if quick else WORKERS_PER_CORE) * max(1, len(os.sched_getaffinity(0)))


def _postgres_lock() -> Path:
    """One lock file per database, outside the repository (the same for every worker and every run)."""
    url = os.environ.get("TABULA_TEST_POSTGRES_URL", "")
    return Path(tempfile.gettempdir()) / f"tabula-test-postgres-{hashlib.sha256(url.encode()).hexdigest()[:16]}.lock"


#: ``TABULA_TEST_CPU=FILE``: each test's wall time and the CPU it cost (user + system of its worker and of the
#: processes it started and waited for: a child's CPU is counted once it is reaped) are added to FILE, one
#: line a test, and the run ends by naming the tests that cost most CPU and those that waited longest.
CPU_FILE = os.environ.get("TABULA_TEST_CPU", "")


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """A PostgreSQL test holds the database's lock from its setup to its teardown; with ``TABULA_TEST_CPU`` the
    test's own time and CPU (once it holds the lock) are recorded."""
    with contextlib.ExitStack() as held:
        if os.environ.get("TABULA_TEST_POSTGRES_URL") and uses_postgres(item):
            lock = held.enter_context(_postgres_lock().open("a"))
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if the worker dies
        wall, cpu = time.perf_counter(), _cpu_seconds()
        yield
        if CPU_FILE:
            wall, cpu = time.perf_counter() - wall, _cpu_seconds() - cpu
            with open(CPU_FILE, "a", encoding="utf-8") as out:  # one short write: the workers' lines stay whole
                out.write(f"{cpu:.3f}\t{wall - cpu:.3f}\t{wall:.3f}\t{item.nodeid}\n")


if CPU_FILE:
    def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
        if os.environ.get("PYTEST_XDIST_WORKER") or not Path(CPU_FILE).exists():
            return
        rows = [line.split("\t", 3) for line in Path(CPU_FILE).read_text(encoding="utf-8").splitlines()]
        figures = [(float(cpu), float(waited), float(wall), nodeid) for cpu, waited, wall, nodeid in rows]
        total_cpu, total_wall = sum(f[0] for f in figures), sum(f[2] for f in figures)
        write = terminalreporter.write_line
        write(f"{CPU_FILE}: {len(figures)} tests, {total_cpu:.0f} s of CPU in {total_wall:.0f} s of test time")
        for title, column in (("most CPU", 0), ("longest waiting (wall - CPU)", 1)):
            write(f"-- {title} --")
            for cpu, waited, wall, nodeid in sorted(figures, key=lambda f: -(f[1] if column else f[0]))[:15]:
                write(f"{cpu:7.1f} s CPU {waited:7.1f} s waiting {wall:7.1f} s wall  {nodeid}")


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'tabula.db'}")
    yield database
    await database.close()
