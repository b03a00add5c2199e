"""The Raspberry Pi Pico's 40-pin header, as printed in its datasheet."""

# Physical pin -> signal. Ground pins sit at every fifth position from pin 3.
HEADER = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
    16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17",
    23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22",
    30: "RUN", 31: "GP26", 32: "GP27", 33: "GND", 34: "GP28", 35: "ADC_VREF",
    36: "3V3", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}

GROUND_PINS = tuple(pin for pin, signal in sorted(HEADER.items()) if signal == "GND")
VBUS_PIN = 40


def physical_pin(gpio):
    """Header pin number carrying GPIO `gpio`."""
    wanted = "GP%d" % gpio
    for pin, signal in HEADER.items():
        if signal == wanted:
            return pin
    raise ValueError("GP%d is not on the Pico's header" % gpio)
