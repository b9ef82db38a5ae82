"""The rgb frames' status bar: the bitmap font read back from the pixels shows each game's
turn and every player's score (in the player's colour) and counts; frames keep one shape."""
import numpy as np
import pytest

import botarena
from botarena.core import frame
from botarena.core.frame import (ADVANCE, BAR_RGB, DOT, FONT, GLYPH_COLUMNS, GLYPH_ROWS, LINE,
                                 PAD, SWATCH, TEXT_RGB)
from botarena.envs.ants import render as ants
from botarena.envs.coderunner import render as coderunner
from botarena.envs.dungeon import render as dungeon
from botarena.envs.paint import render as paint
from botarena.envs.towers import render as towers

TURNS = 12
GLYPH_OF = {dots.tobytes(): char for char, dots in FONT.items()}


def bar_top(picture):
    """The first pixel row of the status bar (the board never has a row all bar colour)."""
    return int(np.flatnonzero((picture == BAR_RGB).all(axis=(1, 2)))[0])


def read_line(picture, y):
    """The characters of the text line at pixel row ``y`` (trailing blanks removed), and
    the colour of each character's dots (None for a blank)."""
    chars, colours = [], []
    for x in range(PAD, picture.shape[1] - GLYPH_COLUMNS * DOT + 1, ADVANCE):
        box = picture[y:y + GLYPH_ROWS * DOT:DOT, x:x + GLYPH_COLUMNS * DOT:DOT]
        on = (box != BAR_RGB).any(axis=2)
        chars.append(GLYPH_OF[on.tobytes()])
        colours.append(tuple(box[on][0]) if on.any() else None)
    text = "".join(chars).rstrip()
    return text, colours[:len(text)]


def read_bar(picture):
    top = bar_top(picture)
    return [read_line(picture, y) for y in range(top + PAD, picture.shape[0] - PAD, LINE)]


def test_text_reads_back():
    picture = np.full((20, 400, 3), BAR_RGB, dtype=np.uint8)
    text = "TURN 12/300 P0 SCORE 45: (A-Z) ?"
    frame.draw_text(picture, PAD, PAD, text.lower(), (200, 10, 10))
    assert read_line(picture, PAD)[0] == text
    assert len(GLYPH_OF) == len(FONT)                    # every glyph its own dots


def test_text_is_cut_at_the_edge_and_unknown_characters_named():
    picture = np.zeros((8, 20, 3), dtype=np.uint8)
    frame.draw_text(picture, 4, 2, "TOO LONG", TEXT_RGB)
    with pytest.raises(ValueError, match="no glyph for '@'"):
        frame.draw_text(picture, 0, 0, "a@b", TEXT_RGB)


def player_counts(env_id, snap):
    """Each player's line after ``SCORE n``, as the game's snapshot says it."""
    if env_id == "paint_v0":
        return [""] * len(snap["scores"])
    if env_id == "coderunner_v0":
        return [f" DIG {d}" if alive else f" RESPAWN {r - snap['turn']}" for d, alive, r in
                zip(snap["dig_delay"], snap["runner_alive"], snap["runner_respawn"])]
    if env_id == "dungeon_v0":
        return [f" HP {p['hp']} AMMO {p['ammo']} POWER {p['power']}" if p["alive"] else " OUT"
                for p in snap["players"]]
    if env_id == "ants_v0":
        return [f" ANTS {sum(a['owner'] == k for a in snap['ants'])} HILLS "
                f"{sum(h['owner'] == k and not h['razed'] for h in snap['hills'])} FOOD {food}"
                if alive else " OUT"
                for k, (food, alive) in enumerate(zip(snap["stored_food"], snap["alive"]))]
    return [f" FLAGS {flags} BOTS {sum(b['owner'] == k and not b['dead'] for b in snap['bots'])}"
            f" TOWERS {sum(t['owner'] == k and not t['dead'] for t in snap['towers'])}"
            for k, flags in enumerate(snap["turn_scores"])]


NAMES = {"paint_v0": "P", "coderunner_v0": None, "dungeon_v0": "P", "ants_v0": "C",
         "towers_v0": "P"}


COLOURS = {"paint_v0": [tuple(paint.player_rgb(a)) for a in range(2)],
           "coderunner_v0": coderunner.RUNNER_RGB, "dungeon_v0": dungeon.PLAYER_RGB,
           "ants_v0": ants.COLONY_RGB, "towers_v0": towers.PLAYER_RGB}


def masked_sample(env, agent, rng):
    """A legal action (a legal command for every cell)."""
    rows = env.action_mask(agent).reshape(-1, env.game.action_values())
    picks = [int(rng.choice(np.flatnonzero(row))) for row in rows]
    return np.array(picks, dtype=np.int64) if env.game.action_shape() else picks[0]


@pytest.mark.parametrize("env_id", botarena.ENV_IDS)
def test_status_bar_shows_turn_scores_and_counts(env_id):
    env = botarena.parallel_env(env_id, render_mode="rgb_array")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    shapes = {env.render().shape}
    for _ in range(TURNS):
        env.step({a: masked_sample(env, a, rng) for a in env.agents})
        shapes.add(env.render().shape)
    picture = env.render()
    assert len(shapes) == 1 and picture.dtype == np.uint8          # one shape all game
    snap = env.unwrapped.snapshot()
    lines = read_bar(picture)
    max_turns = snap["steps"] + snap["turns_left"]
    assert lines[0][0] == f"TURN {snap['steps']}/{max_turns}"
    names = ["RED", "BLUE"] if NAMES[env_id] is None else [f"{NAMES[env_id]}{k}" for k in range(2)]
    for k, (name, counts) in enumerate(zip(names, player_counts(env_id, snap))):
        text, colours = lines[1 + k]
        assert text == f"{SWATCH} {name} SCORE {int(snap['scores'][k])}{counts}"
        colour = tuple(COLOURS[env_id][k])
        assert all(c == colour for c in colours[2:] if c is not None)   # after the swatch
    legend = " ".join(text for text, _ in lines[3:])
    assert SWATCH in legend                                          # swatches and labels


def test_the_board_is_the_frame_top():
    game = botarena.game("paint_v0", board="5x11")
    game.reset(seed=0)
    picture = game.render_rgb(0)
    s = game.state
    board = paint.rgb(s.colour[0], s.positions[0])
    assert np.array_equal(picture[:board.shape[0]], board)
    assert bar_top(picture) == board.shape[0]
    assert picture.shape[1] == 11 * game.cell_pixels
