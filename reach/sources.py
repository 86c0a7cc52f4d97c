"""What the league announced, made into events players and a club's tools hear of.

``tournaments.events.announce`` names what happened by ids; here each is read from the
database once it is committed and made into :class:`reach.events.Event`: its stable id,
its webhook ``data`` and, for each player concerned, what they may be told
(``reach.words``).  ``reach.tasks.fan_out`` hands every event to ``reach.push`` and
``reach.webhooks``, which deliver it once per recipient whatever the retries.

How a club's happenings read as events (where the rules are silent, what a club would
expect):

- **A round is drawn** (``round.drawn``): each seated player is told their table, seat
  and who sits with them; a player sitting out is told so.  A night drawn without rounds
  is one draw per call of the tables made.
- **A deal waits** (``deal.waiting``, players only): the other seated players are told
  (not whoever entered it: their phone cannot confirm it), with the PIN page to open.
- **A deal is confirmed** (``deal.confirmed``, webhooks only): also a deal entered in a
  season that asks for no confirmation, since it counts at once.
- **A correction** (``correction.applied``): each seated player whose season total or
  rank moved is told before and after (the correction's stored effect).
- **A round is closed** when its last match finishes (or is ended); **a night is
  closed** when its last planned round is (``rounds_planned``; with none planned, when
  every match of a night drawn without rounds is finished).  Each player of the night
  is told their place tonight.  Once per round and night: reopening and finishing again
  tells nobody twice.
- **The standings changed** (``standings.changed``, webhooks only): the leaders of each
  game; made only when an endpoint of the club listens, and its id is the standings'
  own, so a refresh that changed nothing is not sent again.
- **A season is closed** (``season.closed``): each player with a move (promoted,
  relegated, stays, placed) is told, and the champion of its final.
- **A club night is called off** (``night.cancelled``), or **held after all**
  (``night.restored``): every player of the club is told (a night concerns whoever might
  come, drawn or not yet), under the kind "my table is drawn".  Told only while the night
  is still as announced: called off and held again before the workers read it, only
  "held after all" is told.  Each call-off is its own event (its time is in its id), so
  a night called off, held, and called off again is told each time, and a retry once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse

from reach import season_sources, words
from reach.events import Event, Said
from scoring import night as night_standings
from scoring.standings import rebuild_match_standings
from tournaments.models import (
    ClubNight,
    Deal,
    DealVersion,
    Match,
    Player,
    Round,
    Table,
    waiting_deals,
)
from tournaments.names import night_label


def _night_data(night: ClubNight) -> dict[str, Any]:
    return {
        "season": night.season_id,
        "season_name": night.season.name,
        "night": night.pk,
        "night_name": night_label(night),
        "url": reverse("club_night", args=[night.pk]),
    }


def _mine(night: ClubNight, player: int) -> str:
    return reverse("my_night", args=[night.pk]) + f"?player={player}"


def _drawn(
    night: ClubNight, tables: list[Table], number: int | None, sat_out: list[Player]
) -> tuple[dict[str, Any], tuple[Said, ...]]:
    matches = (
        Match.objects.filter(table__in=tables)
        .select_related("table")
        .prefetch_related("seats__player")
        .order_by("table__name", "pk")
    )
    told: list[Said] = []
    shown = []
    for match in matches:
        seated = [s.player for s in match.seats.all()]
        shown.append(
            {
                "table": match.table.name,
                "match": match.pk,
                "game": match.game,
                "players": [p.display_name for p in seated],
            }
        )
        for seat in match.seats.all():
            others = [p for p in seated if p.pk != seat.player_id]
            told.append(
                Said(
                    seat.player_id,
                    "drawn",
                    _mine(night, seat.player_id),
                    words.drawn(number, match.table.name, seat.position + 1, others),
                )
            )
    for player in sat_out:
        told.append(Said(player.pk, "drawn", _mine(night, player.pk), words.sits_out(number)))
    data = {
        **_night_data(night),
        "round": number,
        "tables": shown,
        "sat_out": [p.display_name for p in sat_out],
    }
    return data, tuple(told)


def round_drawn(ids: dict[str, int]) -> list[Event]:
    if "round" in ids:
        drawn = Round.objects.select_related("club_night__season").filter(pk=ids["round"]).first()
        if drawn is None:
            return []
        night, key = drawn.club_night, f"round.drawn:{drawn.pk}"
        data, told = _drawn(
            night, list(drawn.tables.all()), drawn.number, list(drawn.sat_out.all())
        )
    else:
        found = ClubNight.objects.select_related("season").filter(pk=ids["night"]).first()
        if found is None:
            return []
        night, key = found, f"round.drawn:night-{found.pk}-{ids['table']}"
        tables = list(night.tables.filter(round__isnull=True, pk__gte=ids["table"]))
        data, told = _drawn(night, tables, None, [])
    club = night.season.club_id
    return [Event(key, "round.drawn", club, night.season_id, night.pk, data, told)]


def _deal(deal_id: int) -> Deal | None:
    return (
        Deal.objects.select_related("match__table__club_night__season")
        .prefetch_related("scores__player", "match__seats__player")
        .filter(pk=deal_id)
        .first()
    )


def _deal_data(deal: Deal) -> dict[str, Any]:
    night = deal.match.table.club_night
    return {
        **_night_data(night),
        "match": deal.match_id,
        "table": deal.match.table.name,
        "game": deal.match.game,
        "deal": deal.pk,
        "number": deal.number,
        "scores": [
            {"player": s.player.display_name, "score": s.score}
            for s in sorted(deal.scores.all(), key=lambda s: s.player_id)
        ],
    }


def deal_waiting(ids: dict[str, int]) -> list[Event]:
    deal = _deal(ids["deal"])
    if deal is None or not Deal.objects.filter(waiting_deals(), pk=deal.pk).exists():
        return []  # confirmed or deleted meanwhile: nothing waits
    night = deal.match.table.club_night
    mine = {s.player_id: s.score for s in deal.scores.all()}
    page = reverse("confirm_with_pin", args=[deal.pk])
    told = tuple(
        Said(
            seat.player_id,
            "pin",
            page,
            words.waiting(deal.number, deal.match.table.name, mine.get(seat.player_id, 0)),
        )
        for seat in deal.match.seats.all()
        if deal.entered_by_id is None or seat.player.user_id != deal.entered_by_id
    )
    key = f"deal.waiting:{deal.pk}:{deal.versions.count()}"
    season = night.season
    return [Event(key, "deal.waiting", season.club_id, season.pk, night.pk, _deal_data(deal), told)]


def deal_entered(ids: dict[str, int]) -> list[Event]:
    """A deal entered waits for a confirmation or counts at once; its match may be over."""
    deal = Deal.objects.filter(pk=ids["deal"]).values("match_id", "match__status").first()
    if deal is None:
        return []
    out = deal_waiting(ids) or deal_confirmed(ids)
    if deal["match__status"] == Match.Status.FINISHED:
        out += match_finished({"match": deal["match_id"]})
    return out


def deal_confirmed(ids: dict[str, int]) -> list[Event]:
    deal = _deal(ids["deal"])
    if deal is None or deal.deleted_at is not None:
        return []
    if Deal.objects.filter(waiting_deals(), pk=deal.pk).exists():
        return []
    night = deal.match.table.club_night
    key = f"deal.confirmed:{deal.pk}:{deal.versions.count()}"
    season = night.season
    return [Event(key, "deal.confirmed", season.club_id, season.pk, night.pk, _deal_data(deal))]


def correction_applied(ids: dict[str, int]) -> list[Event]:
    change = (
        DealVersion.objects.select_related("deal__match__table__club_night__season")
        .filter(pk=ids["change"])
        .first()
    )
    if change is None:
        return []
    deal = change.deal
    night = deal.match.table.club_night
    effect = [e for e in change.effect or [] if isinstance(e, dict)]
    handles = {e["player"] for e in effect}
    players = dict(
        Player.objects.filter(club_id=night.season.club_id, handle__in=handles).values_list(
            "handle", "pk"
        )
    )
    page = reverse("season", args=[night.season_id])
    game = deal.match.game
    told = tuple(
        Said(players[e["player"]], "correction", page, words.corrected(deal.number, game, e))
        for e in effect
        if e["player"] in players
        and (e["total_before"], e["rank_before"]) != (e["total_after"], e["rank_after"])
    )
    data = {
        **_night_data(night),
        "match": deal.match_id,
        "game": game,
        "deal": deal.pk,
        "number": deal.number,
        "action": change.action,
        "effect": effect,
    }
    key = f"correction.applied:{change.pk}"
    season = night.season
    out = [Event(key, "correction.applied", season.club_id, season.pk, night.pk, data, told)]
    out += deal_waiting({"deal": deal.pk})  # a corrected deal is confirmed again
    return out + match_finished({"match": deal.match_id})


def _placed(night: ClubNight, key: str, kind: str, number: int | None) -> Event:
    _method, lines = night_standings.standings(night)
    everyone = len(lines)
    told = tuple(
        Said(
            line.player,
            "closed",
            _mine(night, line.player),
            words.placed(kind, number, line.rank, everyone),
        )
        for line in lines
    )
    data = {
        **_night_data(night),
        "round": number,
        "standings": [
            {"rank": line.rank, "player": line.display_name, "total": line.total}
            for line in lines[:10]
        ],
    }
    season = night.season
    return Event(key, kind, season.club_id, season.pk, night.pk, data, told)


def match_finished(ids: dict[str, int]) -> list[Event]:
    match = (
        Match.objects.select_related("table__round", "table__club_night__season")
        .filter(pk=ids["match"])
        .first()
    )
    if match is None or match.status != Match.Status.FINISHED:
        return []
    night = match.table.club_night
    drawn = match.table.round
    together = Match.objects.filter(table__round=drawn) if drawn else None
    if together is None:
        together = Match.objects.filter(table__club_night=night, table__round__isnull=True)
    if together.exclude(status=Match.Status.FINISHED).exists():
        return []
    for other in together.values_list("pk", flat=True):  # the places read their lines
        rebuild_match_standings(other)
    out = []
    if drawn is not None:
        out.append(_placed(night, f"round.closed:{drawn.pk}", "round.closed", drawn.number))
        last = night.rounds_planned is not None and drawn.number >= night.rounds_planned
    else:
        last = True
    if last:
        out.append(_placed(night, f"night.closed:{night.pk}", "night.closed", None))
    return out


def _called(night: ClubNight, key: str, kind: str, said: Callable[..., words.Words]) -> Event:
    data = {
        **_night_data(night),
        "date": night.date.isoformat(),
        "venue": night.venue,
        "cancelled": night.cancelled_at is not None,
    }
    told = tuple(
        Said(player, "drawn", data["url"], said(night.season.name, night))
        for player in Player.objects.filter(club_id=night.season.club_id)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return Event(key, kind, night.season.club_id, night.season_id, night.pk, data, told)


def night_cancelled(ids: dict[str, int]) -> list[Event]:
    night = (
        ClubNight.objects.select_related("season")
        .filter(pk=ids["night"], cancelled_at__isnull=False)
        .first()
    )
    called = night.cancelled_at if night is not None else None
    if night is None or called is None:  # held again (or deleted) before this was read
        return []
    key = f"night.cancelled:{night.pk}:{called.timestamp():.6f}"
    return [_called(night, key, "night.cancelled", words.called_off)]


def night_restored(ids: dict[str, int]) -> list[Event]:
    night = (
        ClubNight.objects.select_related("season")
        .filter(pk=ids["night"], cancelled_at__isnull=True)
        .first()
    )
    if night is None:  # called off again (or deleted) before this was read
        return []
    key = f"night.restored:{night.pk}:{ids['sequence']}"
    return [_called(night, key, "night.restored", words.held_after_all)]


SOURCES: dict[str, Callable[[dict[str, int]], list[Event]]] = {
    "round.drawn": round_drawn,
    "deal.entered": deal_entered,
    "deal.confirmed": deal_confirmed,
    "correction.applied": correction_applied,
    "match.finished": match_finished,
    "standings.changed": season_sources.standings_changed,
    "season.closed": season_sources.season_closed,
    "night.cancelled": night_cancelled,
    "night.restored": night_restored,
}


def events(kind: str, ids: dict[str, int]) -> list[Event]:
    """The events ``kind`` with ``ids`` makes, read now (what was deleted since, none)."""
    return SOURCES[kind](ids)
