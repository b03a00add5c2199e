"""What the board does once per power-up: resume the saved game (or start a new one when
there is none or it is damaged), map the switches and LEDs to the rules core's squares,
greet the host and read the whole board.

The controller loads this module for boot and unloads it after, so its code takes no RAM
while a game is played.
"""
from boardfw import FIRMWARE_VERSION, protocol
from boardfw.controller import make_game, message_words, new_game_id
from boardfw.storage import CorruptSave
from shogicore.move import parse_usi
from shogicore.variants import variant_by_name


def boot(controller):
    now = controller.hw.ticks_ms()
    config = controller.config
    # watched from here on: the changes while the game is loaded and compacted are kept
    controller.hw.start(controller.watch.scan)
    # (a sample taken before this finds nothing changed: it has not yet held a debounce time)
    controller.matrix.prime(now)
    # The board file fixes the variant (the host cannot start another), so the maps from
    # switches to squares and from squares to LEDs are made once, here.
    variant = variant_by_name(config.variant)
    files = config.files
    square_at = controller.square_at = bytearray(config.ranks * files)
    for row in range(config.ranks):
        for col in range(files):
            square_at[row * files + col] = variant.parse_square(config.square_name_at(row, col))
    led_at = controller.led_at = bytearray(variant.size)
    for sq in variant.squares:
        led_at[sq] = config.led_index(variant.square_name(sq))
    warning = _resume_or_start(controller)
    request = controller.store.request
    if request != "-":   # kept with the game: a request carried out stays old after a restart
        controller.last_seq = int(request[:-8])   # SEQ, then the frame's CRC
    controller.send("hello", str(protocol.PROTOCOL_VERSION), FIRMWARE_VERSION,
                     controller.game_id, str(controller.game.position.plies))
    if warning:
        controller.send("warning", "save-corrupt", warning)
    # the board as it now reads; the changes still to come from the watch follow it
    now = controller.hw.ticks_ms()
    while controller.watch.pop(now) is not None:
        pass
    occupied = [square_at[row * files + col] for row in range(config.ranks)
                for col in range(files) if controller.matrix.closed(row, col)]
    controller.handle(controller.interpreter.sync(occupied, now))
    controller.report_mismatch()
    controller.refresh_leds(now)


def _resume_or_start(controller):
    """Set up the controller's game; the warning to send when a damaged save was set aside
    (any damage the store detects, or moves the rules refuse), else None."""
    store = controller.store
    variant = controller.config.variant
    try:
        saved = store.load()
        if saved is not None:
            if saved.variant != variant:
                raise CorruptSave("the saved game is not for this board's variant")
            game = make_game(variant, sfen=saved.start_sfen, mode=saved.mode)
            for usi in saved.moves:
                game.play_usi(usi)
            if saved.handicap != "-":
                game.handicap = saved.handicap
            if saved.illegal != "-":
                game.illegal_move = parse_usi(game.variant, saved.illegal)
            if saved.result != "-":
                game.result = protocol.parse_result(saved.result)
            controller.set_game(game, saved.game_id)
            controller.save()   # compacted: appending goes on from a clean end
            return None
    except (CorruptSave, ValueError) as e:
        warning = "-".join(message_words(str(e)))
        store.set_aside_corrupt()
    else:
        warning = None
    controller.set_game(make_game(variant), new_game_id())
    controller.save()
    return warning
