"""`make typecheck`: the firmware type-checks against the Pico's MicroPython stubs."""
import pytest
from tools import typecheck_firmware

pytestmark = [pytest.mark.external]


def test_firmware_typechecks_against_the_pico_stubs(tmp_path):
    status, output = typecheck_firmware.run(str(tmp_path))
    assert status == 0, output
    assert "Success" in output


def test_the_check_refuses_calls_the_pico_does_not_have(tmp_path):
    module = tmp_path / "uses_cpython.py"
    module.write_text("import time\nimport machine\n"
                      "time.perf_counter()\n"                       # CPython only
                      "machine.Pin(2, machine.Pin.OUT).toggle_fast()\n"  # no such method
                      "time.ticks_ms()\n")                           # fine on the Pico
    status, output = typecheck_firmware.run(str(tmp_path / "build"), [str(module)])
    assert status == 1
    assert 'Module has no attribute "perf_counter"' in output
    assert '"Pin" has no attribute "toggle_fast"' in output
    assert ":5:" not in output
