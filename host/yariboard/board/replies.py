"""Check the board's replies and events against docs/protocol.md and the rules.

The host trusts nothing the serial line brings: a damaged or buggy board must never put an
impossible move, a junk position or an unknown result into the archive. Each function
here takes the words of one reply (after `ok RSEQ VERB`) or event and returns them parsed,
or raises BadReply naming what is wrong.
"""
import collections

from shogicore import Position, SfenError
from shogicore.game import CASUAL, TOURNAMENT
from shogicore.variants import variant_by_name

from boardfw import protocol

# The endings of the rules core (docs/protocol.md, RESULT).
RESULT_REASONS = ("mate", "repetition", "perpetual-check", "resignation", "impasse",
                  "illegal-move", "time")   # time: a flag fall the host reported
MAX_PLY = 99999       # the protocol's PLY and N are at most five digits

State = collections.namedtuple("State", "game_id variant mode ply result sfen")


class BadReply(ValueError):
    """A reply or event that breaks the protocol or the rules: a link fault, logged and
    resynchronised, never stored."""


def _need(words, count, what):
    if len(words) < count:
        raise BadReply("%s reply too short: %r" % (what, " ".join(words)))


def game_id(word):
    if len(word) != 8 or any(c not in "0123456789abcdef" for c in word):
        raise BadReply("game id is not eight hex digits: %r" % word)
    return word


def ply(word):
    if not word.isdigit() or len(word) > len(str(MAX_PLY)) or not word.isascii():
        raise BadReply("ply is not a number: %r" % word)
    return int(word)


def variant(word):
    try:
        return variant_by_name(word)
    except (KeyError, ValueError):
        raise BadReply("unknown variant %r" % word)


def mode(word):
    if word not in (CASUAL, TOURNAMENT):
        raise BadReply("unknown mode %r" % word)
    return word


def result(word):
    """A RESULT word, checked; returned unchanged ('-' while playing)."""
    try:
        parsed = protocol.parse_result(word)
    except protocol.ProtocolError:
        raise BadReply("bad result %r" % word)
    if parsed is not None and parsed[1] not in RESULT_REASONS:
        raise BadReply("unknown result reason %r" % word)
    return word


def sfen(rules, words):
    """Four SFEN words of a position of `rules`, as the rules core writes it."""
    if len(words) != 4:
        raise BadReply("a position needs four words, got %d" % len(words))
    try:
        return Position(rules, " ".join(words)).sfen()
    except (SfenError, ValueError) as error:
        raise BadReply("junk position %r: %s" % (" ".join(words), error))


def state(words):
    _need(words, 9, "state")
    rules = variant(words[1])
    return State(game_id(words[0]), rules.name, mode(words[2]), ply(words[3]),
                 result(words[4]), sfen(rules, words[5:9]))


def start(words, current):
    """`start` reply for the game of State `current`: its start SFEN; None if the board began
    another game in between (then resynchronise)."""
    _need(words, 5, "start")
    if game_id(words[0]) != current.game_id:
        return None
    return sfen(variant_by_name(current.variant), words[1:5])


def history(words, first):
    """`history FIRST` reply -> (game id, USI words); the moves are checked by replaying."""
    _need(words, 2, "history")
    if ply(words[1]) != first:
        raise BadReply("history reply from ply %s, asked for %d" % (words[1], first))
    moves = words[2:]
    if len(moves) > protocol.HISTORY_BATCH:
        raise BadReply("history reply with %d moves (at most %d)"
                       % (len(moves), protocol.HISTORY_BATCH))
    return game_id(words[0]), moves


def version(words):
    """`version` reply, checked: the link keeps it (and numbers its requests after LAST)."""
    _need(words, 4, "version")
    if words[0] != str(protocol.PROTOCOL_VERSION):
        raise BadReply("board speaks protocol %r, this host %d"
                       % (words[0], protocol.PROTOCOL_VERSION))
    variant(words[2])
    return words
