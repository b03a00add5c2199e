"""The framing of the board <-> host line protocol (boardfw.protocol), on CPython and on the
MicroPython unix port: both sides must frame and reject alike.

The CRC is checked against zlib.crc32, an implementation independent of the module.
"""
import json
import os
import random
import zlib

import pytest

from boardfw import protocol
from tests.mpy import ROOT, run_micropython

pytestmark = [pytest.mark.micropython]

SFEN = "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1"


def test_frame_layout_and_crc_match_zlib():
    frame = protocol.encode(42, ["move", "1", "7g7f"] + SFEN.split())
    body = b"42 move 1 7g7f " + SFEN.encode()
    assert frame == body + b" #%08x\n" % zlib.crc32(body)


def test_round_trip_keeps_sequence_verb_and_words():
    words = ["state", "ab12cd34", "yari", "casual", "0", "-"] + SFEN.split()
    assert protocol.decode(protocol.encode(65535, words)) == (65535, "state", words[1:])


def test_crlf_line_end_is_accepted():
    frame = protocol.encode(3, ["version"])
    assert protocol.decode(frame[:-1] + b"\r\n") == (3, "version", [])


def corrupt_every_byte(frame):
    for i in range(len(frame) - 1):
        for flip in (0x01, 0x20):
            bad = bytearray(frame)
            bad[i] ^= flip
            yield bytes(bad)


def test_any_single_corrupted_byte_is_rejected():
    frame = protocol.encode(7, ["history", "17"])
    for bad in corrupt_every_byte(frame):
        with pytest.raises(protocol.ProtocolError) as error:
            protocol.decode(bad)
        assert error.value.code in ("crc", "frame")


@pytest.mark.parametrize("line, code", [
    (b"", "frame"),
    (b"hello", "frame"),
    (b"1 state #1234567", "frame"),            # seven hex digits
    (b"1 state #1234567G", "frame"),           # not hex
    (b"1 state #ABCDEF01", "frame"),           # upper case is not the form
    (b"1 state #00000000", "crc"),
    (b"1 st\xffate #00000000", "frame"),       # non-printable byte
    (b"1 st\x03ate #00000000", "frame"),
    (b"x" * 300, "long"),
])
def test_malformed_lines_get_their_error_code(line, code):
    with pytest.raises(protocol.ProtocolError) as error:
        protocol.decode(line)
    assert error.value.code == code


@pytest.mark.parametrize("body", [b"state", b"65536 state", b"-1 state", b"1x state", b"7"])
def test_bad_sequence_numbers_are_frame_errors(body):
    line = body + b" #%08x" % zlib.crc32(body)
    with pytest.raises(protocol.ProtocolError) as error:
        protocol.decode(line)
    assert error.value.code == "frame"


def test_frames_longer_than_the_limit_are_refused_at_both_ends():
    with pytest.raises(protocol.ProtocolError) as error:
        protocol.encode(1, ["x" * protocol.MAX_LINE])
    assert error.value.code == "long"
    longest = protocol.encode(1, ["x" * (protocol.MAX_LINE - 13)])
    assert len(longest) == protocol.MAX_LINE
    assert protocol.decode(longest)[1] == "x" * (protocol.MAX_LINE - 13)


def test_sequence_numbers_count_up_and_wrap():
    assert protocol.next_seq(10) == 11
    assert protocol.next_seq(65534) == 65535
    assert protocol.next_seq(65535) == 0


def test_requests_are_checked_for_verb_and_word_count():
    protocol.check_request("setpos", ["yari", "casual"] + SFEN.split())
    with pytest.raises(protocol.ProtocolError) as error:
        protocol.check_request("setpos", ["yari", "casual"])
    assert error.value.code == "args"
    with pytest.raises(protocol.ProtocolError) as error:
        protocol.check_request("format-flash", [])
    assert error.value.code == "verb"


@pytest.mark.parametrize("result, word", [
    (None, "-"), ((0, "mate"), "black:mate"), ((1, "resignation"), "white:resignation"),
    ((None, "repetition"), "draw:repetition"),
])
def test_result_words(result, word):
    assert protocol.result_word(result) == word
    assert protocol.parse_result(word) == result


