"""`yariboard serve --sim N` and `demo --serve` as a user runs them: a child process that
prints where its pages are, streams its boards' moves, stores them in the archive and stops
cleanly on Ctrl-C."""
import pytest
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

from yariboard.records.archive import Archive

pytestmark = [pytest.mark.external]

WAIT_S = 180
YARIBOARD = os.path.join(os.path.dirname(sys.executable), "yariboard")


def start(*args, db):
    return subprocess.Popen([YARIBOARD, "--db", db] + list(args), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def page_url(child):
    """The URL the command prints when its server listens."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        line = child.stdout.readline()
        assert line, "the command ended before serving: %s" % child.stderr.read()
        found = re.match(r"web pages on (http://127\.0\.0\.1:\d+/)$", line.strip())
        if found:
            return found.group(1)
    raise AssertionError("no URL printed")


def opened(url):
    """The reply to `url` once the command has its boards (404 until they are heard)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            return urllib.request.urlopen(url, timeout=WAIT_S)
        except urllib.error.HTTPError as error:
            if error.code != 404 or time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def follow(url, enough):
    """Snapshots from the event stream until `enough(latest by board)` holds."""
    latest = {}
    with opened(url) as stream:
        for line in stream:
            if line.startswith(b"data: "):
                snap = json.loads(line[6:])
                latest[snap["board"]] = snap
                if enough(latest):
                    return latest
    raise AssertionError("the stream ended first")


def test_serve_sim_records_several_boards_and_stops_on_ctrl_c(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    child = start("serve", "--sim", "2", "--port", "0", "--seconds", "0.05", db=db)
    try:
        url = page_url(child)
        latest = follow(url + "events", lambda boards: len(boards) == 2 and all(
            len(snap["moves"]) >= 3 for snap in boards.values()))
        page = urllib.request.urlopen(url, timeout=WAIT_S).read().decode()
        assert page.count('class="mini"') == 2
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=WAIT_S)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, err
    assert "stopped: every move is in the archive" in out and "Traceback" not in err
    with Archive(db, readonly=True) as archive:
        games = {snap["game_id"]: snap for snap in latest.values()}
        assert len(games) == 2
        for game_id, snap in games.items():
            stored = archive.game(game_id).usi_moves()
            assert stored[:len(snap["moves"])] == [row["usi"] for row in snap["moves"]]


def test_demo_serves_its_game_while_it_plays(tmp_path):
    """The live page names the players by their levels."""
    db = str(tmp_path / "games.sqlite3")
    child = start("demo", "--serve", "--serve-port", "0", "--max-plies", "40", "--seconds", "0.05",
                  "--black-level", "3", "--white-level", "2", db=db)
    try:
        url = page_url(child)
        latest = follow(url + "events?board=1", lambda boards: len(boards["1"]["moves"]) >= 2)
        out, err = child.communicate(timeout=WAIT_S)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, err
    with Archive(db, readonly=True) as archive:
        stored = archive.game(latest["1"]["game_id"]).usi_moves()
    assert stored[:len(latest["1"]["moves"])] == [row["usi"] for row in latest["1"]["moves"]]
    assert (latest["1"]["black"], latest["1"]["white"]) == (
        "level 3 (built-in engine)", "level 2 (built-in engine)")
    assert "saved in" in out


def test_a_port_in_use_is_one_clear_line(tmp_path):
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        for args in (["serve", "--port", str(port)],
                     ["demo", "--serve", "--serve-port", str(port), "--max-plies", "2"]):
            child = start(*args, db=str(tmp_path / "games.sqlite3"))
            out, err = child.communicate(timeout=WAIT_S)
            assert child.returncode == 1
            assert err == ("yariboard: error: the web server could not listen on 127.0.0.1 port %d: "
                           "Address already in use\n" % port), err
