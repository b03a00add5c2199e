"""`yariboard demo`: a whole game through the simulated board, saved in the archive.

Two engines play each other, each at a level of the strength scale (engines/levels.py),
as `play --level` would set them. Every move is ordered on the board with `show` and
carried out by scripted hands on the simulated reed switches; the firmware (the real one,
on the MicroPython unix port) commits it and announces it over the pseudo-terminal, and
only then does the archive store it. The game ends with the board's own verdict (mate,
repetition, ...) or, at the move limit, by material adjudication (players.adjudicate: the
side at least 3 Pawns ahead wins, else a draw), recorded as 'adjudication'.
"""
import time

from boardfw import config as board_config
from shogicore.variants import BLACK, WHITE
from yariboard import resources
from yariboard.board.link import Link
from yariboard.engines import levels as scale
from yariboard.engines.players import adjudicate
from yariboard.play.recorder import Recorder
from yariboard.play.session import PlaySession
from yariboard.sim.rig import SimRig

DEFAULT_MAX_PLIES = 160
# The built-in engine at depth 3 against its level 1: both need nothing installed.
DEFAULT_LEVELS = (3, 1)
WINNER_NAMES = {BLACK: "black", WHITE: "white", None: "draw"}


def player_names(variant, levels):
    """(Black's, White's) names in the archive for engines of these levels."""
    return tuple(scale.label(variant, level) for level in levels)


def run_demo(archive, levels=DEFAULT_LEVELS, max_plies=DEFAULT_MAX_PLIES, seed=1,
             seconds_per_move=None, storage_dir=None, board="yari-9x7", watch=None):
    """Play one engine-vs-engine game on the simulated board; returns the archive game id.

    `levels`: (Black's, White's) levels of the board's variant's scale; unequal levels make
    a decisive game likely. Each plays at its level's own budget, or `seconds_per_move`.
    `board`: the simulated board (hardware/boards/NAME.json), whose variant is played.
    `watch(session, leds, phase)` is called after every step and once at the end (the
    screen of `yariboard demo`). ValueError for a level off the scale, EngineError when a
    level's engine is not installed.
    """
    watch = watch or (lambda session, leds, phase: None)
    variant = board_config.load(resources.board_file(board)).variant
    names = player_names(variant, levels)
    engines = {}
    try:
        for side, level in zip((BLACK, WHITE), levels):
            engines[side] = scale.open_level(variant, level, seed=seed + side)
        return _play(archive, engines, names, max_plies, seconds_per_move, storage_dir, board,
                     watch)
    finally:
        for engine in engines.values():
            engine.close()


def _play(archive, engines, names, max_plies, seconds_per_move, storage_dir, board, watch):
    with SimRig(storage_dir, board=board) as rig:
        link = Link(finder=rig.ports)
        recorder = Recorder(link, archive, black=names[0], white=names[1])
        pending = []
        session = PlaySession(recorder, engines, time_limit=seconds_per_move,
                              on_order=lambda position, move: pending.append((position.copy(), move)))
        try:
            while not session.finished():
                session.step(0.02)
                if pending:
                    position, move = pending.pop()
                    rig.perform(position, move)
                watch(session, rig.led_styles(), rig.phase())
                if recorder.position is not None and len(recorder.position.moves()) >= max_plies:
                    winner = WINNER_NAMES[adjudicate(recorder.position)]
                    archive.finish(recorder.game_id, winner, "adjudication")
                    session.message = "move limit reached: adjudicated by material"
                    break
            # Let the board light the end of the game, then show it one last time.
            time.sleep(0.2)
            watch(session, rig.led_styles(), rig.phase())
        finally:
            link.close()
        return recorder.game_id
