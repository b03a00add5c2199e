"""The board unloads the SFEN reader once a game is set up, so its RAM goes back to the game
in play: at boot, after a position from the host (good or refused) and after a new game.
Likewise the module that answers the host's rarer requests (boardfw/requests.py)."""
from tests.mpy import run_micropython
from yariboard import resources

SCRIPT = """
import sys
from boardfw import config, protocol
from boardfw.controller import Controller
from boardfw.sim_hw import SimHardware

class ScriptedLink:
    def __init__(self):
        self.lines = []
        self.replies = []
    def read_line(self):
        return self.lines.pop(0) if self.lines else None
    def write(self, frame):
        words = frame.decode().split()
        if words[1] in ('ok', 'err'):
            self.replies.append(words[1:3])

def sfen_reader_loaded():
    return 'shogicore.sfen' in sys.modules

def requests_loaded():
    return 'boardfw.requests' in sys.modules

cfg = config.load(%r)
link = ScriptedLink()
c = Controller(SimHardware(cfg, '%s'), cfg, link)
c.boot()
report = [sfen_reader_loaded()]
for n, words in enumerate((
        ['setpos', 'yari', 'casual', '3k3/7/7/7/7/7/7/7/3K3', 'b', '-', '1'],
        ['setpos', 'yari', 'casual', '3k3/7/7/7/7/7/7/7/3KK2', 'b', '-', '1'],
        ['new', 'yari', 'rook', 'casual'])):
    link.lines.append(protocol.encode(n, words))
    c.step()
    report.append([link.replies[-1], sfen_reader_loaded()])
unloaded = [requests_loaded()]
for n, words in enumerate((['history', '1'], ['history', '0'], ['state'], ['sensors']), 3):
    link.lines.append(protocol.encode(n, words))
    c.step()
    unloaded.append([link.replies[-1], requests_loaded()])
from shogicore.position import Position
Position('yari')
print(unloaded)
print(report + [sfen_reader_loaded()])
"""


def test_the_sfen_reader_is_unloaded_after_every_game_set_up(tmp_path):
    _, stdout, _ = run_micropython(SCRIPT % (resources.board_file("yari-9x7"), tmp_path))
    report = eval(stdout.strip().splitlines()[-1])
    at_boot, (good, after_good), (bad, after_bad), (new, after_new), reloaded = report
    assert good == ["ok", "0"] and bad[0] == "err" and new == ["ok", "2"]
    assert not at_boot and not after_good and not after_bad and not after_new
    assert reloaded      # ... and comes back whenever a position is set up again


def test_the_rarer_requests_are_answered_and_their_module_unloaded(tmp_path):
    _, stdout, _ = run_micropython(SCRIPT % (resources.board_file("yari-9x7"), tmp_path))
    report = eval(stdout.strip().splitlines()[-2])
    before, history, bad_history, state, sensors = report
    assert [history[0], bad_history[0], state[0], sensors[0]] == [
        ["ok", "3"], ["err", "4"], ["ok", "5"], ["ok", "6"]]
    assert not before and not history[1] and not bad_history[1] and not state[1]
    assert not sensors[1]
