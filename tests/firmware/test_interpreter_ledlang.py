"""The LED language table, its blink resolution, and the legend picture drawn from it."""
import os

from boardfw import interpreter, ledlang
from shogicore.variants import SHOGI, YARI
from yariboard.board.ledstyles import (MEANINGS, channels, style_constants, style_names,
                                       style_rows)

from tests.mpy import ROOT


def test_every_style_has_one_row_with_a_colour_a_pattern_and_a_meaning():
    names = style_names()
    assert len(names) == len(set(names)) == len(MEANINGS) == len(style_rows())
    for name, (rgb, pattern) in zip(names, style_rows()):
        assert 0 < rgb <= 0xFFFFFF
        assert len(pattern) == 8 and set(pattern) <= set(b"#.") and b"#" in pattern
        assert MEANINGS[name]


def test_the_style_constants_and_the_drop_choices_cover_every_row_once():
    rows = list(style_constants().values())
    rows += [ledlang.drop_choice(letter) for letter in ledlang.DROP_LETTERS]
    assert sorted(rows) == list(range(len(style_rows())))
    assert interpreter.ledlang is ledlang


def test_every_piece_that_can_be_dropped_has_a_drop_choice_style():
    for variant in (YARI, SHOGI):
        for kind in variant.hand_kinds:
            letter = variant.symbol(kind)
            assert style_names()[ledlang.drop_choice(letter)] == "choice-" + letter


def test_colour_follows_the_blink_pattern_step_by_step():
    # choice styles: six steps lit, two dark, one second per cycle
    rgb = style_rows()[ledlang.CHOICE_PROMOTE][0]
    seen = [ledlang.colour(ledlang.CHOICE_PROMOTE, t) for t in range(0, 2000, 125)]
    assert seen == ([rgb] * 6 + [0] * 2) * 2
    assert ledlang.colour(ledlang.FIX_PLACE, 130) == 0
    assert ledlang.colour(ledlang.FIX_PLACE, 250) == style_rows()[ledlang.FIX_PLACE][0]
    assert ledlang.colour(ledlang.DESTINATION, 999999) == style_rows()[ledlang.DESTINATION][0]
    assert channels(0x12AB34) == (0x12, 0xAB, 0x34)


def test_the_legend_picture_is_drawn_from_the_current_table(tmp_path):
    from tools.render_led_language import render
    fresh = render(str(tmp_path / "legend.png"))
    with open(fresh, "rb") as f, open(os.path.join(ROOT, "docs", "led-language.png"), "rb") as g:
        assert f.read() == g.read(), "run tools/render_led_language.py"
