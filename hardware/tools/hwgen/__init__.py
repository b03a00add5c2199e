"""Derives the hardware documents (netlist, drawings, BOM, power budget) from a board file."""
