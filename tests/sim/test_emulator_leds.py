"""The emulated Pico's LEDs as a person sees them: a real board reports colours only, so the
host tells a steady square from a blinking one of the same colour by watching it (seen_styles).
The frames here are what the board's LED refresh would send, step by step, from ledlang."""
from boardfw import ledlang
from yariboard.sim.emulator import seen_styles
from yariboard.board.ledstyles import channels, style_rows

MS = 1000000


def frames(lit_from, until_ms, refresh_ms=20):
    """(ns, {square: rgb}) at every change of the LEDs, refreshed each `refresh_ms` up to
    `until_ms`; `lit_from`: {square: (style row, first ms)}."""
    out, last = [], None
    for now in range(0, until_ms + 1, refresh_ms):
        leds = {sq: channels(ledlang.colour(style, now)) for sq, (style, since) in lit_from.items()
                if now >= since and ledlang.lit(style, now)}
        if leds != last:
            out.append((now * MS, leds))
            last = leds
    return out


def test_the_engines_move_reads_as_take_from_here_and_put_it_here_at_every_moment():
    lit = {"3c": (ledlang.ORDER_FROM, 0), "3d": (ledlang.ORDER_TO, 0)}
    # ORDER_TO is dark from 500 to 1000 ms of each second: asked then too, it is still there
    for now_ms in (1100, 1600, 1750, 1990, 2300):
        assert seen_styles(frames(lit, now_ms), now_ms * MS) == {"3c": "order-from",
                                                                  "3d": "order-to"}, now_ms


def test_a_general_in_check_blinks_and_the_losers_general_does_not():
    assert seen_styles(frames({"4a": (ledlang.CHECK, 0)}, 1700), 1700 * MS) == {"4a": "check"}
    assert seen_styles(frames({"4a": (ledlang.LOSER, 0)}, 1700), 1700 * MS) == {"4a": "loser"}


def test_the_impasse_offer_and_the_pawn_drop_choice_share_a_colour_but_not_a_rhythm():
    assert seen_styles(frames({"5e": (ledlang.IMPASSE, 0)}, 1500), 1500 * MS) == {"5e": "impasse"}
    choice = seen_styles(frames({"5e": (ledlang.CHOICE_P, 0)}, 1500), 1500 * MS)
    assert choice == {"5e": "choice-P"}


def test_a_square_that_went_dark_for_good_leaves_the_picture():
    lit = {"7g": (ledlang.ORDER_TO, 0)}
    history = frames(lit, 1300)
    history.append((1400 * MS, {}))     # the move was carried out: its light went off
    assert seen_styles(history, 1450 * MS) == {"7g": "order-to"}   # could be a dark step
    assert seen_styles(history, 2200 * MS) == {}


def test_a_square_that_changes_colour_is_read_by_its_new_colour():
    history = frames({"2b": (ledlang.DESTINATION, 0)}, 600)
    history.append((700 * MS, {"2b": channels(style_rows()[ledlang.LAST_MOVE][0])}))
    assert seen_styles(history, 900 * MS) == {"2b": "last-move"}


def test_a_steady_light_that_went_off_and_came_back_is_still_steady():
    green = channels(style_rows()[ledlang.DESTINATION][0])
    history = [(0, {"5f": green}), (300 * MS, {}), (500 * MS, {"5f": green})]
    assert seen_styles(history, 900 * MS) == {"5f": "destination"}


def test_an_emulated_pico_takes_its_log_folder_away_when_closed(tmp_path, monkeypatch):
    import os
    import tempfile

    from yariboard.sim.emulator import EmulatedPico

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    pico = EmulatedPico(str(tmp_path / "pico" / "flash.bin"))
    assert [name for name in os.listdir(tmp_path) if name.startswith("emulated-pico-")]
    pico.close()
    assert os.listdir(tmp_path) == []
