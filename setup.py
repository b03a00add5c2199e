"""The package list, which pyproject.toml cannot express: every package found under host/
and firmware/ (so a new subpackage is never left out of the wheel), plus two folders that
ride inside the yariboard package for the installed tool (yariboard/resources.py):
yariboard/firmware/ (main.py, boardfw/, shogicore/ laid out as on the Pico, which the
simulator runs) and yariboard/boards/ (the board files of hardware/boards/)."""
from setuptools import find_packages, setup

FIRMWARE_PACKAGES = find_packages("firmware")
# the web pages' files (scripts, styles, the board component with its source), as data
WEB_FILES = ["yariboard.ui.web.static", "yariboard.ui.web.static.shogiground",
             "yariboard.ui.web.static.shogiground.src"]

setup(packages=find_packages("host") + FIRMWARE_PACKAGES + ["yariboard.firmware", "yariboard.boards"]
      + ["yariboard.firmware." + name for name in FIRMWARE_PACKAGES] + WEB_FILES)
