"""Boards without hardware: the firmware on the MicroPython unix port, the desk rig of hands and cable, the emulated Pico."""
