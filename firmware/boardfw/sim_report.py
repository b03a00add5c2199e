"""The simulated board's report channel (docs/simulator.md): acks, errors, the lit LEDs and,
once asked with `styles`, the LED styles.

Apart from sim_hw.py because only a run with `--report` loads it: the heap figures are taken
without one, as the Pico has no such channel, and its code then takes no RAM.
"""


class Report:
    def __init__(self, stream, config):
        self.stream = stream
        self.config = config
        self.styles = None      # the last styles report; None: not asked for

    def send(self, text):
        self.stream.write(text.encode() + b"\n")

    def leds(self, strip):
        """The lit LEDs, whenever the chain is rewritten. Written a word at a time, as the
        other reports too: the simulated board's heap is the one measured."""
        stream = self.stream
        stream.write(b"leds")
        for index in range(len(strip)):
            r, g, b = strip[index]
            if r or g or b:
                word = " %s:%02x%02x%02x" % (self.config.led_square(index), r, g, b)
                stream.write(word.encode())
        stream.write(b"\n")

    def report_styles(self, interpreter, now):
        """The phase and each lit square's LED style, when they changed (once asked)."""
        name = interpreter.variant.square_name
        words = ["styles", interpreter.phase()]
        lit = interpreter.lit
        for i in range(0, 2 * interpreter.frame(now), 2):
            words.append("%s:%d" % (name(lit[i]), lit[i + 1]))
        if words != self.styles:
            self.styles = words
            self.send(" ".join(words))
