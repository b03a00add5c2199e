"""Builds the KiCad PCB of a board file (run by hardware/tools/pcb.py under Debian's Python 3)."""
