"""The board unloads the SFEN reader once a game is set up, so its RAM goes back to the game
in play: at boot, after a position from the host (good or refused) and after a new game.
Likewise the start-up (boardfw/startup.py) once the board runs, the module that answers the
host's rarer requests (boardfw/requests.py), and those that read two moves made in one go
(boardfw/overlap.py) and count an impasse (shogicore/impasse.py)."""
import pytest
from tests.mpy import run_micropython
from yariboard import resources

pytestmark = [pytest.mark.micropython]
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
    def send(self, seq, words):
        words = protocol.encode(seq, words).decode().split()
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
report = [sfen_reader_loaded() or 'boardfw.startup' in sys.modules]
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


RARE_PATHS = """
import sys
from shogicore.game import Game
from shogicore.move import to_usi
from boardfw.interpreter import Interpreter, IMPASSE_ARM_MS

def board(sfen):
    game = Game('yari', sfen)
    it = Interpreter(game, 0)
    it.sync([s for s in game.variant.squares if game.position.piece_at(s)], 0)
    return game, it, game.variant.parse_square

# the General's move and a Rook dropped on the square it left 200 ms later: two moves
game, it, sq = board('1nnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBK1NR b Nr 1')
it.on_sensor(sq('4i'), False, 1000)
it.on_sensor(sq('4h'), True, 1100)
it.on_sensor(sq('4i'), True, 1300)
it.tick(1700)
print([to_usi(game.variant, m) for m in game.position.moves()], 'boardfw.overlap' in sys.modules)
# an impasse declared with two presses of B
game, it, sq = board(%r)
it.on_button('B', False, 1000)
it.on_button('B', False, 1000 + IMPASSE_ARM_MS // 2)
print(game.result, 'shogicore.impasse' in sys.modules)
"""


def test_two_moves_in_one_go_and_an_impasse_are_read_by_modules_unloaded_after():
    from tests.firmware.test_interpreter import IMPASSE_SFEN
    _, stdout, _ = run_micropython(RARE_PATHS % IMPASSE_SFEN)
    overlap_line, impasse_line = stdout.strip().splitlines()[-2:]
    moves, overlap_loaded = _split(overlap_line)
    result, impasse_loaded = _split(impasse_line)
    assert moves == ["4i4h", "R*4i"] and result[1] == "impasse"
    assert not overlap_loaded and not impasse_loaded


def _split(line):
    """'[...] False' -> ([...], False): a value and a flag as MicroPython prints them."""
    value, flag = line.rsplit(" ", 1)
    return eval(value), flag == "True"
