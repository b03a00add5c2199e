"""`yariboard bench --micropython PATH`: a path that is not a MicroPython unix port gets a
one-line error before any benchmark starts."""
import os
import stat

import pytest

from yariboard.cli.main import main

pytestmark = [pytest.mark.micropython]


@pytest.mark.parametrize("make_path, reason", [
    (lambda tmp: str(tmp / "missing"), "no such file"),
    (lambda tmp: str(tmp), "no such file"),
    (lambda tmp: "/bin/true", "not a MicroPython unix port"),
    (lambda tmp: _not_executable(tmp), "cannot run it"),
])
def test_a_bad_micropython_path_is_one_clear_line(tmp_path, capsys, make_path, reason):
    path = make_path(tmp_path)
    assert main(["bench", "firmware", "--micropython", path]) == 1
    out, err = capsys.readouterr()
    assert out == ""                                   # no benchmark began
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("yariboard: error: --micropython %s: %s" % (path, reason))


def _not_executable(tmp):
    path = tmp / "micropython"
    path.write_text("#!/bin/sh\n")
    os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    return str(path)
