"""A club's data as one signed JSON document: the backup behind ``export_club``.

The document holds what cannot be derived: players (with their PINs, hashed as kept),
seasons, club nights with how their standings are counted, their rounds and who sat
out of each, tables, matches with their seats, and every deal record with who entered
it and when, who confirmed it, and every previous version of it with its confirmation
(deleted deals included); the club's memberships and the players' accounts by user
name.  Left out on purpose: table links and invitations (secrets of this site: the
restored club makes new ones), uploaded score sheets (the deals they made are in), and
the derived standings and ratings.  Accounts themselves are not in the backup.

The file is signed (:func:`sign`) with the site's ``BACKUP_SIGNING_KEY``; restoring it
is ``ops.restore``.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core import signing
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from tournaments.models import Club, ClubNight, Deal, Move, Placement, Season

FORMAT = "clubscore-club/1"


def export_club(
    club: Club, progress: Callable[[int, int], None] = lambda done, steps: None
) -> dict[str, Any]:
    """The club as one document, signed (:func:`sign`); ``progress(nights done, nights)``
    after each club night."""
    players = list(club.players.order_by("pk"))
    seasons = []
    steps = ClubNight.objects.filter(season__club=club).count()
    done = 0
    for season in club.seasons.order_by("pk"):
        nights = []
        for night in season.club_nights.order_by("date", "pk"):
            done += 1
            progress(done, steps)
            tables = []
            for table in night.tables.order_by("pk").select_related("round", "scorer"):
                matches = []
                for match in table.matches.order_by("pk").prefetch_related("seats__player"):
                    deals = [
                        _deal(d)
                        for d in match.deals.order_by("number").select_related(
                            "entered_by", "confirmed_by", "revised_by", "confirmed_by_player"
                        )
                    ]
                    matches.append(
                        {
                            "game": match.game,
                            "rules": match.rules,
                            "target": match.target,
                            "status": match.status,
                            "ended_by_hand": match.ended_by_hand,
                            "created_at": match.created_at.isoformat(),
                            "seats": [p.handle for p in match.seated_players()],
                            "deals": deals,
                            "events": [
                                {
                                    "action": e.action,
                                    "reason": e.reason,
                                    "changed_by": _username(e.changed_by),
                                    "changed_at": e.changed_at.isoformat(),
                                }
                                for e in match.events.order_by("changed_at", "pk").select_related(
                                    "changed_by"
                                )
                            ],
                        }
                    )
                tables.append(
                    {
                        "name": table.name,
                        "scorer": _username(table.scorer),
                        "round": table.round.number if table.round else None,
                        "matches": matches,
                    }
                )
            nights.append(
                {
                    "date": night.date.isoformat(),
                    "starts_at": _clock(night.starts_at),
                    "ends_at": _clock(night.ends_at),
                    "name": night.name,
                    "venue": night.venue,
                    "deals_per_match": night.deals_per_match,
                    "standings": night.standings,
                    "rank_points": night.rank_points,
                    "final": night.final,
                    "cancelled_at": night.cancelled_at.isoformat() if night.cancelled_at else None,
                    "sequence": night.sequence,
                    "changed_at": night.changed_at.isoformat(),
                    "present": sorted(p.handle for p in night.present.all()),
                    "rounds": _rounds(night),
                    "tables": tables,
                }
            )
        seasons.append(
            {
                "name": season.name,
                "games": season.games,
                "starts_on": season.starts_on.isoformat() if season.starts_on else None,
                "ends_on": season.ends_on.isoformat() if season.ends_on else None,
                "club_nights": nights,
                "require_confirmation": season.require_confirmation,
                "public": season.public,
                "ranking": season.ranking,
                "best_of": season.best_of,
                "qualify_by": season.qualify_by,
                "qualify_minimum": season.qualify_minimum,
                "rules": season.rules,
                **_divisions(season),
            }
        )
    return sign(
        {
            "format": FORMAT,
            "club": {"name": club.name, "slug": club.slug, "time_zone": club.time_zone},
            "players": [
                {
                    "handle": p.handle,
                    "display_name": p.display_name,
                    "name_ja": p.name_ja,
                    "reading": p.reading,
                    "user": _username(p.user),
                    "pin": p.pin,
                }
                for p in players
            ],
            "members": [
                {"user": m.user.get_username(), "role": m.role}
                for m in club.memberships.select_related("user").order_by("pk")
            ],
            "seasons": seasons,
        }
    )


def _clock(time: dt.time | None) -> str | None:
    """A night's start or end time, ``19:00`` (``None``: none given)."""
    if time is None:
        return None
    return (
        time.isoformat(timespec="minutes")
        if not time.second and not time.microsecond
        else time.isoformat()
    )


