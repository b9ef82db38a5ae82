"""The builtin ``safe_bomber`` idea in plain Python, on the seed's game_state API.

Run away when the own cell is in a blast; else bomb when the blast would reach a wooden or
ore block and a way out exists; else walk to the nearest ammo, treasure or bombing cell
through cells no blast will hit; else wait."""
from collections import deque

MOVES = {'u': (0, 1), 'd': (0, -1), 'l': (-1, 0), 'r': (1, 0)}
WALKABLE = (None, 'a', 't')


class Agent:
    def __init__(self, player_num, env):
        self.player_num = player_num

    def blast(self, game_state, x, y, power):
        cells = {(x, y)}
        for dx, dy in MOVES.values():
            for k in range(1, power + 1):
                c = (x + k * dx, y + k * dy)
                if not game_state.is_in_bounds(c):
                    break
                cells.add(c)
                if game_state.entity_at(c) in ('ib', 'sb', 'ob', 'b'):
                    break
        return cells

    def danger(self, game_state, power):
        cells = set(game_state.fire)
        for (x, y) in game_state.bombs:
            cells |= self.blast(game_state, x, y, power)
        return cells

    def path(self, game_state, start, goal, avoid):
        """First move of a shortest walk from start to a cell where goal(cell) holds."""
        seen = {start}
        queue = deque([(start, None)])
        while queue:
            cell, first = queue.popleft()
            if first is not None and goal(cell):
                return first
            for move, (dx, dy) in MOVES.items():
                nxt = (cell[0] + dx, cell[1] + dy)
                if nxt in seen or not game_state.is_in_bounds(nxt) or nxt in avoid:
                    continue
                if game_state.entity_at(nxt) not in WALKABLE:
                    continue
                seen.add(nxt)
                queue.append((nxt, first or move))
        return None

    def next_move(self, game_state, player_state):
        me = player_state.location
        power = player_state.power
        danger = self.danger(game_state, power)
        if me in danger:
            move = self.path(game_state, me, lambda c: c not in danger, set())
            return move or ''

        def hits_block(cell):
            return any(game_state.entity_at(c) in ('sb', 'ob')
                       for c in self.blast(game_state, cell[0], cell[1], power) if c != cell)

        if player_state.ammo > 0 and game_state.entity_at(me) != 'b' and hits_block(me):
            after = danger | self.blast(game_state, me[0], me[1], power)
            if self.path(game_state, me, lambda c: c not in after, set()):
                return 'p'

        def target(cell):
            if game_state.entity_at(cell) in ('a', 't'):
                return True
            return player_state.ammo > 0 and hits_block(cell)

        return self.path(game_state, me, target, danger) or ''
