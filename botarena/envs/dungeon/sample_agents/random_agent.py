"""The seed's Random Agent."""
import random


class Agent:
    def __init__(self, player_num, env):
        self.player_num = player_num

    def next_move(self, game_state, player_state):
        actions = ['', 'u', 'd', 'l', 'r', 'p']
        return random.choice(actions)
