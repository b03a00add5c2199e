"""The LED language table, its blink resolution, and the legend picture drawn from it."""
import os

from boardfw import interpreter, ledlang
from shogicore.variants import SHOGI, YARI
from tools.render_led_language import MEANINGS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def style_constants():
    return {key: value for key, value in vars(ledlang).items()
            if key.isupper() and isinstance(value, int) and key not in ("STEP_MS", "OFF")}


def test_every_style_has_one_row_with_a_colour_a_pattern_and_a_meaning():
    names = [row[0] for row in ledlang.TABLE]
    assert len(names) == len(set(names)) == len(MEANINGS)
    for name, rgb, pattern in ledlang.TABLE:
        assert 0 < rgb <= 0xFFFFFF
        assert len(pattern) == 8 and set(pattern) <= set(b"#.") and b"#" in pattern
        assert MEANINGS[name]


def test_each_style_constant_names_its_own_row():
    constants = style_constants()
    assert sorted(constants.values()) == list(range(len(ledlang.TABLE)))
    for key, style in constants.items():
        name = ledlang.TABLE[style][0]
        assert key == name.upper().replace("-", "_"), (key, name)
    assert interpreter.ledlang is ledlang


def test_every_piece_that_can_be_dropped_has_a_drop_choice_style():
    for variant in (YARI, SHOGI):
        for kind in variant.hand_kinds:
            letter = variant.symbol(kind)
            assert ledlang.TABLE[ledlang.drop_choice(letter)][0] == "choice-" + letter


def test_colour_follows_the_blink_pattern_step_by_step():
    # choice styles: six steps lit, two dark, one second per cycle
    rgb = ledlang.TABLE[ledlang.CHOICE_PROMOTE][1]
    seen = [ledlang.colour(ledlang.CHOICE_PROMOTE, t) for t in range(0, 2000, 125)]
    assert seen == ([rgb] * 6 + [ledlang.OFF] * 2) * 2
    assert ledlang.colour(ledlang.FIX_PLACE, 130) == ledlang.OFF
    assert ledlang.colour(ledlang.FIX_PLACE, 250) == ledlang.TABLE[ledlang.FIX_PLACE][1]
    assert ledlang.colour(ledlang.DESTINATION, 999999) == ledlang.TABLE[ledlang.DESTINATION][1]
    assert ledlang.channels(0x12AB34) == (0x12, 0xAB, 0x34)


def test_the_legend_picture_is_drawn_from_the_current_table(tmp_path):
    from tools.render_led_language import render
    fresh = render(str(tmp_path / "legend.png"))
    with open(fresh, "rb") as f, open(os.path.join(ROOT, "docs", "led-language.png"), "rb") as g:
        assert f.read() == g.read(), "run tools/render_led_language.py"
