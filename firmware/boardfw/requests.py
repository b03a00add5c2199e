"""The host's rarer requests (docs/protocol.md): the game's start and history, new games and
set-ups, take-back, resignation, the host's side and the maker's LED and sensor checks.

The controller loads this module when one of them arrives and unloads it after the answer,
so its code takes no RAM while a game is played; `state`, `show`, `hint`, `clear` and
`version` stay in the controller. Each answer is the reply's words, or a ProtocolError
with nothing changed.
"""
from micropython import const

from boardfw import FIRMWARE_VERSION, protocol
from boardfw.controller import make_game, new_game_id
from boardfw.interpreter import UNDOABLE_ENDINGS
from shogicore.errors import MoveError, SfenError
from shogicore.game import CASUAL, TOURNAMENT
from shogicore.variants import variant_by_name

# A `state` reply's length apart from variant, mode and SFEN, at its longest: SEQ, RSEQ and
# PLY of five digits, the game id, the longest result word (white:perpetual-check), spaces,
# `ok state` and the ` #CRC` newline.
_STATE_FRAME = const(71)


def answer(controller, verb, args):
    game = controller.game
    if args is None:   # the retry of the request saved last (controller._execute): its
        if verb == "undo":   # reply, as of the game now
            return [str(game.position.plies)] + controller.sfen_words()
        return () if verb == "resign" else (controller.game_id,)
    if verb == "version":
        return (str(protocol.PROTOCOL_VERSION), FIRMWARE_VERSION, controller.config.variant,
                controller.config.name.replace(" ", "-"),
                "-" if controller.last_seq is None else str(controller.last_seq))
    if verb == "start":
        return [controller.game_id] + game.start_sfen.split()
    if verb == "history":
        return history(controller, args)
    if verb == "new":
        variant_name, handicap, mode = args
        _begin(controller, _new_game(controller, variant_name, mode,
                                     None if handicap == "-" else handicap, None))
        return (controller.game_id,)
    if verb == "setpos":
        _begin(controller, _new_game(controller, args[0], args[1], None, " ".join(args[2:])))
        return (controller.game_id,)
    if verb == "undo":
        return _undo(controller)
    if verb == "resign":
        return resign(controller, args)
    if verb == "host":
        return host(controller, args)
    if verb == "ledtest":   # the maker's check: red, green, blue, white on every LED
        controller.ledtest_start = controller.hw.ticks_ms()
        return ()
    if verb == "sensors":   # the raw and the debounced switch bitmaps
        matrix = controller.matrix
        return (str(matrix.rows), str(matrix.cols), "%x" % _bitmap(matrix, matrix.raw),
                "%x" % _bitmap(matrix, matrix.stable))
    raise protocol.ProtocolError("verb", "unknown request")


# The answers that take more than a few lines, each named as its verb (a name the verb's
# word already puts in the qstr table).
def history(controller, args):
    """`history FROM`: a batch of the game's moves from move FROM on."""
    first = _number(args[0])
    if first < 1:
        raise protocol.ProtocolError("args", "FROM counts from 1")
    end = min(first - 1 + protocol.HISTORY_BATCH, controller.game.position.plies)
    return [controller.game_id, str(first)] + list(controller.usi_moves(first - 1, end))


def resign(controller, args):
    """`resign black|white [time]`: a player resigns from the host, or the host's clock
    fell."""
    if controller.game.result is not None:
        raise protocol.ProtocolError("over", "the game has ended")
    if args[0] not in ("black", "white") or args[-1] not in (args[0], "time"):
        raise protocol.ProtocolError("args", "resign black|white [time]")
    controller.handle(controller.interpreter.resign(
        ("black", "white").index(args[0]), "time" if len(args) > 1 else "resignation"))
    return ()


def host(controller, args):
    """`host black|white|-`: the engine's side; a long press of A then resigns the other."""
    sides = ("black", "white", "-")
    if args[0] not in sides:
        raise protocol.ProtocolError("args", "host black|white|-")
    side = sides.index(args[0])
    controller.interpreter.host_side = side if side < 2 else -1
    return ()


def _new_game(controller, variant_name, mode, handicap, sfen):
    board_variant = controller.config.variant
    if variant_name != board_variant:   # the board file fixes the variant
        raise protocol.ProtocolError("variant", "this board plays " + board_variant)
    variant = variant_by_name(variant_name)
    if mode not in (CASUAL, TOURNAMENT):
        raise protocol.ProtocolError("variant", "mode is casual or tournament")
    try:
        game = make_game(variant, sfen=sfen, mode=mode, handicap=handicap)
    except SfenError as e:
        raise protocol.ProtocolError("sfen", str(e))
    except ValueError as e:
        raise protocol.ProtocolError("variant", str(e))
    # The longest reply a game gives is `state`; refuse now, before anything changes, a
    # position whose state would not fit a frame (every later reply would fail).
    if _STATE_FRAME + len(variant_name) + len(mode) + len(game.start_sfen) > protocol.MAX_LINE:
        raise protocol.ProtocolError("long", "no reply could hold this position")
    return game


def _begin(controller, game):
    """A new game (host request or button): save it, then announce it."""
    events = controller.set_game(game, new_game_id())
    controller.save()
    controller.send("new", controller.game_id, game.variant.name, game.mode,
                     *controller.sfen_words())
    controller.handle(events)


def _undo(controller):
    game = controller.game
    result = game.result
    if result is not None and result[1] not in UNDOABLE_ENDINGS:
        raise protocol.ProtocolError("over", "a %s cannot be taken back" % result[1])
    try:
        game.undo()
    except MoveError:
        raise protocol.ProtocolError("empty", "no move to take back")
    events = controller.interpreter.set_game(game)
    controller.save_changes((("undo",),))
    controller.send("undo", str(game.position.plies + 1), *controller.sfen_words())
    controller.handle(events)
    return [str(game.position.plies)] + controller.sfen_words()


def _number(text):
    if not text.isdigit() or len(text) > 6:
        raise protocol.ProtocolError("args", "expected a number")
    return int(text)


def _bitmap(matrix, rows_state):
    """All rows of `rows_state` (matrix.raw or matrix.stable) as one int, bit row*cols+col."""
    value = 0
    for row in range(matrix.rows - 1, -1, -1):
        value = value << matrix.cols | rows_state[row]
    return value
