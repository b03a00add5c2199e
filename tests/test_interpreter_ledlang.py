"""The LED language table, its blink resolution, and the legend picture drawn from it."""
import os

from boardfw import interpreter, ledlang
from shogicore.variants import SHOGI, YARI

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_style_has_one_entry_with_a_colour_a_pattern_and_a_meaning():
    names = [row[0] for row in ledlang.TABLE]
    assert len(names) == len(set(names)) == len(ledlang.STYLES)
    for name, rgb, pattern, meaning in ledlang.TABLE:
        assert len(rgb) == 3 and all(0 <= c <= 255 for c in rgb) and any(rgb)
        assert len(pattern) == 8 and set(pattern) <= set(b"#.") and b"#" in pattern
        assert meaning


def test_every_style_the_interpreter_names_is_in_the_table():
    used = [value for key, value in vars(ledlang).items()
            if key.isupper() and isinstance(value, str) and key != "CHOICE_PREFIX"]
    assert len(used) >= 17
    for name in used:
        assert name in ledlang.STYLES, name
    assert interpreter.ledlang is ledlang


def test_every_piece_that_can_be_dropped_has_a_drop_choice_style():
    for variant in (YARI, SHOGI):
        for kind in variant.hand_kinds:
            assert ledlang.DROP_CHOICE[variant.symbol(kind)] in ledlang.STYLES


def test_colour_follows_the_blink_pattern_step_by_step():
    # choice styles: six steps lit, two dark, one second per cycle
    rgb = ledlang.STYLES[ledlang.CHOICE_PROMOTE][0]
    seen = [ledlang.colour(ledlang.CHOICE_PROMOTE, t) for t in range(0, 2000, 125)]
    assert seen == ([rgb] * 6 + [ledlang.OFF] * 2) * 2
    assert ledlang.colour(ledlang.FIX_PLACE, 130) == ledlang.OFF
    assert ledlang.colour(ledlang.FIX_PLACE, 250) == ledlang.STYLES[ledlang.FIX_PLACE][0]
    assert ledlang.colour(ledlang.DESTINATION, 999999) == ledlang.STYLES[ledlang.DESTINATION][0]


def test_the_legend_picture_is_drawn_from_the_current_table(tmp_path):
    from tools.render_led_language import render
    fresh = render(str(tmp_path / "legend.png"))
    with open(fresh, "rb") as f, open(os.path.join(ROOT, "docs", "led-language.png"), "rb") as g:
        assert f.read() == g.read(), "run tools/render_led_language.py"
