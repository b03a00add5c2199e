"""The parts the board is built from: one entry per kind, used by the netlist and the BOM.

Footprints are the printed circuit board's (hardware/tools/pcb.py): KiCad 6's standard
libraries, and the project's own library (hardware/kicad/YariBoard.pretty) for the Pico,
which KiCad 6 lacks. A hand-wired board ignores them; its example parts are the through-hole
ones, the PCB's parts (`pcb_part`) are surface-mount where a fab can place them.
"""


class PartKind:
    """A kind of part: how it appears in the netlist and in the BOM."""

    def __init__(self, key, ref_prefix, value, description, footprint, example, pins, note="",
                 pcb_part=None):
        self.key = key
        self.ref_prefix = ref_prefix
        self.value = value
        self.description = description
        self.footprint = footprint
        self.example = example
        self.pins = pins  # [(number, name)] in KiCad symbol order
        self.note = note
        self.pcb_part = pcb_part or example  # manufacturer part number on the PCB


REED = PartKind(
    "reed", "SW", "Reed switch NO",
    "Glass reed switch, normally open, one under each square",
    "Button_Switch_SMD:SW_SPST_REED_CT10-XXXX-G1",
    "Littelfuse MDSR-4-12-23 (any NO glass reed, 10-20 AT, <= 15 mm)",
    [(1, "1"), (2, "2")],
    "pull-in 10-20 AT so a piece magnet closes it through the board but not from the next square",
    "Coto Technology CT10-1020-G1 (moulded SMD reed, 12 mm, pull-in 10-20 AT)",
)
DIODE = PartKind(
    "diode", "D", "1N4148",
    "Small-signal diode in series with each reed switch (no ghosting when pieces form a rectangle)",
    "Diode_SMD:D_SOD-123",
    "onsemi 1N4148TR",
    [(1, "K"), (2, "A")],
    "cathode (ring) toward the row line",
    "Diodes Incorporated 1N4148W-7-F",
)
LED = PartKind(
    "led", "LED", "WS2812B",
    "Addressable RGB LED, one under each square, chained",
    "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
    "Worldsemi WS2812B on a 30 LED/m strip or single-LED boards",
    [(1, "VDD"), (2, "DOUT"), (3, "VSS"), (4, "DIN")],
    "each LED needs its own 100 nF; strips and LED boards carry it",
    "Worldsemi WS2812B",
)
LED_DECOUPLING_C = PartKind(
    "led_decoupling_c", "C", "100nF 0603",
    "Ceramic decoupling capacitor beside each WS2812B, VDD to VSS (WS2812B datasheet)",
    "Capacitor_SMD:C_0603_1608Metric",
    "Samsung CL10B104KB8NNNC",
    [(1, "1"), (2, "2")],
    "LED strips and single-LED boards carry it already; the PCB places one per LED",
)
PICO = PartKind(
    "pico", "U", "Raspberry Pi Pico",
    "Microcontroller board (RP2040), powered and connected over its micro-USB socket",
    "YariBoard:RaspberryPi_Pico_THT",
    "Raspberry Pi SC0915",
    None,  # filled from pico.HEADER
    "runs the MicroPython firmware; a Pico H (pre-soldered headers) works the same",
)
BUFFER = PartKind(
    "buffer", "U", "74AHCT125",
    "Quad buffer with 5 V TTL inputs: lifts the 3.3 V LED data to 5 V",
    "Package_DIP:DIP-14_W7.62mm",
    "Texas Instruments SN74AHCT125N",
    [(1, "1OE"), (2, "1A"), (3, "1Y"), (4, "2OE"), (5, "2A"), (6, "2Y"), (7, "GND"),
     (8, "3Y"), (9, "3A"), (10, "3OE"), (11, "4Y"), (12, "4A"), (13, "4OE"), (14, "VCC")],
    "powered from 5 V; one gate used, the other three disabled",
)
SERIES_R = PartKind(
    "series_r", "R", "330R",
    "Series resistor in the LED data line, damps ringing on the cable to the first LED",
    "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
    "Yageo MFR-25FBF52-330R",
    [(1, "1"), (2, "2")],
    "place close to the 74AHCT125 output",
)
BULK_C = PartKind(
    "bulk_c", "C", "1000uF 10V",
    "Bulk electrolytic capacitor across the LED supply at the first LED",
    "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
    "Panasonic EEU-FR1A102",
    [(1, "+"), (2, "-")],
    "mind the polarity: stripe (-) to GND",
)
DECOUPLING_C = PartKind(
    "decoupling_c", "C", "100nF",
    "Ceramic decoupling capacitor at the 74AHCT125 supply pins",
    "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm",
    "KEMET C320C104K5R5TA",
    [(1, "1"), (2, "2")],
)
FUSE = PartKind(
    "fuse", "F", "PTC 500mA",
    "Resettable fuse between the Pico's VBUS and the LED supply",
    "Capacitor_THT:C_Disc_D7.5mm_W5.0mm_P5.00mm",
    "Bourns MF-R050",
    [(1, "1"), (2, "2")],
    "limits a short in the LED wiring before it reaches the USB port",
)
BUTTON = PartKind(
    "button", "SW", "Push button",
    "Tactile push button (promotion choice, drop menu, confirm)",
    "Button_Switch_THT:SW_PUSH_6mm",
    "Omron B3F-1000",
    [(1, "1"), (2, "2")],
    "wired between its GPIO and GND; the firmware enables the pull-up",
)

BUTTON_HEADER = PartKind(
    "button_header", "J", "Button header",
    "Pin header for the two buttons mounted in the board's frame: A, B, GND",
    "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical",
    "Amphenol 77311-118-03LF (any 2.54 mm 1x3 pin header)",
    [(1, "A"), (2, "B"), (3, "GND")],
    "in parallel with the buttons on the PCB, which sits under the playing surface; "
    "a hand-wired board wires its buttons directly and needs none",
)

# Things the BOM lists that are not in the circuit.
MAGNET = PartKind(
    "magnet", "", "Neodymium disc 8x2 mm N35",
    "Magnet glued into the base of each piece, centred",
    "",
    "any 8 x 2 mm N35 disc magnet, axially magnetised",
    None,
    "one per piece; glue all with the same pole down (reed switches do not care, "
    "but a consistent pole keeps pieces from flipping each other over)",
)

