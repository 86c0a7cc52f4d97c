"""A score sheet imported again adds nothing: each deal keeps its row's identity as its
key (:func:`deal_key`), and a check marks the matches the club has from an earlier import
(:func:`mark_imported`); an earlier import of the same rows with other values is a
mistake (correct it on the match's page), never a second copy."""

from __future__ import annotations

import hashlib
import json

from django.utils.translation import gettext

from tournaments.models import Club, Deal
from tournaments.sheets.columns import normal
from tournaments.sheets.names import Fail
from tournaments.sheets.preview import SheetMatch

KEY_PREFIX = "sheet:"
AT_ONCE = 5000
"""Keys per query."""


def deal_key(club_id: int, match: SheetMatch, index: int) -> str:
    """The key of the ``index``-th deal of ``match``: its row's identity (club, season,
    date, table, game, match and the deal's place in it), whatever else the row says."""
    identity = [
        club_id,
        match.season,
        match.date.isoformat(),
        normal(match.table),
        match.game,
        normal(match.number),
        index,
    ]
    digest = hashlib.sha256(json.dumps(identity, ensure_ascii=False).encode()).hexdigest()
    return KEY_PREFIX + digest


def mark_imported(club: Club, matches: list[SheetMatch], fail: Fail) -> None:
    """Mark the matches the club has from an earlier import; a mistake where an earlier
    import of the same rows differs."""
    keys = [d.key for m in matches for d in m.deals]
    stored: dict[str, tuple[str, int]] = {}
    deals = Deal.objects.filter(match__table__club_night__season__club=club)
    for start in range(0, len(keys), AT_ONCE):
        found = deals.filter(idempotency_key__in=keys[start : start + AT_ONCE])
        stored.update(
            (k, (h, m))
            for k, h, m in found.values_list("idempotency_key", "request_hash", "match_id")
        )
    if not stored:
        return
    for match in matches:
        before = [stored.get(d.key) for d in match.deals]
        if not any(before):
            continue
        same = all(
            b is not None and b[0] == d.request_hash
            for d, b in zip(match.deals, before, strict=True)
        )
        if same and len({b[1] for b in before if b}) == 1:
            match.imported = True
            continue
        for deal, b in zip(match.deals, before, strict=True):
            if b is None:
                fail(
                    "imported_before",
                    deal.row,
                    None,
                    gettext(
                        "this match was imported before without this row: enter the deal on the match's page"
                    ),
                )
            elif b[0] != deal.request_hash:
                fail(
                    "imported_before",
                    deal.row,
                    None,
                    gettext(
                        "this deal was imported before with other values: correct it on the match's page"
                    ),
                )
