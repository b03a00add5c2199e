"""A board is known by its USB serial number, whichever port it is on: the port scan
(pyserial's comports, standing in for a hub) finds the Picos among other serial devices."""
from yariboard.board.link import attached_boards, board_ports
from tests.board.usb_ports import scan_finds, usb_port


def test_the_picos_are_found_by_serial_number_and_other_devices_left_out(monkeypatch):
    scan_finds(monkeypatch, lambda: [
        usb_port("/dev/ttyACM0", "E6614103E7452D2F"),
        usb_port("/dev/ttyUSB0", "A10K4XQ2", vid=0x0403, pid=0x6001),     # an FTDI cable
        usb_port("/dev/ttyACM1", "E66138935F2B6A2C"),
        usb_port("/dev/ttyACM2"),                                         # reports no serial
    ])
    assert attached_boards() == {"E6614103E7452D2F": "/dev/ttyACM0",
                                 "E66138935F2B6A2C": "/dev/ttyACM1",
                                 "/dev/ttyACM2": "/dev/ttyACM2"}
    assert sorted(board_ports()) == ["/dev/ttyACM0", "/dev/ttyACM1", "/dev/ttyACM2"]

