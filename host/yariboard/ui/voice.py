"""The game spoken aloud with Debian's espeak-ng: each move, the engine's move as soon as the
board lights it, and the end of the game, in English (Hodges' words) or Japanese (a kifu
read out: 'なな ろく ふ', Wa Shogi's pieces by their own names: ui.japanese). A person
playing the engine on the board then needs no screen.

Speech runs in a thread of its own from a queue, so the recording never waits for it. With
`wav_dir` each utterance is written to a numbered WAV file instead of being played (how the
tests hear it, and a record of what was said).
"""
import os
import queue
import shutil
import subprocess
import sys
import threading

from shogicore.move import drop_kind, is_drop, move_from, move_to
from shogicore.errors import MoveError
from yariboard.records.notation import parse_hodges, to_hodges
from yariboard.ui.japanese import spoken_move
from yariboard.ui.piecenames import piece_name

ESPEAK = "espeak-ng"
LANGUAGES = ("en", "ja")
SPEAK_TIMEOUT_S = 30
QUEUE_LIMIT = 32            # utterances waiting; more are dropped (the game is not held up)

ENGLISH_PIECES = {
    "yari": {"K": "general", "R": "yari rook", "B": "yari bishop", "N": "yari knight",
             "P": "pawn", "+R": "rook", "+B": "yari gold from bishop",
             "+N": "yari gold from knight", "+P": "yari silver"},
    "shogi": {"K": "king", "R": "rook", "B": "bishop", "G": "gold", "S": "silver",
              "N": "knight", "L": "lance", "P": "pawn", "+R": "dragon", "+B": "horse",
              "+S": "promoted silver", "+N": "promoted knight", "+L": "promoted lance",
              "+P": "tokin"},
}
ENGLISH_ENDINGS = {"mate": "checkmate", "resignation": "resigns", "repetition": "repetition",
                   "perpetual-check": "perpetual check", "impasse": "impasse",
                   "illegal": "illegal move", "time": "time", "adjudication": "adjudication"}
JAPANESE_ENDINGS = {"black": "せんての かち", "white": "ごての かち", "draw": "ひきわけ"}


def english_piece(variant, symbol):
    return ENGLISH_PIECES.get(variant.name, {}).get(symbol) or piece_name(variant, symbol) or symbol


def square_words(variant, sq):
    return "%d %s" % (variant.file_of(sq), chr(96 + variant.rank_of(sq)))


def english_move(position, move):
    """'yari knight takes 3 c, promotes' for a move of `position` (not yet played)."""
    variant = position.variant
    to = move_to(move)
    if is_drop(move):
        return "%s drop, %s" % (english_piece(variant, variant.symbol(drop_kind(move))),
                                square_words(variant, to))
    frm = move_from(move)
    text = english_piece(variant, variant.symbol(position.piece_at(frm) & 31))
    hodges = to_hodges(position, move)
    if any(c.isdigit() for c in hodges.split("-")[0].split("x")[0]):
        text += " from " + square_words(variant, frm)           # the origin tells two apart
    text += (" takes " if position.piece_at(to) else " to ") + square_words(variant, to)
    if hodges.endswith("+"):
        text += ", promotes"
    elif hodges.endswith("="):
        text += ", does not promote"
    return text


def ending_words(winner, reason, language):
    if language == "ja":
        return JAPANESE_ENDINGS.get(winner, "")
    side = {"black": "Black wins", "white": "White wins", "draw": "Draw"}.get(winner, "")
    return "%s, %s" % (side, ENGLISH_ENDINGS.get(reason, reason)) if reason else side


class Voice:
    """Says texts one after the other in a thread; `say` never waits."""

    def __init__(self, language="en", wav_dir=None, program=ESPEAK):
        if language not in LANGUAGES:
            raise ValueError("--voice speaks %s, not %r" % (" or ".join(LANGUAGES), language))
        self.program = shutil.which(program)
        if self.program is None:
            raise ValueError("%s is not installed: apt-get install espeak-ng" % program)
        self.language = language
        self.wav_dir = wav_dir
        self.spoken = []               # (text, WAV path or None), in order
        self.failures = 0
        self._queue = queue.Queue(QUEUE_LIMIT)
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    def say(self, text):
        try:
            self._queue.put_nowait(text)
        except queue.Full:
            self.failures += 1

    def _run(self):
        while True:
            text = self._queue.get()
            if text is None:
                return
            command = [self.program, "-v", self.language]
            path = None
            if self.wav_dir:
                path = os.path.join(self.wav_dir, "%03d.wav" % (len(self.spoken) + 1))
                command += ["-w", path]
            try:
                done = subprocess.run(command + ["--", text], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, timeout=SPEAK_TIMEOUT_S)
                errors = [line for line in done.stderr.decode("utf-8", "replace").splitlines()
                          if line.strip()]
                # espeak-ng exits 0 when it cannot open the sound device, saying so on stderr
                if done.returncode or any(line.startswith("error") for line in errors):
                    self._failed(errors[-1] if errors else "exit status %d" % done.returncode)
            except (OSError, subprocess.SubprocessError) as error:
                self._failed(str(error))
            self.spoken.append((text, path))

    def _failed(self, why):
        """Say once that the voice is silent, and why (no sound device, ...)."""
        if not self.failures:
            print("yariboard: the voice is silent: espeak-ng could not speak (%s)" % why,
                  file=sys.stderr, flush=True)
        self.failures += 1

    def close(self):
        """Say what is queued, then stop."""
        self._queue.put(None)
        self._thread.join(timeout=SPEAK_TIMEOUT_S * 2)


class Announcer:
    """Follows a game and says what is new: each move stored, the engine's move as soon as
    the board lights it (then not again when it is played), the end of the game."""

    ORDER_PREFIX = "the engine's move "

    def __init__(self, voice):
        self.voice = voice
        self.game = None              # (archive id, board game, start SFEN) being followed
        self.said = 0                 # moves of it already said
        self.said_order = None        # (SFEN, Hodges) of the lit move said
        self.said_end = None

    def update(self, session):
        """Say what is new in the game of `session` (a play session) since the last call."""
        position, record = session.recorder.position, session.recorder.record()
        if record is None or position is None:
            return
        order = session.lit_order()
        game = (record.id, record.board_game, record.start_sfen)
        moves = position.moves()
        if game != self.game or self.said > len(moves):
            self.game, self.said = game, len(moves)   # joined mid-game: only what comes next
        if order.startswith(self.ORDER_PREFIX):
            lit = (position.sfen(), order[len(self.ORDER_PREFIX):])
            if lit != self.said_order:
                self.said_order = lit
                try:
                    self._say_move(position, parse_hodges(position, lit[1]))
                except MoveError:
                    pass
        if len(moves) > self.said:
            walk = position.copy()
            for _ in range(len(moves) - self.said):
                walk.pop()
            for move in moves[self.said:]:
                if not (self.said_order and self.said_order[0] == walk.sfen()
                        and self.said_order[1] == to_hodges(walk, move)):
                    self._say_move(walk, move)
                walk.push(move)
            self.said = len(moves)
        if record.winner and (game, record.winner) != self.said_end:
            self.said_end = (game, record.winner)
            self.voice.say(ending_words(record.winner, record.reason, self.voice.language))

    def _say_move(self, position, move):
        if self.voice.language == "ja":
            last = position.last_move()
            self.voice.say(spoken_move(position, move, move_to(last) if last is not None else None))
        else:
            self.voice.say(english_move(position, move))
