"""The voice: a game played on the simulated board is spoken by Debian's espeak-ng to WAV
files, in English and in Japanese. Every move is said once, as soon as the board lights it
(before it is played), then the end of the game; every clip is speech of a plausible length
(read from its WAV header) and not silence (sox's RMS amplitude)."""
import shutil
import subprocess
import time
import wave

import pytest

from yariboard.play.boards import SimTable
from yariboard.records.archive import Archive
from yariboard.ui.voice import Announcer, Voice

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


def speak_a_game(tmp_path, language):
    """Play PLIES moves on the simulated board, adjudicated there, with the voice following;
    returns [(text, WAV path, moves stored when it was said)] and the game's moves."""
    for program in ("espeak-ng", "sox"):
        if not shutil.which(program):
            pytest.fail("%s is missing: apt-get install espeak-ng sox" % program)
    voice = Voice(language, wav_dir=str(tmp_path))
    said = []
    say = voice.say

    def noting_say(text, language=None):
        said.append((text, table.recorder.stored_count()))
        say(text, language)

    voice.say = noting_say
    announcer = Announcer(voice)
    with Archive(str(tmp_path / "games.sqlite3")) as archive:
        table = SimTable("1", archive, seed=4, max_plies=PLIES)
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


def test_an_unknown_language_is_refused_in_one_line():
    with pytest.raises(ValueError, match="speaks en or ja, not 'fr'"):
        Voice("fr")
