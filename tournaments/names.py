"""Names as people compare them: ``Spring 2024``, ``spring  2024`` and ``ＳＰＲＩＮＧ 2024``
are one name (full-width folded, case-folded, spaces collapsed).  The score-sheet import
matches names this way, and a season's name is unique in its club this way too.

Names as a stranger would fake them: :func:`look_alike` also drops invisible characters
(zero-width spaces and joiners, direction marks) and reads every character as the one
it is confusable with (Unicode's confusables, from confusable-homoglyphs): ``Kanda``
with a Cyrillic ``а``, ``CIub`` with a capital I, ``カ`` and ``力`` are one name.  Club
names and account names are unique this way (``tournaments.invitations``).

Names as handles: :func:`unique_handle` makes a player's handle from their name, and
:func:`romaji` reads a Japanese name in Latin letters (for handles and club addresses)."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Collection, Iterable
from typing import Any

from confusable_homoglyphs import confusables
from django.utils.text import slugify
from django.utils.translation import gettext


def normal(name: str) -> str:
    """A name as compared: full-width folded, case-folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def unspaced(name: str) -> str:
    """A person's name as compared to ask "the same person?": :func:`normal` without its
    spaces (``伊藤亜紀`` and ``伊藤 亜紀``, ``Aki Ito`` and ``AkiIto``)."""
    return "".join(normal(name).split())


def look_alike(name: str) -> str:
    """The name as it looks: NFKC, without invisible characters and spaces, each
    character read as its prototype (the character Unicode says it is confusable with),
    case-folded."""
    text = unicodedata.normalize("NFKC", name)
    visible = "".join(c for c in text if c.isprintable() and not c.isspace())
    return "".join(_prototype(c) for c in "".join(map(_prototype, visible)).casefold())


@functools.cache
def _prototype(char: str) -> str:
    """``char``'s prototype: the one character it is listed as confusable with (``а`` is
    ``a``, ``I`` and ``1`` are ``l``, ``カ`` is ``力``); a character listed with many is
    the prototype of those; of a pair listed only with each other, the lesser."""
    alike = _alike(char)
    if len(alike) != 1:
        return char
    other = alike[0]
    return min(char, other) if _alike(other) == [char] else other


def _alike(char: str) -> list[str]:
    listed = confusables.confusables_data.get(char, [])
    return [g["c"] for g in listed if len(g["c"]) == 1 and g["c"] != char]


KANA = re.compile(r"[\u3041-\u3096\u30a1-\u30fa\u30fc\u309d\u309e\u30fd\u30fe ]+")
"""A reading: hiragana or katakana (and the long vowel mark), spaces between words."""


def reading_key(name: str, reading: str = "") -> tuple[int, str]:
    """Where a person's name sorts in a list: by its reading in kana (``reading``, or the
    name when it is written in kana) in 五十音 order, katakana read as hiragana; then
    the names with no reading (kanji, Latin letters) by their letters.  A Japanese name
    in kanji takes its place among the kana once its reading is typed."""
    said = unicodedata.normalize("NFKC", reading or name).strip()
    if said and KANA.fullmatch(said):
        hiragana = "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in said)
        return 0, "".join(hiragana.split())
    return 1, normal(name)


def reading_order(players: Iterable[Any]) -> list[Any]:
    """Players (anything with ``display_name`` and ``reading``) in reading order."""
    return sorted(players, key=lambda p: reading_key(p.display_name, p.reading))


_NUMBERED_TABLE = re.compile(r"Table (\d+)")


def table_label(name: str) -> str:
    """A table's name in the reader's language: the draw and the import name tables
    ``Table 3``, which a Japanese reader reads as 「卓 3」; a name typed by hand is shown
    as typed."""
    found = _NUMBERED_TABLE.fullmatch(name)
    return gettext("Table %(n)s") % {"n": found.group(1)} if found else name


def unique_handle(name: str, taken: Collection[str]) -> str:
    """A player's handle made from their name: ``Lena Ito`` → ``lena-ito``, a Japanese
    name in romaji (``伊藤 亜紀`` → ``itou-aki``, pykakasi's Hepburn), then ``lena-ito-2`` …
    when ``taken`` (the club's handles) has it (a name that gives no letters: ``player``)."""
    base = slugify(romaji(name))[:36].strip("-") or "player"
    handle, n = base, 1
    while handle in taken:
        n += 1
        handle = f"{base}-{n}"
    return handle


def romaji(name: str) -> str:
    """``name`` in Latin letters: as it is when it has no other script, else read by
    pykakasi (kanji, hiragana and katakana in Hepburn romaji; Latin words kept)."""
    if name.isascii():
        return name
    return " ".join(part["hepburn"] for part in _kakasi().convert(name))


@functools.cache
def _kakasi() -> Any:
    import pykakasi  # its dictionary loads once per process, when a name first needs it

    return pykakasi.kakasi()
