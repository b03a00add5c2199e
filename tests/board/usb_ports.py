"""USB serial ports as pyserial's port scan reports them, for ports no USB device backs here
(pseudo-terminals): pyserial's own ListPortInfo, filled as list_ports_linux fills it from
sysfs, returned by serial.tools.list_ports.comports() in place of the real scan."""

from serial.tools.list_ports_common import ListPortInfo

from yariboard.board.link import PICO_PID, PICO_VID


def usb_port(device, serial_number=None, vid=PICO_VID, pid=PICO_PID):
    """A port of a USB device: by default a Pico running MicroPython (its USB ids, maker and
    product strings as the rp2 port reports them)."""
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = vid, pid, serial_number
    info.manufacturer, info.product = "MicroPython", "Board in FS mode"
    info.apply_usb_info()
    return info


def scan_finds(monkeypatch, ports):
    """Make every port scan (serial.tools.list_ports.comports) return `ports()` as it is then."""
    monkeypatch.setattr("serial.tools.list_ports.comports",
                        lambda include_links=False: list(ports()))
