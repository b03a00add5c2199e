# Yari Board. `make demo` plays a simulated game; `make test` runs every test.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
MP     := $(BIN)/micropython
MP32   ?= ../shared/tools/micropython-unix-32bit
VARIANT ?= yari
PORT   ?= auto
DRY_RUN ?=

.PHONY: all venv test test-fast test-slow soak bench demo sim serve flash typecheck clean fsf emulator pcb recordoracle

all: test

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,hardware]'
	touch $(STAMP)

venv: $(STAMP)

# The emulated Pico (tools/emulator): rp2040js and tsx from npm, pinned by package-lock.json.
EMULATOR  := tools/emulator
EMU_STAMP := $(EMULATOR)/node_modules/.installed
$(EMU_STAMP): $(EMULATOR)/package.json $(EMULATOR)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --prefix $(EMULATOR) --no-audit --no-fund --loglevel=error && touch $@; \
	else echo "npm not found: the emulated Pico is not installed (apt-get install nodejs npm)"; fi

emulator: $(EMU_STAMP)

# The records' oracle (tools/recordoracle): tsshogi from npm, pinned by package-lock.json.
ORACLE       := tools/recordoracle
ORACLE_STAMP := $(ORACLE)/node_modules/.installed
$(ORACLE_STAMP): $(ORACLE)/package.json $(ORACLE)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --prefix $(ORACLE) --no-audit --no-fund --loglevel=error && touch $@; \
	else echo "npm not found: the records' oracle is not installed (apt-get install nodejs npm)"; fi

recordoracle: $(ORACLE_STAMP)

# Every test but the long sweeps, two at a time (pytest-xdist: a module's tests stay together).
test: $(STAMP) $(EMU_STAMP) $(ORACLE_STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

# Before every commit: the tests that start no other program and sweep nothing (pyproject's markers).
FAST := not (slow or soak or micropython or engine or emulator or external or heavy)
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m "$(FAST)"

test-slow: $(STAMP) $(EMU_STAMP)
	$(BIN)/python -m pytest -q -m slow

# 10 000 noisy games with overlapping moves and 1 000 power cuts; prints its figures. Then
# every reader fed 3 000 hostile inputs each (40 in `make test`).
soak: $(STAMP)
	$(BIN)/python -m pytest -q -s -m soak tests/firmware/test_soak.py
	YARIBOARD_SOAK=1 $(BIN)/python -m pytest -q tests/cli/test_bounded_readers.py

# Heap figures on the 32-bit unix port (the Pico's word size; the budgets) and the 64-bit one.
bench: $(STAMP) $(EMU_STAMP)
	$(BIN)/yariboard bench all $(if $(wildcard $(MP32)),--micropython $(MP32) --micropython $(MP),)

demo: $(STAMP)
	$(BIN)/yariboard demo

sim: $(STAMP)
	$(BIN)/yariboard sim

# Three simulated boards playing, on the web pages at http://127.0.0.1:8710/ (Ctrl-C stops).
serve: $(STAMP)
	$(BIN)/yariboard serve --sim 3

# Fairy-Stockfish (npm package, pinned in host/yariboard/engines/fsf.py) into the per-user engines
# folder ($YARIBOARD_ENGINES_DIR if set); needs Node.js and npm.
fsf: $(STAMP)
	$(BIN)/yariboard engines install fsf

# KiCad PCBs (hardware/NAME/pcb/) from the board files and their netlists, with Debian's
# KiCad 6 (apt-get install kicad kicad-footprints): its pcbnew module imports only into
# Debian's own Python, so the second step runs /usr/bin/python3, not the virtualenv.
pcb: $(STAMP)
	$(BIN)/python hardware/tools/generate.py
	/usr/bin/python3 hardware/tools/pcb.py

typecheck: $(STAMP)
	$(BIN)/python -m tools.typecheck_firmware

# Compile the firmware with mpy-cross and copy it to a Pico with mpremote.
# `make flash DRY_RUN=1` prints the exact commands instead of running them.
# The Pico runs MicroPython v1.28.0 (micropython-v1.28.0-RPI_PICO.uf2), which mpy-cross matches.
# `make flash PORT=emulator` flashes the emulated Pico (flash image build/emulator/flash.bin);
# `make flash PORT=image` writes the same files into that image's filesystem, with no copy.
flash: $(STAMP) $(if $(filter emulator,$(PORT)),$(EMU_STAMP))
	$(BIN)/python -m tools.flash --variant $(VARIANT) --port $(PORT) $(if $(DRY_RUN),--dry-run,)

clean:
	rm -rf $(VENV) build out *.egg-info
