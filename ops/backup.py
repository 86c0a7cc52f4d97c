"""A club's data as one JSON document, and back: the backup behind export_club/import_club.

The document holds what cannot be derived: players, seasons, club nights,
tables, matches with their seats, and every deal record with who entered it and
when, who confirmed it, and every previous version of it (deleted deals
included, still deleted after the import); the club's memberships and the
players' accounts by user name (accounts themselves are not in the backup: an
import links those that exist).  Standings are derived data: an import rebuilds them from the deals.
Deals are re-entered through ``actions.enter_deal``, so the engine checks every
record of a restored club again.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.dateparse import parse_date, parse_datetime

from tournaments import actions
from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    DealScore,
    DealVersion,
    Match,
    Membership,
    Player,
    Season,
    Table,
)

FORMAT = "clubscore-club/1"


def export_club(club: Club) -> dict[str, Any]:
    players = list(club.players.order_by("pk"))
    seasons = []
    for season in club.seasons.order_by("pk"):
        nights = []
        for night in season.club_nights.order_by("date", "pk"):
            tables = []
            for table in night.tables.order_by("pk"):
                matches = []
                for match in table.matches.order_by("pk").prefetch_related("seats__player"):
                    deals = [
                        {
                            "number": d.number,
                            "record": d.record,
                            "entered_by": d.entered_by.get_username() if d.entered_by else None,
                            "entered_at": d.entered_at.isoformat(),
                            "deleted_at": d.deleted_at.isoformat() if d.deleted_at else None,
                            "confirmed_by": _username(d.confirmed_by),
                            "confirmed_at": d.confirmed_at.isoformat() if d.confirmed_at else None,
                            "versions": [
                                {
                                    "action": v.action,
                                    "record_before": v.record_before,
                                    "reason": v.reason,
                                    "changed_by": _username(v.changed_by),
                                    "changed_at": v.changed_at.isoformat(),
                                    "effect": v.effect,
                                }
                                for v in d.versions.order_by("changed_at", "pk").select_related(
                                    "changed_by"
                                )
                            ],
                        }  # fmt: skip
                        for d in match.deals.order_by("number").select_related(
                            "entered_by", "confirmed_by"
                        )
                    ]
                    matches.append({
                        "game": match.game, "rules": match.rules, "target": match.target,
                        "status": match.status, "created_at": match.created_at.isoformat(),
                        "seats": [p.handle for p in match.seated_players()], "deals": deals,
                    })  # fmt: skip
                tables.append({"name": table.name, "scorer": table.scorer.get_username() if table.scorer else None,
                               "matches": matches})  # fmt: skip
            nights.append({"date": night.date.isoformat(), "venue": night.venue, "tables": tables})
        seasons.append({
            "name": season.name, "games": season.games,
            "starts_on": season.starts_on.isoformat() if season.starts_on else None,
            "ends_on": season.ends_on.isoformat() if season.ends_on else None, "club_nights": nights,
            "require_confirmation": season.require_confirmation, "public": season.public,
        })  # fmt: skip
    return {
        "format": FORMAT,
        "club": {"name": club.name, "slug": club.slug},
        "players": [
            {
                "handle": p.handle,
                "display_name": p.display_name,
                "name_ja": p.name_ja,
                "user": _username(p.user),
            }
            for p in players
        ],  # fmt: skip
        "members": [
            {"user": m.user.get_username(), "role": m.role}
            for m in club.memberships.select_related("user").order_by("pk")
        ],
        "seasons": seasons,
    }


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


class ImportError_(ValueError):
    """The document cannot be restored (wrong format, club exists, a deal refused)."""


@transaction.atomic
def import_club(doc: dict[str, Any]) -> Club:
    """Restore a club into this database; all or nothing."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ImportError_(f"not a {FORMAT} document")
    if Club.objects.filter(slug=doc["club"]["slug"]).exists():
        raise ImportError_(f"club {doc['club']['slug']!r} exists already")
    users = {u.get_username(): u for u in get_user_model().objects.all()}
    club = Club.objects.create(name=doc["club"]["name"], slug=doc["club"]["slug"])
    players = {
        p["handle"]: Player.objects.create(
            club=club,
            handle=p["handle"],
            display_name=p["display_name"],
            name_ja=p.get("name_ja", ""),
            user=users.get(p.get("user")),
        )  # fmt: skip
        for p in doc["players"]
    }
    for m in doc.get("members", []):
        if m["user"] in users:  # accounts are not in the backup: members without one are left out
            Membership.objects.create(club=club, user=users[m["user"]], role=m["role"])
    for s in doc["seasons"]:
        season = Season.objects.create(club=club, name=s["name"], games=s["games"],
                                       starts_on=parse_date(s["starts_on"]) if s["starts_on"] else None,
                                       ends_on=parse_date(s["ends_on"]) if s["ends_on"] else None,
                                       require_confirmation=s.get("require_confirmation", False),
                                       public=s.get("public", False))  # fmt: skip
        for n in s["club_nights"]:
            night = ClubNight.objects.create(season=season, date=_date(n["date"]), venue=n["venue"])
            for t in n["tables"]:
                table = Table.objects.create(
                    club_night=night, name=t["name"], scorer=users.get(t["scorer"])
                )
                for m in t["matches"]:
                    _import_match(table, m, players, users)
    return club


def _import_match(
    table: Table, m: dict[str, Any], players: dict[str, Player], users: dict[str, Any]
) -> None:
    match = actions.create_match(table, m["game"], [players[h] for h in m["seats"]], rules=m["rules"],
                                 target=m["target"])  # fmt: skip
    Match.objects.filter(pk=match.pk).update(created_at=parse_datetime(m["created_at"]))
    for d in m["deals"]:
        try:
            deal = actions.enter_deal(
                match, d["record"], user=users.get(d["entered_by"]), number=d["number"]
            )
        except actions.Rejection as rejection:
            raise ImportError_(f"deal {d['number']} of a {m['game']} match: {rejection}") from None
        Deal.objects.filter(pk=deal.pk).update(
            entered_at=parse_datetime(d["entered_at"]),
            deleted_at=_when(d.get("deleted_at")),
            confirmed_by=users.get(d.get("confirmed_by")),
            confirmed_at=_when(d.get("confirmed_at")),
        )
        if d.get("deleted_at"):  # as corrections.delete_deal left it: no scores
            DealScore.objects.filter(deal=deal).delete()
        DealVersion.objects.bulk_create(
            DealVersion(deal=deal, action=v["action"], record_before=v["record_before"],
                        reason=v["reason"], changed_by=users.get(v["changed_by"]),
                        changed_at=_datetime(v["changed_at"]), effect=v.get("effect", []))
            for v in d.get("versions", [])
        )  # fmt: skip
    if m["status"] == Match.Status.FINISHED:
        Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)


def _when(value: str | None) -> Any:
    return parse_datetime(value) if value else None


def _date(text: str) -> dt.date:
    value = parse_date(text)
    if value is None:
        raise ImportError_(f"not a date: {text!r}")
    return value


def _datetime(text: str) -> dt.datetime:
    value = parse_datetime(text)
    if value is None:
        raise ImportError_(f"not a date and time: {text!r}")
    return value
