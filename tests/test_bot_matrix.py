"""``botarena.training.bot_matrix``: every pair of a game's bots, seats alternating."""
import pytest

from botarena.training.bot_matrix import bot_matrix, format_matrix, main, play_pair


def test_the_matrix_is_antisymmetric_and_counts_every_game():
    table = bot_matrix("towers_v0", ["random", "greedy"], games=4, max_turns=60)
    for row in table:
        for column in table:
            cell, mirror = table[row][column], table[column][row]
            assert cell["wins"] + cell["draws"] + cell["losses"] == 4
            assert (cell["wins"], cell["draws"]) == (mirror["losses"], mirror["draws"])
    assert table["greedy"]["random"]["wins"] == 4
    assert table["greedy"]["greedy"]["draws"] == 4     # mirror images
    assert format_matrix(table).splitlines()[2] == "| random | 0.00/1.00/0.00 | 0.00/0.00/1.00 |"


def test_outcomes_follow_the_final_scores():
    # paint_v0's greedy covers more of the board than random in every game
    assert play_pair("paint_v0", "greedy", "random", 6, seed=3) == (6, 0, 0)


def test_bad_input_is_named(capsys):
    with pytest.raises(ValueError, match="no bot 'nobody'"):
        play_pair("towers_v0", "greedy", "nobody", 2, seed=0)
    with pytest.raises(ValueError, match="seats 4 agents"):
        play_pair("ants_v0", "greedy", "random", 2, seed=0, num_players=4, board="quad")
    with pytest.raises(SystemExit):
        main(["towers_v0", "--bots", "greedy", "--games", "0"])
    with pytest.raises(SystemExit):
        main(["nothing_v0", "--bots", "greedy"])
    assert "unknown env id" in capsys.readouterr().err
