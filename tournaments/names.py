"""Names as people compare them: ``Spring 2024``, ``spring  2024`` and ``ＳＰＲＩＮＧ 2024``
are one name (full-width folded, case-folded, spaces collapsed).  The score-sheet import
matches names this way, and a season's name is unique in its club this way too.

Names as a stranger would fake them: :func:`look_alike` reads every character as the one
it is confusable with (Unicode's confusables, from confusable-homoglyphs: ``Kanda`` with a
Cyrillic ``а``, ``CIub`` with a capital I, ``rn`` for ``m``, ``カ`` and ``力``) and drops
what does not show or is not read as the name (zero-width spaces and joiners, direction
marks, spaces, punctuation, accents): ``Kanda-Card-Club.``, ``Kanda Card Clúb`` and
``Kanda Card Club`` are one name; ``神田カード部`` and ``神田カード会``, ``カード`` and
``ガード`` are two.  Club names, account names (``actions.invitations``), a season's
divisions (``tournaments.divisions``) and the club's players (the "same person?" question)
are compared this way.

Names as shown: :func:`shown` is a player's Japanese name on Japanese pages.

Names as handles: :func:`unique_handle` makes a player's handle from their name, and
:func:`romaji` reads a Japanese name in Latin letters (for handles and club addresses)."""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections.abc import Collection, Iterable
from typing import Any

from confusable_homoglyphs import confusables
from django.utils.text import slugify
from django.utils.translation import get_language, gettext, pgettext