@pytest.mark.parametrize("word", ["black", "grey:mate", "white:", ""])
def test_bad_result_words_are_refused(word):
    with pytest.raises(protocol.ProtocolError):
        protocol.parse_result(word)


def test_micropython_frames_and_rejects_exactly_like_cpython():
    rng = random.Random(5)
    lines = [protocol.encode(i, ["move", str(i), "P*5e"] + SFEN.split()) for i in range(5)]
    lines += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))) for _ in range(40)]
    lines += list(corrupt_every_byte(protocol.encode(9, ["state"])))[:30]
    lines += [b"x" * 300, b"1 state #00000000"]

    def outcome(line):
        try:
            seq, verb, args = protocol.decode(line)
            return ["ok", seq, verb, args]
        except protocol.ProtocolError as e:
            return ["err", e.code]

    expected = [outcome(line) for line in lines]
    code = (
        "import json\nfrom boardfw import protocol\nlines = %r\nout = []\n"
        "for line in lines:\n"
        "    try:\n"
        "        seq, verb, args = protocol.decode(line)\n"
        "        out.append(['ok', seq, verb, args])\n"
        "    except protocol.ProtocolError as e:\n"
        "        out.append(['err', e.code])\n"
        "print(json.dumps(out))\n"
        "print(protocol.encode(42, ['move', '1', '7g7f']).decode().strip())\n" % (lines,)
    )
    _, stdout, _ = run_micropython(code)
    first, second = stdout.strip().split("\n")
    assert json.loads(first) == expected
    assert second.encode() + b"\n" == protocol.encode(42, ["move", "1", "7g7f"])


def test_the_example_frames_in_the_protocol_document_are_valid():
    with open(os.path.join(ROOT, "docs", "protocol.md")) as f:
        text = f.read()
    block = text.split("Example (host asks for the state, board answers):")[1].split("```")[1]
    request, reply = [line.encode() for line in block.strip().splitlines()]
    assert protocol.decode(request) == (7, "state", [])
    seq, verb, args = protocol.decode(reply)
    assert (seq, verb, args[:2]) == (12, "ok", ["7", "state"])


def sfen_by_ranks(sfen):
    """SFEN in the parts Position.sfen_parts gives: a rank each, the rest on the last."""
    board, rest = sfen.split(" ", 1)
    ranks = board.split("/")
    return [ranks[0]] + ["/" + r for r in ranks[1:-1]] + ["/%s %s" % (ranks[-1], rest)]


def test_the_board_streams_the_same_frames_in_pieces_on_micropython():
    # The board writes a frame piece by piece with a running CRC (no block as long as the
    # line); the bytes must be those of a frame built whole, and too long a frame is refused
    # before a byte goes out.
    frames = [(0, ["move", "1", "7g7f"] + SFEN.split()), (65535, ["version"]),
              (3, ["state", "-", sfen_by_ranks(SFEN)]),
              (7, ["x" * (protocol.MAX_LINE - 13)]), (8, ["x" * (protocol.MAX_LINE - 12)])]
    code = (
        "from boardfw import protocol\n"
        "for seq, words in %r:\n"
        "    out = []\n"
        "    try:\n"
        "        protocol.write_frame(out.append, seq, words)\n"
        "        print(b''.join(bytes(p, 'ascii') if isinstance(p, str) else p\n"
        "                       for p in out).decode().strip())\n"
        "    except protocol.ProtocolError as e:\n"
        "        print('refused', e.code, len(out))\n" % (frames,)
    )
    _, stdout, _ = run_micropython(code)
    lines = stdout.strip().split("\n")
    whole = [" ".join(words) for _, words in frames[:2]] + ["state - " + SFEN]
    whole += ["x" * (protocol.MAX_LINE - 13)]
    for (seq, words), text, line in zip(frames, whole, lines):
        body = ("%d %s" % (seq, text)).encode()
        assert line.encode() + b"\n" == body + b" #%08x\n" % zlib.crc32(body)
        assert protocol.encode(seq, words) == line.encode() + b"\n"
    assert lines[4:] == ["refused long 0"]
