"""Scoring by table link (issue 29, 2): whoever holds a table's link enters and corrects
that table's deals, with no account, for that night only.

A link is a secret kept on the table (``Table.link_token``); a league administrator
makes it (the table list and the night's paper print it as a QR code) and can revoke it,
which empties the secret: every phone that followed the old link loses the table at its
next request.  A link works on the night's date and the day after (a late night, a
correction over breakfast) in the club's time zone, and never again: decided so that a
photo of last month's paper is worth nothing.  What a link-holder stores is marked
"entered at table N" (``Deal.entered_at_table``, ``DealVersion.at_table``), with the
account of whoever is signed in on the phone and the phone's holder id (:func:`holder`):
neither confirms what they entered (``actions.confirmation``).

The phone that follows a link keeps the table's secret in its session
(:func:`remember`); every request checks it again (:func:`holds`), so a revoked or
expired link stops at once.

**Who scores on the phone.** A PIN proves which seated player typed it, not that someone
else agreed, and an anonymous phone is nobody.  So in a season that asks for
confirmation, a phone with no account says who scores on it before it enters or
changes a deal: a seated player picks their name and types their PIN (``actions.table_links.bind``,
stored as a ``LinkScorer`` that every web process reads).  Whatever the phone then
enters or changes is that player's: neither their PIN nor their account confirms it,
on this phone or any other, and the phone's PIN confirmations of its own deals are
another seated player's (``actions.confirmation``).  A phone handed over is bound
again by the next scorer; every player it was ever bound to stays its scorer.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from tournaments.models import LinkScorer, Table

SESSION_KEY = "table_links"
HOLDER_KEY = "table_link_holder"


def in_time(table: Table) -> bool:
    """The night's date or the day after, in the club's time zone."""
    today = timezone.localdate()
    night = table.club_night.date
    return night <= today <= night + dt.timedelta(days=1)


def early(table: Table) -> bool:
    """Whether the table's night is still to come (a paper printed ahead, its QR code
    tried): its link is not dead, only early."""
    return timezone.localdate() < table.club_night.date


def named_by(token: str) -> Table | None:
    """The table whose link is ``token``, whether or not it works now (:func:`in_time`)."""
    if not token:
        return None
    table = (
        Table.objects.select_related("club_night__season__club").filter(link_token=token).first()
    )
    if table is None or not secrets.compare_digest(table.link_token, token):
        return None
    return table


def remember(session: Any, table: Table) -> None:
    links = dict(session.get(SESSION_KEY, {}))
    links[str(table.pk)] = table.link_token
    session[SESSION_KEY] = links
    if not session.get(HOLDER_KEY):
        session[HOLDER_KEY] = secrets.token_hex(16)


def holder(session: Any) -> str:
    """This phone's id as a link-holder (made when it first follows a link; kept when
    someone signs in on it): the deals it enters or changes through a link carry it, and
    it never confirms them (``actions.confirmation``).  ``""``: it followed none."""
    return str(session.get(HOLDER_KEY, ""))


def withdrawn(session: Any, table: Table) -> bool:
    """This session followed a link of the table that no longer works (revoked, replaced
    or past its night): the phone is told so, not asked to sign in."""
    return bool(session.get(SESSION_KEY, {}).get(str(table.pk))) and not holds(session, table)


def replaced(table: Table) -> bool:
    """The table has a working link other than the one a withdrawn phone holds: the phone
    is told to scan the new code (rather than that entry is over)."""
    return bool(table.link_token) and in_time(table)


def holds(session: Any, table: Table) -> bool:
    """This session followed the table's current link (``table`` as just read, with its
    club night), and the link still works."""
    token = session.get(SESSION_KEY, {}).get(str(table.pk), "")
    return (
        bool(token and table.link_token)
        and secrets.compare_digest(table.link_token, token)
        and in_time(table)
    )


def holds_night(session: Any, night_id: int) -> bool:
    """This session holds a working link of a table of the night (checked again now)."""
    kept = [int(pk) for pk in session.get(SESSION_KEY, {}) if str(pk).isdigit()]
    tables = Table.objects.select_related("club_night").filter(pk__in=kept, club_night=night_id)
    return any(holds(session, table) for table in tables)


def scorers(table_id: int, holders: set[str]) -> dict[str, list[tuple[int, int | None]]]:
    """The players bound to each of ``holders`` at the table, as ``(player id, account
    id)``; a holder bound to nobody is left out."""
    found: dict[str, list[tuple[int, int | None]]] = {}
    rows = LinkScorer.objects.filter(table_id=table_id, holder__in=holders - {""})
    for holder_id, player_id, user_id in rows.values_list("holder", "player_id", "player__user_id"):
        found.setdefault(holder_id, []).append((player_id, user_id))
    return found


def must_bind(session: Any, table: Table, user: Any) -> bool:
    """A phone with no account acting through the link of a table whose season asks for
    confirmation, and no scorer bound to it yet: it says who scores before it enters."""
    if user is not None and getattr(user, "is_authenticated", False):
        return False
    if not table.club_night.season.require_confirmation:
        return False
    phone = holder(session)
    return not phone or not LinkScorer.objects.filter(table=table, holder=phone).exists()


def phone_scorer(table: str = "pk") -> dict[str, Subquery]:
    """Annotations naming the player who last said they score on a phone holding the
    table's link (``phone_scorer`` and ``phone_scorer_ja``; ``None``: nobody), the table
    reached by ``table`` from the rows annotated: the secretary's lists say who scores
    a table scored by phone.  In the rows' own statement, so that a list of any length
    makes the same queries."""
    last = LinkScorer.objects.filter(table=OuterRef(table)).order_by("-bound_at", "-pk")
    return {
        "phone_scorer": Subquery(last.values("player__display_name")[:1]),
        "phone_scorer_ja": Subquery(last.values("player__name_ja")[:1]),
    }