def _divisions(season: Season) -> dict[str, Any]:
    """The season's divisions with their players, its closing rule and, once closed, the
    next season's name and each player's move."""
    placed = Placement.objects.filter(season=season).select_related("player", "division")
    moves = Move.objects.filter(season=season).select_related("player").order_by("pk")
    return {
        "moves_by": season.moves_by,
        "moves": season.moves,
        "divisions": [
            {
                "name": d.name,
                "players": sorted(p.player.handle for p in placed if p.division_id == d.pk),
            }
            for d in season.divisions.order_by("order")
        ],
        "closed_at": season.closed_at.isoformat() if season.closed_at else None,
        "next_season": season.next_season.name if season.next_season else None,
        "moves_made": [
            {
                "player": m.player.handle,
                "kind": m.kind,
                "division": m.division,
                "rank": m.rank,
                "next_division": m.next_division,
                "made_at": m.made_at.isoformat(),
            }
            for m in moves
        ],
    }


def _rounds(night: ClubNight) -> list[dict[str, Any]]:
    return [
        {
            "number": r.number,
            "game": r.game,
            "method": r.method,
            "deals": r.deals,
            "sat_out": sorted(p.handle for p in r.sat_out.all()),
            "created_by": _username(r.created_by),
            "created_at": r.created_at.isoformat(),
            "ended_early_at": _iso(r.ended_early_at),
            "ended_early_reason": r.ended_early_reason,
        }
        for r in night.rounds.order_by("number").prefetch_related("sat_out")
    ]


def _deal(d: Deal) -> dict[str, Any]:
    return {
        "number": d.number,
        "record": d.record,
        "entered_by": _username(d.entered_by),
        "entered_at": d.entered_at.isoformat(),
        "entered_at_table": d.entered_at_table,
        "deleted_at": _iso(d.deleted_at),
        "confirmed_by": _username(d.confirmed_by),
        "confirmed_at": _iso(d.confirmed_at),
        "confirmed_by_player": d.confirmed_by_player.handle if d.confirmed_by_player else None,
        "revised_by": _username(d.revised_by),
        "versions": [
            {
                "action": v.action,
                "record_before": v.record_before,
                "reason": v.reason,
                "changed_by": _username(v.changed_by),
                "changed_at": v.changed_at.isoformat(),
                "at_table": v.at_table,
                "confirmed_by": _username(v.confirmed_by),
                "confirmed_at": _iso(v.confirmed_at),
                "effect": v.effect,
            }
            for v in d.versions.order_by("changed_at", "pk").select_related(
                "changed_by", "confirmed_by"
            )
        ],
    }


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


# -- the signature --------------------------------------------------------------------------------


def _signer() -> signing.Signer:
    return signing.Signer(
        key=settings.BACKUP_SIGNING_KEY, salt="clubscore.backup", algorithm="sha256"
    )


def _content(doc: dict[str, Any]) -> str:
    body = {k: v for k, v in doc.items() if k != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sign(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with its ``signature``: an HMAC (SHA-256) of its canonical JSON under the
    installation's ``BACKUP_SIGNING_KEY``.  It proves that an installation holding the key
    wrote the file and that nothing in it changed since; it proves nothing of the records'
    truth (they are what the club had), and a file made elsewhere checks only with the
    same key."""
    return {**doc, "signature": _signer().signature(_content(doc))}


def signed(doc: dict[str, Any]) -> bool:
    signature = doc.get("signature")
    return isinstance(signature, str) and constant_time_compare(
        signature, _signer().signature(_content(doc))
    )


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def as_text(document: dict[str, Any]) -> str:
    """The backup file's text."""
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def backup_file(club: Club, progress: Callable[[int, int], None]) -> tuple[str, str, bytes]:
    """The club's backup as a file made by a worker (``scoring.jobs``, kind "backup")."""
    text = as_text(export_club(club, progress))
    return f"{club.slug}-{timezone.localdate():%Y-%m-%d}.json", "application/json", text.encode()
