"""Dates as shogi record files write them, in the local time of the file's zone.

KIF and CSA files carry no time zone: Japanese software writes Japan's time (UTC+9), which
is what a file implies unless yariboard wrote it (then it says which zone it used). A record
keeps the zone so its times are written back as the file had them. A date that cannot be
read is not an error: the caller keeps the header's text.
"""
import datetime
import re
import unicodedata

from yariboard.records.game import FIRST_YEAR, LAST_YEAR, parse_stamp, stamp

JAPAN = "+09:00"
# 2024/01/02(火) 10:00:05, 2005/11/29･30日, 2022年01月09日(日) 14:48:02, 2014/09/13 14：59
DATE_RE = re.compile(r"^(\d{4})\s*[/年-]\s*(\d{1,2})\s*[/月-]\s*(\d{1,2})(.*)$")
TIME_RE = re.compile(r"(?:^|[\sT)）日])(\d{1,2}):(\d{2})(?::(\d{2}))?")
ZONE_RE = re.compile(r"^([+-])(\d\d):(\d\d)$")


def offset(zone):
    """'+09:00' -> a tzinfo; '' -> UTC."""
    match = ZONE_RE.match(zone or "+00:00")
    if not match:
        return datetime.timezone.utc
    sign, hours, minutes = match.groups()
    delta = datetime.timedelta(hours=int(hours), minutes=int(minutes))
    return datetime.timezone(-delta if sign == "-" else delta)


def read_date(text, zone):
    """The stamp (UTC) of a local date and time in `zone`, or None if it cannot be read."""
    text = unicodedata.normalize("NFKC", text)[:100].strip()
    match = DATE_RE.match(text)
    if not match:
        return None
    year, month, day = (int(part) for part in match.group(1, 2, 3))
    clock = TIME_RE.search(match.group(4))
    hour, minute, second = (int(part or 0) for part in clock.groups()) if clock else (0, 0, 0)
    if not FIRST_YEAR <= year <= LAST_YEAR:
        return None
    try:
        moment = datetime.datetime(year, month, day, hour, minute, second, tzinfo=offset(zone))
        return stamp(parse_stamp(stamp(moment)))
    except (ValueError, OverflowError):
        return None


def write_date(at, zone, pattern="%Y/%m/%d %H:%M:%S"):
    """A stored stamp as local time in `zone`."""
    return parse_stamp(at).astimezone(offset(zone)).strftime(pattern)


def needs_text(text, at, zone):
    """True when writing `at` back would not give the header's `text` (keep the text then)."""
    return at is None or write_date(at, zone) != text.strip()
