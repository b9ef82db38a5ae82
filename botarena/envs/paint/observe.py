"""Paint's observations and action masks, drawn whole after every turn: the board
view (``observe_board``) or the ego view centred on each player's avatar
(``observe_ego``), then each player's legal actions.
"""
from ...core.jit import hot
from .constants import OBSTACLE, Plane
from .rules import legal_actions

# plane indices as plain ints (numba indexes with IntEnum members more slowly)
OWN_PAINT, OPPONENT_PAINT, OBSTACLE_PLANE, OWN_AVATAR, OPPONENT_AVATAR, TIME_LEFT = (
    int(Plane.OWN_PAINT), int(Plane.OPPONENT_PAINT), int(Plane.OBSTACLE), int(Plane.OWN_AVATAR),
    int(Plane.OPPONENT_AVATAR), int(Plane.TIME_LEFT))


@hot
def observe_board(colour, positions, time_value, on, obs):
    """Every player's planes (``obs[a]``, see constants.Plane) over the board as it is.

    The loops run over the flattened board, one plane each, so that each compiles to
    vector stores (one loop storing all six planes did not vectorize)."""
    width = colour.shape[1]
    n = colour.size
    board = colour.reshape(n)
    all_planes = obs.reshape(obs.shape[0], obs.shape[1], n)
    for a in range(positions.shape[0]):
        me = board.dtype.type(a + 1)    # the board's int16: an int64 would widen every cell
        planes = all_planes[a]
        own, opponent, obstacle = planes[OWN_PAINT], planes[OPPONENT_PAINT], planes[OBSTACLE_PLANE]
        own_avatar, opponent_avatar, time_left = (planes[OWN_AVATAR], planes[OPPONENT_AVATAR],
                                                  planes[TIME_LEFT])
        time_left[0] = time_value
        time_cell = time_left[0]   # cast once to the obs dtype, outside the loops
        for i in range(n):
            own[i] = (board[i] == me) * on
        for i in range(n):
            opponent[i] = ((board[i] > 0) & (board[i] != me)) * on
        for i in range(n):
            obstacle[i] = (board[i] == OBSTACLE) * on
        for i in range(n):
            own_avatar[i] = 0
        for i in range(n):
            opponent_avatar[i] = 0
        for i in range(n):
            time_left[i] = time_cell
        for b in range(positions.shape[0]):
            i = positions[b, 0] * width + positions[b, 1]
            planes[OWN_AVATAR if b == a else OPPONENT_AVATAR, i] = on


@hot
def observe_ego(colour, positions, time_value, on, obs):
    """Every player's planes on a (2H-1, 2W-1) window centred on its own avatar: board
    square (r, c) is window square (r - row + H - 1, c - col + W - 1), so the whole board
    is in view from anywhere; window squares off the board read as obstacles."""
    height, width = colour.shape
    for a in range(positions.shape[0]):
        me = colour.dtype.type(a + 1)   # as in observe_board
        planes = obs[a]
        planes[TIME_LEFT, 0, 0] = time_value
        time_cell = planes[TIME_LEFT, 0, 0]   # cast once to the obs dtype
        for k in range(planes.shape[0]):
            fill = on if k == OBSTACLE_PLANE else time_cell if k == TIME_LEFT else 0
            plane = planes[k]
            for r in range(plane.shape[0]):
                for c in range(plane.shape[1]):
                    plane[r, c] = fill
        top, left = height - 1 - positions[a, 0], width - 1 - positions[a, 1]
        for r in range(height):
            # the board row's window squares as views indexed from 0: LLVM then writes
            # many squares at a time (``core.journal.replay``)
            line = colour[r]
            own = planes[OWN_PAINT, top + r, left:left + width]
            opponent = planes[OPPONENT_PAINT, top + r, left:left + width]
            obstacle = planes[OBSTACLE_PLANE, top + r, left:left + width]
            for c in range(width):
                value = line[c]
                own[c] = (value == me) * on
                opponent[c] = ((value > 0) & (value != me)) * on
                obstacle[c] = (value == OBSTACLE) * on
        for b in range(positions.shape[0]):
            planes[OWN_AVATAR if b == a else OPPONENT_AVATAR,
                   top + positions[b, 0], left + positions[b, 1]] = on


@hot
def observe_env(s, p, e, obs, masks, journals):
    """Every player's planes (board or ego view) and action mask of env e.  The helpers
    take the env's arrays, not ``s`` and ``p``: a call passing those tuples copies them."""
    colour, positions, planes, env_masks = s.colour[e], s.positions[e], obs[e], masks[e]
    time_value = p.full * s.turns_left[e] / p.max_turns + p.round
    if p.ego:
        observe_ego(colour, positions, time_value, p.on, planes)
    else:
        observe_board(colour, positions, time_value, p.on, planes)
    for a in range(positions.shape[0]):
        legal_actions(colour, positions, a, env_masks[a])
