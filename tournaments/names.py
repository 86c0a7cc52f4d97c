"""Names as people compare them: ``Spring 2024``, ``spring  2024`` and ``ＳＰＲＩＮＧ 2024``
are one name (full-width folded, case-folded, spaces collapsed).  The score-sheet import
matches names this way, and a season's name is unique in its club this way too."""

from __future__ import annotations

import re
import unicodedata

from django.utils.translation import gettext


def normal(name: str) -> str:
    """A name as compared: full-width folded, case-folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


_NUMBERED_TABLE = re.compile(r"Table (\d+)")


def table_label(name: str) -> str:
    """A table's name in the reader's language: the draw and the import name tables
    ``Table 3``, which a Japanese reader reads as 「卓 3」; a name typed by hand is shown
    as typed."""
    found = _NUMBERED_TABLE.fullmatch(name)
    return gettext("Table %(n)s") % {"n": found.group(1)} if found else name
