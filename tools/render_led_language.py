"""Draw docs/led-language.png, the legend of the board's LEDs, from the one table in
firmware/boardfw/ledlang.py: a swatch, the style's name and meaning, and its blink pattern
as a strip of lit and dark steps over two seconds. Names and meanings come from
host/yariboard/board/ledstyles.py, not the firmware: the board never shows them.

    .venv/bin/python tools/render_led_language.py [OUT.png]
"""
import os
import sys

from PIL import Image, ImageDraw, ImageFont

from boardfw import ledlang
from yariboard.board.ledstyles import MEANINGS, channels, style_names, style_rows

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "docs", "led-language.png")

ROW = 34
SWATCH = 24
STRIP_CYCLES = 2
CELL = 14
BACKGROUND = (245, 240, 228)
INK = (30, 30, 30)
GRID = (150, 140, 120)
DARK_LED = (70, 62, 50)


def shown(rgb):
    """LED values are kept dim to save current; draw the same hue at full brightness."""
    top = max(rgb)
    return tuple(c * 255 // top for c in rgb) if top else rgb


def render(path=DEFAULT_OUT):
    font = ImageFont.load_default(15)
    small = ImageFont.load_default(12)
    steps = len(style_rows()[0][1]) * STRIP_CYCLES  # every pattern is one second long
    name_x, meaning_x = 50, 200
    strip_x = 600
    width = strip_x + steps * CELL + 20
    top = 64
    height = top + ROW * len(style_rows()) + 14
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((14, 12), "Yari Board: what the square lights mean", font=ImageFont.load_default(20),
              fill=INK)
    draw.text((strip_x, 42), "blink: %d ms per step, %d s shown" % (
        ledlang.STEP_MS, steps * ledlang.STEP_MS // 1000), font=small, fill=INK)
    draw.text((name_x, 42), "style", font=small, fill=INK)
    draw.text((meaning_x, 42), "meaning", font=small, fill=INK)
    for row, (name, (rgb, _)) in enumerate(zip(style_names(), style_rows())):
        y = top + row * ROW
        colour = shown(channels(rgb))
        meaning = MEANINGS[name]
        draw.rectangle((14, y, 14 + SWATCH, y + SWATCH), fill=colour, outline=GRID)
        draw.text((name_x, y + 4), name, font=font, fill=INK)
        draw.text((meaning_x, y + 4), meaning, font=font, fill=INK)
        for step in range(steps):
            x = strip_x + step * CELL
            on = ledlang.lit(row, step * ledlang.STEP_MS)
            draw.rectangle((x, y + 4, x + CELL - 2, y + SWATCH - 4),
                           fill=colour if on else DARK_LED, outline=GRID)
    image.save(path, optimize=False)
    return path


if __name__ == "__main__":
    print(render(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT))
