"""The package list, which pyproject.toml cannot express: every package found under host/
and firmware/ (so a new subpackage is never left out of the wheel), plus two folders that
ride inside the yariboard package for the installed tool (yariboard/resources.py):
yariboard/firmware/ (main.py, boardfw/, shogicore/ laid out as on the Pico, which the
simulator runs) and yariboard/boards/ (the board files of hardware/boards/)."""
from setuptools import find_packages, setup

FIRMWARE_PACKAGES = find_packages("firmware")

setup(packages=find_packages("host") + FIRMWARE_PACKAGES + ["yariboard.firmware", "yariboard.boards"]
      + ["yariboard.firmware." + name for name in FIRMWARE_PACKAGES])
