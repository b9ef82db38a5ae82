"""The web viewer: a replay as one self-contained HTML page that plays it in a browser.

``write_html(replay_path, out_path)`` verifies the replay by re-simulating it through the
core (``botarena.replay.render``) and writes a page that needs no network and no server:
the style, the script (``viewer.css``, ``viewer.js``, package data beside this file) and
the game are inlined into ``page.html``, and its Content-Security-Policy forbids loading
anything.  ``botarena replay FILE --html OUT.html`` does the same from the command line.

The page holds one frame per position (after the reset and after every line of the
replay): the game's turn (``state.steps``), whether it is over, every player's score, each
agent's actions of the turn that led there (``games.ActionLabels``) and the position as
the game's compact view (``games.GameView.view``), each view key written only where it
differs from the previous frame's (a map is written once a game).  A 1000-turn game stays
within a few MB.  The page draws the position on a canvas for each of the five games, with
controls to play, pause, step and scrub, a speed, a chart of the scores per turn, and the
turn (``#turn``), the frame (``#frame``), each score (``#score-<seat>``) and the actions
(``#actions``) as text.
"""
import html
import json
import re
from importlib import resources

from .. import replay
from .games import VIEWS, ActionLabels

TEMPLATE = "page.html"
STYLE = "viewer.css"
SCRIPT = "viewer.js"
PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


class HtmlWriter(replay.Writer):
    """The web viewer of a replay (``replay.Writer``): frames gathered while it verifies."""

    def start(self, header):
        super().start(header)
        env_id = header.get("env")
        if env_id not in VIEWS:
            raise replay.ReplayError(f"the web viewer has no drawing of env {env_id!r} "
                                     f"(it draws {', '.join(VIEWS)})")
        self.game_view = VIEWS[env_id]
        self.frames, self.before, self.labels = [], None, None

    def add(self, game):
        super().add(game)
        if self.labels is None:
            self.labels = ActionLabels(game, self.game_view)
        view = self.game_view.view(replay.plain(game.snapshot(0)))
        turn = int(game.state.steps[0])
        labels = [] if turn == 0 else self.labels(self.before, game.actions[0].tolist())
        changed = {key: value for key, value in view.items()
                   if self.before is None or self.before[key] != value}
        self.frames.append({"turn": turn, "over": bool(game.over[0]),
                            "scores": game.scores[0].tolist(), "actions": labels,
                            "view": changed})
        self.before = view

    def finish(self, result):
        header = self.header
        data = {"env": header["env"], "agents": header["agents"], "seed": header["seed"],
                "config": header["config"], "result": result, "grid": self.game_view.grid,
                "frames": self.frames}
        title = f"{header['env']}: {' vs '.join(header['agents'])}"
        with open(self.out, "w", encoding="utf-8") as f:
            f.write(page(title, data))
        return super().finish(result)


def script_json(data):
    """``data`` as JSON that is safe inside a ``<script>`` element (no ``<`` to close it)."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")


def page(title, data):
    """The HTML page: the template with the title, the style, the script and the data."""
    files = resources.files(__package__)
    parts = {"title": html.escape(title), "style": (files / STYLE).read_text(encoding="utf-8"),
             "script": (files / SCRIPT).read_text(encoding="utf-8"), "data": script_json(data)}
    template = (files / TEMPLATE).read_text(encoding="utf-8")
    return PLACEHOLDER.sub(lambda match: parts[match.group(1)], template)


def write_html(replay_path, out_path):
    """Verify the replay ``replay_path`` and write its web viewer to ``out_path``; the
    number of frames.  ``ReplayError`` (and no file) for a replay that does not verify."""
    writer = HtmlWriter(out_path)
    replay.render(replay_path, [writer])
    return writer.count
