"""Fairy-Stockfish against the built-in engine on the simulated board, real firmware inside.

Every move is ordered by the host (`show`: the board lights it), checked on the LEDs, then
carried out by scripted hands on the reed switches; the firmware commits it and the host
archives it. The archived game is then replayed move by move through pyffish, an
independent implementation of Yari Shogi, which must find every move legal and agree on
how the game ended.
"""
import pyffish
import pytest

from boardfw import ledlang
from shogicore.move import is_drop, move_from, move_to
from yariboard.engines.fsf_notation import sfen_to_fsf, usi_to_uci
from shogicore.position import Position
from shogicore.variants import BLACK, WHITE, variant_by_name
from yariboard.engines import fsf
from yariboard.records.archive import Archive
from yariboard.engines.builtin.search import Engine
from yariboard.board.link import Link
from yariboard.play.recorder import Recorder
from yariboard.play.session import PlaySession
from yariboard.sim.rig import SimRig

from tests.fsf_support import require_fsf

pytestmark = [pytest.mark.micropython, pytest.mark.engine]

YARI = variant_by_name("yari")
MAX_PLIES = 160
# Fairy-Stockfish's budget per move: low keeps the game fast, and it still outplays the
# built-in engine at level 2 by far, so the games end in mate well before MAX_PLIES.
FSF_NODES = 300
# The order's squares share a colour; the destination blinks in a pattern of 8 steps.
ORDER_STYLES = ("order-from", "order-to")
BLINK_STEPS = 8


def ordered_squares(rig):
    """Squares lit in the order colours during one blink period ('order: to' blinks)."""
    seen = set()
    for _ in range(BLINK_STEPS):
        rig.wait(ledlang.STEP_MS)
        seen.update(sq for sq, style in rig.led_styles().items() if style in ORDER_STYLES)
    return seen


def take_off_handicap_pieces(rig, handicap):
    """The person at the board lifts the pieces the handicapped side gives up."""
    full, given = Position(YARI), Position(YARI, YARI.handicaps[handicap])
    for sq in YARI.squares:
        if full.piece_at(sq) and not given.piece_at(sq):
            rig.act("lift " + YARI.square_name(sq), after_ms=100)
    rig.wait(1000)


def play_on_board(tmp_path, engines, handicap="-"):
    """Play one game between `engines` through the simulated board; returns its record."""
    rig = SimRig(str(tmp_path / "flash"), log_dir=str(tmp_path)).start()
    archive = Archive(str(tmp_path / "games.sqlite3"))
    link = Link(finder=rig.ports, reply_timeout=0.5)
    try:
        recorder = Recorder(link, archive, black="black", white="white")
        orders = []
        session = PlaySession(recorder, engines,
                              on_order=lambda position, move: orders.append((position.copy(), move)))
        for _ in range(50):
            session.step(0.02)
            if link.connected() and not link.needs_resync:
                break
        link.request("new", "yari", handicap, "casual")
        if handicap != "-":
            take_off_handicap_pieces(rig, handicap)
        lit_checked = 0
        while not session.finished():
            session.step(0.02)
            if orders:
                # Only the latest order stands (one lit before `new` was replaced by it).
                position, move = orders[-1]
                orders.clear()
                expected = {YARI.square_name(move_to(move))}
                if not is_drop(move):
                    expected.add(YARI.square_name(move_from(move)))
                assert ordered_squares(rig) == expected
                lit_checked += 1
                rig.perform(position, move)
            assert recorder.position is None or len(recorder.position.moves()) <= MAX_PLIES
        for _ in range(5):
            session.step(0.02)
        record = recorder.record()
        assert lit_checked == len(record.usi_moves())
        return record
    finally:
        link.close()
        archive.close()
        rig.close()


def check_with_pyffish(record):
    """Every archived move legal for pyffish in turn, and pyffish's verdict on the end."""
    fen = sfen_to_fsf(record.start_sfen)
    played = []
    for usi in record.usi_moves():
        uci = usi_to_uci(YARI, usi)
        assert uci in pyffish.legal_moves("yarishogi", fen, played), (usi, played)
        played.append(uci)
    if record.reason == "mate":
        assert pyffish.legal_moves("yarishogi", fen, played) == []
    else:
        ended, _ = pyffish.is_optional_game_end("yarishogi", fen, played)
        immediate, _ = pyffish.is_immediate_game_end("yarishogi", fen, played)
        assert ended or immediate, record.reason
    return played


@pytest.fixture(scope="module")
def fsf_engine():
    require_fsf()
    engine = fsf.open_engine("yari", nodes=FSF_NODES)
    yield engine
    engine.close()


@pytest.fixture
def fairy(fsf_engine):
    fsf_engine.new_game()
    return fsf_engine


def winner_side(record):
    return {"black": BLACK, "white": WHITE}.get(record.winner)


def test_fsf_beats_the_built_in_engine_on_the_board(tmp_path, fairy):
    record = play_on_board(tmp_path, {BLACK: fairy, WHITE: Engine(level=2, seed=3)})
    played = check_with_pyffish(record)
    assert record.reason == "mate"
    assert winner_side(record) == BLACK
    # Mate means the side to move in the final position has no move: that is White after
    # an odd number of plies.
    assert len(played) % 2 == 1


def test_handicap_game_built_in_engine_gives_fsf_a_rook(tmp_path, fairy):
    # The handicapped side is White and moves first; Fairy-Stockfish plays it a Rook down.
    record = play_on_board(tmp_path, {BLACK: Engine(level=2, seed=5), WHITE: fairy},
                           handicap="rook")
    assert record.start_sfen == YARI.handicaps["rook"]
    played = check_with_pyffish(record)
    assert (record.winner, record.reason) == ("white", "mate")
    # White moved first, so Black is to move (and mated) after an odd number of plies.
    assert len(played) % 2 == 1


@pytest.mark.slow
@pytest.mark.parametrize("seed,handicap", [(11, "-"), (12, "bishop"), (13, "two-pieces"),
                                           (14, "four-pieces")])
def test_more_games_on_the_board(tmp_path, fairy, seed, handicap):
    # Fairy-Stockfish takes the side that moves first: Black in an even game, the
    # handicapped White otherwise.
    fsf_side = BLACK if handicap == "-" else WHITE
    engines = {fsf_side: fairy, 1 - fsf_side: Engine(level=3, seed=seed)}
    record = play_on_board(tmp_path, engines, handicap=handicap)
    check_with_pyffish(record)
    assert record.winner in ("black", "white", "draw") and record.reason
    if handicap == "-":
        assert winner_side(record) == fsf_side
    # (Four pieces down at this small node budget, Fairy-Stockfish may lose.)
