"""Names as people compare them: ``Spring 2024``, ``spring  2024`` and ``ＳＰＲＩＮＧ 2024``
are one name (full-width folded, case-folded, spaces collapsed).  The score-sheet import
matches names this way, and a season's name is unique in its club this way too."""

from __future__ import annotations

import unicodedata


def normal(name: str) -> str:
    """A name as compared: full-width folded, case-folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())