def normal(name: str) -> str:
    """A name as compared: full-width folded, case-folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def unspaced(name: str) -> str:
    """A person's name as the club typed it, to tell a guest who is one of its players:
    :func:`normal` without its spaces (``伊藤亜紀`` and ``伊藤 亜紀``, ``Aki Ito`` and
    ``AkiIto``), but not :func:`look_alike`'s reading (``José`` and ``Jose``, ``Ali`` and
    ``All`` can be two people at one table)."""
    return "".join(normal(name).split())


def look_alike(name: str) -> str:
    """The name as it looks, to tell whether two names could pass for one another: Unicode's
    confusable skeleton (TR39: each character read as its prototype, ``m`` as ``rn``,
    Cyrillic ``а`` as ``a``) of the name full-width folded (NFKC) and case-folded, without
    what a reader does not see or does not read as part of the name: spaces, invisible
    characters, punctuation (hyphens and dashes of every kind, dots, brackets) and accents
    (``Clúb`` is ``Club``).  A kana's voicing marks are part of it (``ガ`` is not ``カ``).
    ``i`` is read as ``l``: a capital I looks like an l, and case does not count, so
    ``CIub``, ``AKI`` and ``Aki`` can only be one name if i and l are one letter.
    A key longer than :data:`KEY_LENGTH` is its SHA-256 (names of one key, one hash)."""
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
    key = "".join(_seen(c) for c in text)
    for _ in range(4):  # a prototype may be a capital (0 is O): case-fold and read it again
        folded = unicodedata.normalize("NFD", key.casefold())
        again = "".join(_shown(_prototype(c)) for c in folded).replace("i", "l")
        if again == key:
            break
        key = again
    if len(key) > KEY_LENGTH:
        return "#" + hashlib.sha256(key.encode()).hexdigest()
    return key


KEY_LENGTH = 150
"""The longest :func:`look_alike` key kept as it is (the stored keys' columns hold it)."""

_ACCENTS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
"""The combining diacritical marks (accents, strokes, enclosing circles) of Unicode's blocks
for them; not a script's own marks (the kana's voicing marks are U+3099 and U+309A)."""

_UNSEEN = frozenset("\u115f\u1160\u3164\uffa0\u17b4\u17b5\u2800") | frozenset(
    map(chr, [*range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
)
"""Characters that show nothing yet are letters or marks: the Hangul fillers, Khmer's
inherent vowels, the variation selectors (Unicode's Default_Ignorable_Code_Point that are
not format characters), and the blank braille pattern."""

_KANA_MARKS = "\u3099\u309a"


def _shown(text: str) -> str:
    """``text`` without accents and characters that show nothing."""
    return "".join(c for c in _ACCENTS.sub("", text) if c not in _UNSEEN)


def _seen(char: str) -> str:
    """What one character of a name counts as: nothing for a space, an invisible or
    control character, punctuation or an accent; else its prototype.  A letter's or
    digit's prototype counts whole (``く`` reads as ``❬``, ``ノ`` as ``/``: two kana
    names differ as their letters do); a symbol's without punctuation (a minus is a
    hyphen, and a hyphen is nothing)."""
    kind = unicodedata.category(char)
    if kind[0] in "PZC" or char in _UNSEEN or _ACCENTS.match(char):
        return ""
    prototype = _shown(_prototype(char))
    if kind[0] in "LN":
        return prototype
    return "".join(c for c in prototype if unicodedata.category(c)[0] not in "PZC")


@functools.cache
def _prototype(char: str) -> str:
    """``char``'s prototype, as Unicode's confusables list it (``а`` is ``a``, ``I`` and
    ``1`` are ``l``, ``m`` is ``rn``, ``カ`` is ``力``).  confusable-homoglyphs keeps each
    listed pair both ways: a character listed with one other is that one's (a pair listed
    only with each other: the lesser); a character listed with many is their prototype."""
    if char in _KANA_MARKS:
        return char
    alike = _alike(char)
    if len(alike) != 1:
        return char
    other = alike[0]
    if len(other) > 1:  # only a prototype is of several characters
        return other
    return min(char, other) if _alike(other) == [char] else other


def _alike(char: str) -> list[str]:
    return [c for c in _listed().get(char, []) if c != char]


@functools.cache
def _listed() -> dict[str, list[str]]:
    """confusable-homoglyphs' data by character (it writes right-to-left characters
    between left-to-right marks, which are no part of them)."""
    listed: dict[str, list[str]] = {}
    for key, alike in confusables.confusables_data.items():
        glyphs = (g["c"].replace("\u200e", "") for g in alike)
        listed.setdefault(key.replace("\u200e", ""), []).extend(g for g in glyphs if g)
    return listed


KANA = re.compile(r"[\u3041-\u3096\u30a1-\u30fa\u30fc\u309d\u309e\u30fd\u30fe ]+")
"""A reading: hiragana or katakana (and the long vowel mark), spaces between words."""


def shown(display_name: str, name_ja: str = "") -> str:
    """A player's name as the page says it: their Japanese name (``name_ja``) on a page in
    Japanese where the club gave one, else the name (``display_name``).  What people
    read (pages, sheets, files, notifications, pictures) goes through this; what machines
    read (the API's ``display_name``, handles, backups, imports) keeps the name."""
    if name_ja and (get_language() or "").startswith("ja"):
        return name_ja
    return display_name


def reading_key(name: str, reading: str = "") -> tuple[int, str, str]:
    """Where a person's name sorts in a list: the names written in the page's own script
    first.  On a Japanese page, by its reading in kana in 五十音 order as a dictionary
    has it (katakana read as hiragana; だ after た only where the rest is alike: だい before
    たかはし; small kana as large), then the names with no reading (Latin letters) by
    their letters.  The reading is ``reading`` where the club typed one, else the name
    when it is written in kana, else, for a name in kanji, the kana pykakasi reads in it:
    a guess (``李 明`` is read すもも めい where the club means り めい), good enough to put
    a list in order and never stored; a reading typed puts the name right.  On a page in
    English, a name in Latin letters sorts by its letters (``Chika Abe`` under C, whatever
    its reading), before the names in Japanese script, which follow A to Z by their
    reading in romaji (渡辺, watanabe, before 山田, yamada)."""
    if not _japanese_page() and _in_latin_letters(name):
        return 0, normal(name), ""
    said = unicodedata.normalize("NFKC", reading or name).strip()
    if not reading:
        said = guessed_reading(said) or said
    if said and KANA.fullmatch(said):
        hiragana = "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in said)
        kana = "".join(hiragana.split())
        if _japanese_page():
            return 0, _unvoiced(kana), kana
        return 1, _romaji_of(kana), kana
    return 1, normal(name), ""


_SMALL_KANA = str.maketrans("ぁぃぅぇぉっゃゅょゎゕゖ", "あいうえおつやゆよわかけ")


def _unvoiced(kana: str) -> str:
    """``kana`` as a dictionary first compares it: without its voicing marks (だ as た,
    ぱ as は), small kana as large."""
    bare = "".join(c for c in unicodedata.normalize("NFD", kana) if c not in "\u3099\u309a")
    return unicodedata.normalize("NFC", bare).translate(_SMALL_KANA)


@functools.lru_cache(maxsize=4096)
def _romaji_of(kana: str) -> str:
    """A reading in Hepburn romaji, as an English list sorts it (each read once a process)."""
    return normal(romaji(kana))


def _japanese_page() -> bool:
    return (get_language() or "").startswith("ja")


def _in_latin_letters(name: str) -> bool:
    """Whether every letter of ``name`` is a Latin one (``José``, ``Ｂｅｎ``), and it has one."""
    letters = [c for c in unicodedata.normalize("NFKC", name) if c.isalpha()]
    return bool(letters) and all(unicodedata.name(c, "").startswith("LATIN") for c in letters)


def guessed_reading(name: str) -> str:
    """pykakasi's kana for a name in kanji (``青木`` → あおき), which lists sort by until
    the club types the reading; ``""`` for a name in kana or Latin letters (nothing to
    guess) or one pykakasi cannot read whole."""
    said = unicodedata.normalize("NFKC", name).strip()
    if not said or said.isascii() or KANA.fullmatch(said):
        return ""
    guess = _kana(said)
    return " ".join(guess.split()) if KANA.fullmatch(guess) else ""


def reading_order(players: Iterable[Any]) -> list[Any]:
    """Players (anything with ``shown_name`` and ``reading``) in reading order, each by the
    name the page shows (:func:`shown`: a Japanese page sorts the Japanese names)."""
    return sorted(players, key=lambda p: reading_key(p.shown_name, p.reading))


_NUMBERED_TABLE = re.compile(r"Table (\d+)")


def table_label(name: str) -> str:
    """A table's name in the reader's language: the draw and the import name tables
    ``Table 3``, which a Japanese reader reads as 「卓 3」; a name typed by hand is shown
    as typed."""
    found = _NUMBERED_TABLE.fullmatch(name)
    return gettext("Table %(n)s") % {"n": found.group(1)} if found else name


def table_place(table: Any) -> str:
    """Where a table stands on its night: ``Round 2 · Table 1`` for a round's table (every
    round has its "Table 1"), the table's name alone otherwise (:func:`table_label`)."""
    name = table_label(table.name)
    if table.round_id is None:
        return name
    return f"{gettext('Round %(n)s') % {'n': table.round.number}} · {name}"


def night_label(night: Any) -> str:
    """A club night as every page, export and chart names it to people: its date, then its
    name if it has one (a final without one: "Final"), then its venue, so that two nights
    on one date (an afternoon and an evening, a last round and the final) are told apart:
    ``2026-11-28 Final · Kanda Hall``, ``2026-11-28 Kanda Hall``."""
    name = night.name.strip() if night.name else ""
    if not name and night.final:
        name = pgettext("a club night's name", "Final")
    label = f"{night.date:%Y-%m-%d}"
    venue = (night.venue or "").strip()
    if name:
        label += f" {name}"
    if venue:
        label += f" · {venue}" if name else f" {venue}"
    return label


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


def found_by(player: Any) -> str:
    """What else finds ``player`` in a long list of names, beside the name shown: both
    names (a Japanese page shows the Japanese one), the reading, the handle's words
    (``yamada tarou``: Latin letters find a Japanese name) and, with no reading given,
    the names' kana as pykakasi reads them (``やまだ たろう``: kana typed before it is
    turned into kanji).  A guess is good
    enough here, where it only finds a name; it is never stored as the reading."""
    parts = [player.display_name, player.name_ja, player.reading, player.handle.replace("-", " ")]
    if not player.reading:
        parts += [_kana(n) for n in (player.display_name, player.name_ja) if not n.isascii()]
    return " ".join(p for p in parts if p)


@functools.lru_cache(maxsize=4096)
def _kana(name: str) -> str:
    """``name`` in hiragana as pykakasi reads it (a list of a club's names is drawn again
    and again: each is read once a process)."""
    return " ".join(part["hira"] for part in _kakasi().convert(name))


@functools.cache
def _kakasi() -> Any:
    import pykakasi  # its dictionary loads once per process, when a name first needs it

    return pykakasi.kakasi()
