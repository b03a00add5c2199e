"""The voice: a game played on the simulated board is spoken by Debian's espeak-ng to WAV
files, in English and in Japanese. Every move is said once, as soon as the board lights it
(before it is played), then the end of the game; every clip is speech of a plausible length
(read from its WAV header) and not silence (sox's RMS amplitude)."""
import shutil
import subprocess
import time
import wave

import pytest

from shogicore.move import move_to, parse_usi
from yariboard.records.notation import to_hodges
from shogicore.position import Position
from shogicore.variants import variant_by_name
from yariboard.play.boards import SimTable
from yariboard.records.archive import Archive
from yariboard.ui.japanese import spoken_move
from yariboard.ui.voice import Announcer, Voice
from tests.ui.wa_names import expected_spoken, hodges_piece, random_game

pytestmark = [pytest.mark.micropython, pytest.mark.external]

PLIES = 6
MOVE_WAIT_S = 120
SPOKEN_KANA_NUMBERS = {1: "いち", 2: "に", 3: "さん", 4: "よん", 5: "ご", 6: "ろく", 7: "なな",
                       8: "はち", 9: "きゅう"}


def rms_amplitude(path):
    result = subprocess.run(["sox", path, "-n", "stat"], capture_output=True, text=True, check=True)
    for line in result.stderr.splitlines():
        if line.startswith("RMS     amplitude"):
            return float(line.split(":")[1])
    raise AssertionError("sox printed no RMS amplitude for %s" % path)


def speaking_tools():
    for program in ("espeak-ng", "sox"):
        if not shutil.which(program):
            pytest.fail("%s is missing: apt-get install espeak-ng sox" % program)


def speak_a_game(tmp_path, language, board="yari-9x7"):
    """Play PLIES moves on a simulated `board`, adjudicated there, with the voice following;
    returns [(text, WAV path, moves stored when it was said)] and the game's moves."""
    speaking_tools()
    voice = Voice(language, wav_dir=str(tmp_path))
    said = []
    say = voice.say

    def noting_say(text):
        said.append((text, table.recorder.stored_count()))
        say(text)

    voice.say = noting_say
    announcer = Announcer(voice)
    with Archive(str(tmp_path / "games.sqlite3")) as archive:
        table = SimTable("1", archive, seed=4, max_plies=PLIES, board=board)
        try:
            deadline = time.monotonic() + MOVE_WAIT_S
            while not table.finished():
                assert time.monotonic() < deadline
                table.step(0.02)
                announcer.update(table.session)
            table.step(0.02)
            announcer.update(table.session)
            moves = archive.game(table.recorder.game_id).usi_moves()
        finally:
            table.close()
    voice.close()
    assert voice.failures == 0
    return [(text, path, stored) for (text, stored), (_, path) in zip(said, voice.spoken)], moves


def check_clips(clips):
    for text, path, _ in clips:
        with wave.open(path) as clip:
            seconds = clip.getnframes() / clip.getframerate()
        assert 0.3 < seconds < 8, (text, seconds)
        assert rms_amplitude(path) > 0.01, text


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_game_is_spoken_move_by_move_as_each_is_lit(tmp_path, language):
    clips, moves = speak_a_game(tmp_path, language)
    assert len(moves) == PLIES
    assert len(clips) == PLIES + 1                  # every move once, then the end
    for ply, (usi, (text, _, stored)) in enumerate(zip(moves, clips)):
        assert stored == ply, "move %d was said only after it was played" % (ply + 1)
        file, rank = int(usi[-2 if not usi.endswith("+") else -3]), usi.rstrip("+")[-1]
        if language == "en":
            assert text.endswith("%d %s" % (file, rank)) or "%d %s," % (file, rank) in text, text
        else:
            rank_number = ord(rank) - 96
            assert text.startswith("%s %s" % (SPOKEN_KANA_NUMBERS[file],
                                              SPOKEN_KANA_NUMBERS[rank_number])) \
                or text.startswith("どう"), text
    ending = clips[-1][0]
    assert ending in (("Black wins, adjudication", "White wins, adjudication", "Draw, adjudication")
                      if language == "en" else ("せんての かち", "ごての かち", "ひきわけ"))
    check_clips(clips)


def test_a_wa_game_is_spoken_in_japanese_with_the_pieces_own_names(tmp_path):
    clips, moves = speak_a_game(tmp_path, "ja", board="wa-11x11")
    assert len(moves) == PLIES and len(clips) == PLIES + 1
    position = Position(variant_by_name("wa"))
    previous = None
    for usi, (text, _, _) in zip(moves, clips):
        move = parse_usi(position.variant, usi)
        assert text == expected_spoken(usi, to_hodges(position, move), previous)
        position.push(move)
        previous = usi
    assert clips[-1][0] in ("せんての かち", "ごての かち", "ひきわけ")
    check_clips(clips)


def test_every_wa_piece_is_spoken_by_its_japanese_name(tmp_path):
    """One move of every kind a long random Wa game moves or drops, promotions too, each
    said by espeak-ng as the oracle reads it, each clip speech."""
    speaking_tools()
    voice = Voice("ja", wav_dir=str(tmp_path))
    said, previous = {}, None
    for position, move, usi, hodges in random_game("wa", seed=11):
        kind = hodges_piece(hodges) + ("+" if hodges.endswith("+") else "")
        if kind not in said:
            last = position.last_move()
            text = spoken_move(position, move, None if last is None else move_to(last))
            assert text == expected_spoken(usi, hodges, previous)
            said[kind] = text
            voice.say(text)
        previous = usi
    voice.close()
    assert voice.failures == 0
    assert len(said) >= 20, sorted(said)
    assert [text for text, _ in voice.spoken] == list(said.values())
    check_clips([(text, path, None) for text, path in voice.spoken])


def test_an_unknown_language_is_refused_in_one_line():
    with pytest.raises(ValueError, match="speaks en or ja, not 'fr'"):
        Voice("fr")
