"""A player's own night (issue 41, 1): "my table, my score, my rank tonight, my next
table", from the table's code (its link, with no account) or as a reader of the night.

``/nights/N/me/`` asks who you are (the night's players, one tap); ``?player=M`` shows
that player's night, read from the room display's cached answer
(``scoring.night.cached_live``): a phone asking every few seconds costs three small
queries, and is answered 304 (no page made) while the player's own part of the night
(their lines, their table, the round, their deals waiting for a confirmation) is the
one its ETag was made of: deals at other tables do not change it.  The page
is for those who read the night (its club; everyone for a public season) and for
whoever holds a working link of one of its tables: nothing else is shown to anyone.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from urllib.parse import urlencode

from django.db.models import Q, Sum
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scoring import finals
from scoring import night as night_data
from tournaments import access, table_links
from tournaments.games import label
from tournaments.models import ClubNight, Deal, Player, Round, waiting_deals
from tournaments.names import reading_order, table_label
from tournaments.textfile import whole_number
from web.pages.tables import may_score
from web.previews import link_preview


def _night(request: HttpRequest, pk: int) -> ClubNight:
    """The night, for a reader of it (one query) or a holder of one of its tables' links."""
    nights = ClubNight.objects.select_related("season__club").filter(pk=pk)
    night = access.visible(nights, request.user).first()
    if night is None and table_links.holds_night(request.session, pk):
        night = nights.first()
    if night is None:
        raise Http404
    return night


def _player_of(night: ClubNight, asked: str) -> Player:
    """The player ``?player=`` names, who played at the night or came to it (one query)."""
    number = whole_number(asked)
    came = ClubNight.present.through.objects.filter(clubnight_id=night.pk).values("player_id")
    player = (
        Player.objects.filter(pk=number or 0)
        .filter(Q(seats__match__table__club_night=night) | Q(pk__in=came))
        .first()
    )
    if player is None:
        raise Http404
    return player


def waiting_for(request: HttpRequest, night: ClubNight, player: Player) -> list[dict[str, Any]]:
    """The player's deals of the night that wait for a second person's confirmation (the
    standings do not count them yet), each with the player's score in it, and where it is
    confirmed (the PIN page) when this phone may use it (the table's scorer or link)."""
    deals = (
        Deal.objects.filter(waiting_deals(), match__table__club_night=night, scores__player=player)
        .select_related("match__table")
        .annotate(mine=Sum("scores__score", filter=Q(scores__player=player)))
        .order_by("entered_at", "pk")
    )
    here = reverse("my_night", args=[night.pk]) + f"?player={player.pk}"
    out = []
    for deal in deals:
        confirm = ""
        if may_score(request, deal.match.table):
            confirm = reverse("confirm_with_pin", args=[deal.pk]) + "?" + urlencode({"next": here})
        out.append(
            {
                "table": table_label(deal.match.table.name),
                "game": label(deal.match.game),
                "number": deal.number,
                "score": deal.mine,
                "confirm": confirm,
            }
        )
    return out


def mine(data: dict[str, Any], player: int) -> dict[str, Any]:
    """The player's part of the room display's answer: tonight's lines (one a game when
    the night's points are per game), the table in the latest round (or that they sit
    out), with whom."""
    table = next((t for t in data["tables"] if player in t.get("ids", [])), None)
    current = data.get("round") or {}
    return {
        "lines": data.get("players", {}).get(str(player), []),
        "table": table,
        "with": [n for n, i in zip(table["players"], table["ids"], strict=True) if i != player]
        if table
        else [],
        "round": current,
        "sits_out": player in current.get("sat_out_ids", []),
    }


def final_label(night: ClubNight, found: dict[str, Any]) -> str:
    """``Final table`` (of a division) when the player's table is a final table of a
    round drawn as a final (``scoring.finals``); else empty.  Read only then: the rest of
    the page comes from the cached answer."""
    current, table = found["round"], found["table"]
    if not table or current.get("method") != Round.Method.FINAL:
        return ""
    drawn = night.rounds.filter(number=current.get("number")).first()
    if drawn is None:
        return ""
    return next((f.label for f in finals.final_matches(drawn) if f.match.pk == table["match"]), "")


@require_safe
def my_night(request: HttpRequest, pk: int) -> HttpResponse:
    night = _night(request, pk)
    asked = request.GET.get("player")
    if asked is None:
        players = {
            p.pk: p for p in Player.objects.filter(seats__match__table__club_night=night).distinct()
        }
        for p in night.present.all():
            players.setdefault(p.pk, p)
        ordered = reading_order(players.values())  # as every list of names: 五十音
        return render(
            request,
            "pages/my_night.html",
            {"night": night, "players": ordered, "link_preview": link_preview(request, night)},
        )
    player = _player_of(night, asked)
    _tag, body = night_data.cached_live(night, False)
    data = json.loads(body)
    found = mine(data, player.pk)
    shown = {  # no deal of the night waits (the room's count): none of the player's either
        "waiting": waiting_for(request, night, player) if data.get("waiting") else [],
        "final": final_label(night, found),
        **found,
    }
    # The player's own part of the room's answer, not the room's: a phone asking every
    # few seconds is answered 304, without a page made, until their own night changes.
    own = json.dumps(
        [shown, player.display_name, player.pk, str(night), night.venue, get_language()],
        sort_keys=True,
        default=str,
    )
    etag = f'"{hashlib.blake2b(own.encode(), digest_size=12).hexdigest()}"'
    if etag in request.headers.get("If-None-Match", ""):
        return HttpResponseNotModified(headers={"ETag": etag})
    answer = render(
        request,
        "pages/my_night.html",
        {"night": night, "player": player, "link_preview": link_preview(request, night), **shown},
    )
    answer["ETag"] = etag
    answer["Cache-Control"] = "private, no-cache"
    return answer
