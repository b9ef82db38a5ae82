"""benchmarks.towers_scaling runs (a tiny batch, few steps) and prints a row per turn; its
passes start from the same position, so they play the same steps."""
import numpy as np

from benchmarks import towers_scaling
from botarena.envs.towers_v0 import Config, TowersGame


def test_prints_a_row_per_turn(capsys):
    assert towers_scaling.main(["--batch", "2", "--turns", "3", "0", "--steps", "2",
                                "--repeats", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("towers_v0, batch 2, greedy vs greedy")
    assert [int(line.split()[0]) for line in lines[2:]] == [0, 3]
    assert all(float(line.split()[1]) >= 2 * Config().num_bots_start for line in lines[2:])


def test_measure_leaves_the_position_as_it_was():
    game = TowersGame(Config(), 2, threads=False)
    greedy = towers_scaling.Greedy(game)
    game.reset(towers_scaling.SEED)
    for _ in range(5):
        game.step(greedy(), autoreset=True)
    before = game.snapshot(1), game.obs.copy(), game.masks.copy()
    towers_scaling.measure(game, greedy, steps=3, repeats=2)
    after = game.snapshot(1), game.obs, game.masks
    assert after[0]["turn"] == before[0]["turn"] and after[0]["bots"] == before[0]["bots"]
    assert np.array_equal(after[1], before[1]) and np.array_equal(after[2], before[2])
