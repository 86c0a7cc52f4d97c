"""Reading a rendered page in the tests, whatever the templates' layout."""

import re


def squeezed(html: str) -> str:
    """A page's markup with its layout taken out: one space for any run of white space,
    none around a tag, none before a tag's closing bracket.  The templates put one element
    on a line (and long tags one attribute on a line), so a test looks for
    ``<option value="3">late</option>`` in ``squeezed(page)``, not in the page."""
    html = re.sub(r"\s+", " ", html)
    return re.sub(r" ?(<[^>]*>) ?", lambda tag: tag.group(1).replace(" >", ">"), html)


def words(html: str) -> str:
    """What a person reads of a page: its text, without its tags, one space for any run of
    white space (``<span class="nowrap">2026-11-28</span> Hall`` reads
    ``2026-11-28 Hall``)."""
    return " ".join(re.sub(r"<[^>]*>", "", html).split())
