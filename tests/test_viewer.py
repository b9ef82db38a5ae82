"""The web viewer (``botarena.viewer``) in a real browser, for every game.

A short match between two of the game's bots is recorded through ``botarena match
--record`` (scores change within it) and written as a page by ``botarena replay --html``;
Chromium opens the page from its file, and the turn and the scores it shows at frames
reached by every control (scrub bar, step, first, last, play) must be the replay's own,
re-simulated by ``botarena.replay.play``.  The board must be drawn (several colours), the
actions listed, no script error raised and nothing asked of the network.

The browser is Debian's Chromium (``/usr/bin/chromium``, which CI's ``.ci/run`` installs)
driven by playwright (the ``test`` extra).  Without either the tests fail, naming the fix:
a viewer test that skipped would let a broken page pass.
"""
import io
import json
from pathlib import Path

import pytest

from botarena import replay
from botarena.arena import cli
from conftest import VIEWER_MATCHES

try:
    from playwright import sync_api
except ImportError:
    sync_api = None

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
# a short match of each game whose scores change: its two players and config
SEED = 0
MIN_COLOURS = 4             # distinct colours in a drawn board, at least
PLAY_TIMEOUT_MS = 10_000    # for the play button to move past the first frame
FASTEST = "100"             # the speed select's fastest option (frames a second)
PAUSE_CHECK_MS = 100        # ten frames at FASTEST: a play not paused would move on


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} not found: the viewer tests need Debian's Chromium "
                    "(apt-get install chromium; .ci/run installs it)")
    if sync_api is None:
        pytest.fail("the viewer tests need playwright: pip install -e '.[test]'")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def record_match(env_id, path):
    players, config = VIEWER_MATCHES[env_id]
    settings = [f"{key}={json.dumps(value)}" for key, value in config.items()]
    assert cli.main(["match", env_id, *players, "--seed", str(SEED), "--record", str(path),
                     "--config", *settings]) == 0


def replayed(path):
    """(turn, scores) of every position of the replay, as ``replay.play`` re-simulates it."""
    positions = []
    replay.play(path, on_turn=lambda game: positions.append(
        (int(game.state.steps[0]), game.scores[0].tolist())))
    return positions


class Viewer:
    """The page in the browser: its controls, and what it shows."""

    def __init__(self, page, seats):
        self.page, self.seats = page, seats

    def shown(self):
        """(frame, turn, scores) as the page's text shows them."""
        text = self.page.inner_text
        return (int(text("#frame")), int(text("#turn")),
                [int(text(f"#score-{seat}")) for seat in range(self.seats)])

    def scrub(self, frame):
        self.page.eval_on_selector(
            "#scrub", "(bar, frame) => { bar.value = frame; "
                      "bar.dispatchEvent(new Event('input')); }", frame)

    def click(self, button):
        self.page.click(f"#{button}")


def test_viewer_shows_the_replayed_game(env_id, browser, tmp_path):
    record, html = tmp_path / "game.jsonl", tmp_path / "game.html"
    record_match(env_id, record)
    assert cli.main(["replay", str(record), "--html", str(html)]) == 0
    positions = replayed(record)
    last = len(positions) - 1
    assert positions[0][1] != positions[-1][1], "the scores must change for the check to tell"
    page = browser.new_page()
    requests, errors = [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(html.as_uri())
    viewer = Viewer(page, len(VIEWER_MATCHES[env_id][0]))

    def expect(frame):
        assert viewer.shown() == (frame, *positions[frame])

    expect(0)
    assert int(page.inner_text("#frames")) == last
    middle = last // 2
    viewer.scrub(middle)
    expect(middle)
    assert page.locator("#actions li").count() == viewer.seats   # a turn: each seat's actions
    viewer.click("forward")
    expect(middle + 1)
    viewer.click("back")
    viewer.click("back")
    expect(middle - 1)
    viewer.click("last")
    expect(last)
    viewer.click("forward")         # stays on the last frame
    expect(last)
    viewer.click("first")
    expect(0)
    page.select_option("#speed", FASTEST)
    viewer.click("play")
    playing = page.locator("#frame")
    sync_api.expect(playing).not_to_have_text("0", timeout=PLAY_TIMEOUT_MS)
    # pause, unless the play already ran to the last frame and stopped there (a short game
    # at the fastest speed can): a click then would play it again from the first frame.
    # One script, so no frame of the play comes between the check and the click.
    page.eval_on_selector("#play", "button => { if (button.textContent === 'pause') "
                                   "button.click(); }")
    assert page.inner_text("#play") == "play"
    frame = viewer.shown()[0]
    page.wait_for_timeout(PAUSE_CHECK_MS)
    expect(frame)                   # the pause holds, on a frame of the game

    from PIL import Image
    board = Image.open(io.BytesIO(page.locator("#board").screenshot())).convert("RGB")
    colours = board.getcolors(maxcolors=board.width * board.height)
    assert len(colours) >= MIN_COLOURS, f"a blank board? {len(colours)} colours"
    assert not errors, errors
    assert requests and all(url.startswith("file://") for url in requests), requests
    page.close()
