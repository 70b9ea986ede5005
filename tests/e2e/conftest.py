"""Browser tests: a real ``amerikaner serve`` process and Debian's Chromium (its headless
shell, tests/chromium.py) via Playwright.

The server runs once per session on a free loopback port with a temporary data folder
and bots that act almost at once.  Every page a test opens records console errors and
uncaught exceptions; a test fails if any appear.  Screenshots go to test-artifacts/.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from chromium import CHROMIUM, CHROMIUM_ARGS
from serve_process import ServeProcess as BaseServeProcess

sync_api = pytest.importorskip("playwright.sync_api")
# expect()'s own 5 s default ran out on a machine running two copies of the suite: a
# generous bound that only a hang reaches (actions have the contexts' 15 s)
sync_api.expect.set_options(timeout=30_000)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
DESKTOP = {"width": 1280, "height": 900}
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 375, "height": 667}
SMALL_PHONE = {"width": 320, "height": 568}  # the narrowest phone the client is made for


class ServeProcess(BaseServeProcess):
    """The shared server process with the browser tests' settings: bots act within 0.05 s
    (quick, yet a person sees the cards arrive), quiet logs, 30 s before the next deal
    starts by itself (the accessibility audit of a finished deal, three languages, took
    over the default 10 s on a slow, busy machine), a room's turn time a quarter as long
    as it says (a test sees a 120 s clock count for 30 s, and a 30 s one runs out in 7.5
    s rather than keep it waiting), a deal review's search of 2 s of CPU time rather than
    8 (the tests look at a review's arrival, its sentences and its marks, not at how good
    its judgement is: a clear loss of a card played against the hints is found in about
    as many deals at 1, 2 or 8 s, and a review's worker runs at a low priority, so that
    on a busy machine 8 s of its CPU took 20 s of waiting), a practice hint's search of
    0.1 s rather than 0.5 (a practice table asks one for each of its person's decisions;
    the tests look at a hint's arrival and words, and the suite is bound by its two
    cores), and no limit to the rooms one
    address holds, nor to the players it makes: every browser here is 127.0.0.1, and a
    session of many files created more than the 30 rooms a person may hold
    (``too_many_rooms``, a 429 the page logs) and more than 10 players a minute."""

    def __init__(self, data_dir: Path, port: int | None = None) -> None:
        super().__init__(data_dir, {"AMERIKANER_BOT_DELAY": "0.05",
                                    "AMERIKANER_NEXT_DEAL_PAUSE": "30",
                                    "AMERIKANER_TURN_TIME_SCALE": "0.25",
                                    "AMERIKANER_REVIEW_SECONDS": "2",
                                    "AMERIKANER_HINT_SECONDS": "0.1",
                                    "AMERIKANER_ROOMS_HELD": "0",
                                    # every page names a player (issue 38), all from
                                    # 127.0.0.1: more than the 10 a minute a person makes
                                    "AMERIKANER_PLAYERS_PER_MINUTE": "0",
                                    "AMERIKANER_LOG_LEVEL": "warning",
                                    # par's quick bot: a club match's par in seconds
                                    "AMERIKANER_PAR_LEVEL": "easy"}, port)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real ``amerikaner serve`` process shared by the session."""
    serve = ServeProcess(tmp_path_factory.mktemp("e2e-data")).start()
    try:
        yield serve.base
    finally:
        serve.stop()


class Chromium:
    """The Chromium of a row of browser tests: launched by the first test that needs it,
    closed after the last (``pytest_runtest_teardown``), so that the browser files a worker
    runs one after another share one launch.

    Not one for the whole session: Playwright's sync API keeps an event loop marked running
    in the main thread while it is open, which asyncio.run() in any other test refuses.
    Under pytest-xdist (`--dist loadfile`, scripts/test.sh) a worker runs other files
    between its browser files, so the browser must be gone before another file's test
    that does not use it."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    def get(self) -> Any:
        if self._browser is not None and not self._browser.is_connected():
            self.close()  # it crashed: a new one for the next test
        if self._browser is None:
            self._playwright = sync_api.sync_playwright().start()
            self._browser = self._playwright.chromium.launch(executable_path=CHROMIUM,
                                                             args=CHROMIUM_ARGS)
        return self._browser

    def close(self) -> None:
        browser, playwright = self._browser, self._playwright
        self._browser = self._playwright = None
        try:
            if browser is not None and browser.is_connected():
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


CHROMIUM_NOW = Chromium()


@pytest.fixture
def browser() -> Any:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM}")
    return CHROMIUM_NOW.get()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item,
                            nextitem: pytest.Item | None) -> Generator[None, object, object]:
    """After a browser test's own teardown (its pages closed): the browser goes too unless
    the next test uses it or is of the same file, as when it was one browser a file
    (pytest-xdist names the next test it has been given)."""
    try:
        return (yield)
    finally:
        if not (isinstance(nextitem, pytest.Function)
                and ("browser" in nextitem.fixturenames or nextitem.path == item.path)):
            CHROMIUM_NOW.close()


class PageProblems:
    """Console errors and uncaught exceptions seen by the pages of one test."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Any, label: str, allow_http_errors: bool = False) -> None:
        def console(message: Any) -> None:
            if allow_http_errors and message.text.startswith("Failed to load resource"):
                return
            if message.type == "error":
                self.errors.append(f"{label} console: {message.text}")

        def exception(error: Any) -> None:
            self.errors.append(f"{label} exception: {error}")

        page.on("console", console)
        page.on("pageerror", exception)


@pytest.fixture
def new_page(browser: Any, server: str) -> Iterator[Callable[..., Any]]:
    """``new_page(label, viewport=DESKTOP, **context_options)``: a page in a fresh browser
    context (its own localStorage, like another person's browser); ``allow_http_errors``:
    an HTTP error answer the test expects is not a console error.

    The page asks for reduced motion unless the test passes ``reduced_motion=
    "no-preference"``: the cards' slide-ins and a trick's collecting, drawn in software by
    headless Chromium on every page of a table, were a third of the renderers' CPU in a
    table's test, and the suite is bound by its two cores (2026-12-06: test_three_languages.py's six
    pages, 51.5 s and 32.7 s of the renderers' CPU with motion, 33.2 s and 21.5 s
    without). The tests of what moves (test_trick_display.py, test_phone_dock.py, the
    phone's collected trick, the host of test_table.py) keep the motion on."""
    problems = PageProblems()
    contexts: list[Any] = []

    def make(label: str, viewport: dict[str, int] | None = None,
             allow_http_errors: bool = False, **options: Any) -> Any:
        options.setdefault("reduced_motion", "reduce")
        ctx = browser.new_context(viewport=viewport or DESKTOP, base_url=server,
                                  locale=options.pop("locale", "en-GB"), **options)
        ctx.set_default_timeout(15_000)
        contexts.append(ctx)
        page = ctx.new_page()
        problems.watch(page, label, allow_http_errors)
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert problems.errors == [], "\n".join(problems.errors)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
