"""The game controls a player types at the host, the same for a real and a simulated board.

take back, resign (for the person's side), draw, new game, set up a position from SFEN,
replay an archived game on the board, hint. Each is a board request (docs/protocol.md); a
refusal or a bad argument becomes a ValueError whose one-line message names the problem and
the valid choices, and nothing changes. After a request that leaves the pieces to be put
right (take-back, new game, set-up), `arrange(variant, sfen)` is called: on the simulated
board the hands set the pieces out; on a real board the LEDs show the player what to fix.
"""
from shogicore.errors import SfenError
from shogicore.position import Position
from shogicore.variants import VARIANT_NAMES, variant_by_name

from yariboard.board.link import BoardRefused, LinkError
from yariboard.records.game import MODES
from yariboard.play.session import SIDE_WORDS

HELP = """  hint                    ask the engine for a hint, lit on the board
  takeback                take back the last move (the board lights what to fix)
  resign                  resign for your side (with no engine: the side to move)
  draw                    offer a draw (the rules have none by agreement)
  new [VARIANT [HANDICAP [MODE]]]  a new game (default: this game's settings)
  sfen SFEN               set up a position: sfen 3k3/7/7/7/7/7/7/7/3K3 b R 1
  replay GAME             light archived game GAME's moves one by one"""

NO_DRAW_OFFERS = ("no draw by agreement in Yari Shogi or shogi: a game is drawn only by "
                  "repetition or impasse (docs/rules.md); resign or play on")


def check_new_game(variant, handicap, mode):
    """ValueError naming the bad value and every valid one, for a new game's settings."""
    if variant not in VARIANT_NAMES:
        raise ValueError("unknown variant %r; valid variants: %s" % (variant, ", ".join(VARIANT_NAMES)))
    if mode not in MODES:
        raise ValueError("unknown mode %r; valid modes: %s" % (mode, ", ".join(MODES)))
    handicaps = sorted(variant_by_name(variant).handicaps)
    if handicap != "-" and handicap not in handicaps:
        raise ValueError("unknown %s handicap %r; valid handicaps: %s" % (
            variant, handicap, ", ".join(handicaps) if handicaps else "none for " + variant))


class HostControls:
    def __init__(self, session, archive, arrange=None):
        self.session = session
        self.recorder = session.recorder
        self.archive = archive
        self.arrange = arrange or (lambda variant, sfen: None)
        self.replaying = []       # USI moves of an archived game still to be lit

    def execute(self, verb, args):
        """Carry out a control; False if `verb` with these arguments is not one."""
        if verb == "hint" and not args:
            self._game()
            self.session.hint()
        elif verb == "takeback" and not args:
            self.take_back()
        elif verb == "resign" and not args:
            self.resign()
        elif verb == "draw" and not args:
            raise ValueError(NO_DRAW_OFFERS)
        elif verb == "new" and len(args) <= 3:
            self.new_game(*args)
        elif verb == "sfen" and args:
            self.set_up(" ".join(args))
        elif verb == "replay" and len(args) == 1:
            self.replay(args[0])
        else:
            return False
        return True

    def followed(self, events):
        """After the board's events: light the next move of a replay once one was made."""
        if self.replaying and any(verb == "move" for verb, _ in events):
            self._light_replay()

    # -- the controls ---------------------------------------------------------------------

    def take_back(self):
        self._request_with(self.session.take_back)
        self.session.step(0.1)
        position = self.recorder.position
        self.arrange(position.variant.name, position.sfen())

    def resign(self):
        side = self.session.human_side()
        if side is None:
            raise ValueError("no side to resign for: the engines play both")
        self._request("resign", SIDE_WORDS[side])

    def new_game(self, variant=None, handicap="-", mode=None):
        record = self.recorder.record()
        variant = variant or record.variant
        mode = mode or record.mode or "casual"
        check_new_game(variant, handicap, mode)
        self._stop_replay()
        self._request("new", variant, handicap, mode)
        self.arrange(variant, variant_by_name(variant).handicaps.get(handicap))

    def set_up(self, sfen):
        position = self._game()
        try:
            # written out again in full: the board takes all four fields, move number too
            sfen = Position(position.variant, sfen).sfen()
        except (SfenError, ValueError) as error:
            raise ValueError("bad SFEN %r: %s" % (sfen, error))
        self._stop_replay()
        self._request("setpos", position.variant.name, self.recorder.record().mode or "casual",
                      *sfen.split())
        self.arrange(position.variant.name, sfen)

    def replay(self, game_id):
        """Set up the start of archived game `game_id`; its moves are then lit one by one,
        each once the previous one was made on the board."""
        self._game()
        if not game_id.isdigit():
            raise ValueError("replay takes a game number (see `yariboard games list`)")
        try:
            record = self.archive.game(int(game_id))
        except KeyError:
            raise ValueError("no game %s in the archive (see `yariboard games list`)" % game_id)
        if not record.usi_moves():
            raise ValueError("game %s has no moves to replay" % game_id)
        self.recorder.names = (record.black, record.white)
        self._request("setpos", record.variant, "casual", *record.start_sfen.split())
        self.arrange(record.variant, record.start_sfen)
        self.replaying = list(record.usi_moves())
        self.session.ordering = False       # the archived game's moves, not the engine's
        self.session.step(0.1)
        self._light_replay()

    # -- helpers --------------------------------------------------------------------------

    def _stop_replay(self):
        self.replaying = []
        self.session.ordering = True

    def _light_replay(self):
        if self.replaying:
            self._request_with(self.session.order, self.replaying.pop(0),
                               "the replayed game's move")

    def _game(self):
        position = self.recorder.position
        if position is None or not self.recorder.link.connected():
            raise ValueError("no game on the board yet (is it plugged in?)")
        return position

    def _request(self, *words):
        return self._request_with(self.session.request, *words)

    def _request_with(self, action, *args):
        self._game()
        try:
            return action(*args)
        except BoardRefused as error:
            raise ValueError(str(error))
        except LinkError as error:
            raise ValueError("the board did not answer (is it plugged in?): %s" % error)
