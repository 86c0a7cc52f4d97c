"""A player's own night (issue 41, 1): "my table, my score, my rank tonight, my next
table", from the table's code (its link, with no account) or as a reader of the night.

``/nights/N/me/`` asks who you are (the night's players, one tap; a signed-in player
seated tonight is taken to their own night, ``?everyone`` lists the others; a phone
that tapped a name there before, at any night of the club, finds it first, marked as
its own: :func:`remember`); ``?player=M`` shows that player's night, read from the
room display's cached answer (``scoring.live_cache.cached_live``, refreshed by a worker
as the display's).  The page's script asks for its own part alone (``&part=mine``)
every few seconds: one small query (who may read the night; the player is found in the
room's answer), answered 304 (no part made) while the player's own part of the night
(their lines, their table, the round, their deals waiting for a confirmation) is the
one its ETag was made of: deals at other tables do not change it.  The page is for those who read the night (its club;
everyone for a public season) and for whoever holds a working link of one of its
tables: nothing else is shown to anyone.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, Sum
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scoring import finals, live_cache
from scoring.tasks import live_refresher
from tournaments import access, table_links
from tournaments.games import label
from tournaments.models import ClubNight, Deal, Player, Round, waiting_deals
from tournaments.names import reading_order, table_label
from tournaments.textfile import whole_number
from web.caching import keep_private
from web.pages.tables import may_score
from web.previews import link_preview

PART = "mine"
"""``?part=mine``: the player's own part alone (``#mine``'s content), which the page's
script (``static/clubscore/mine.js``) asks for every few seconds: no page around it."""


EVERYONE = "everyone"
"""``?everyone``: the list of the night's players, even for a signed-in player seated
tonight (who is otherwise taken to their own night)."""


REMEMBER = "me"
"""``?player=M&me``: the name tapped on "Who are you?" (not on "Someone else"'s list):
remembered on this phone (:func:`remember`), then the player's night without it."""

KEPT_FOR = 365 * 24 * 3600
"""How long a phone remembers whose it is: a season and more of club nights."""


def _cookie(night: ClubNight) -> str:
    return f"me-{night.season.club_id}"


def remember(answer: HttpResponse, night: ClubNight, player: int) -> None:
    """This phone is ``player``'s at every night of the night's club: a signed cookie of
    the club (one per club; nothing stored on the server).  It only orders the names
    "Who are you?" shows anyway (:func:`remembered`): whoever forges or copies it sees
    nothing more."""
    answer.set_signed_cookie(
        _cookie(night),
        str(player),
        salt=__name__,
        max_age=KEPT_FOR,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def remembered(request: HttpRequest, night: ClubNight) -> int | None:
    """The player this phone tapped last at a night of the club (:func:`remember`)."""
    kept = request.get_signed_cookie(_cookie(night), default=None, salt=__name__)
    return whole_number(kept) if kept else None


def _night(request: HttpRequest, pk: int, page: bool = True) -> ClubNight:
    """The night, for a reader of it (one query) or a holder of one of its tables' links;
    its season and club with it for a ``page`` (its title names them)."""
    nights = ClubNight.objects.filter(pk=pk)
    if page:
        nights = nights.select_related("season__club")
    night = access.visible(nights, request.user).first()
    if night is None and table_links.holds_night(request.session, pk):
        night = nights.first()
    if night is None:
        raise Http404
    return night


def _player_of(night: ClubNight, asked: str, data: dict[str, Any], user: Any) -> tuple[int, bool]:
    """The id of the player ``?player=`` names, and whether they are at the night (played
    at it or came to it): no query when the room's answer ``data`` shows them (seated in
    its round, sitting it out, or on tonight's boards), else one (two for a holder of a
    table's link who may not read the club's players).  A player of the club
    who is not at the night (yet) is shown to a reader who may see them
    (``access.visible``), as the list of names before the draw offers them; anyone else
    is not found."""
    number = whole_number(asked) or 0
    shown = {int(n) for n in data.get("players", {})}
    shown.update(*(t.get("ids", []) for t in data["tables"]))
    shown.update((data.get("round") or {}).get("sat_out_ids", []))
    if number in shown:
        return number, True
    came = ClubNight.present.through.objects.filter(clubnight_id=night.pk).values("player_id")
    at_night = Q(seats__match__table__club_night=night) | Q(pk__in=came)
    player = (
        access.visible(Player.objects.filter(pk=number, club__seasons=night.season_id), user)
        .annotate(at_night=Exists(Player.objects.filter(at_night, pk=OuterRef("pk"))))
        .values_list("pk", "at_night")
        .first()
    )
    if player is None:
        if Player.objects.filter(at_night, pk=number).exists():  # a table link's holder
            return number, True
        raise Http404
    return player


def waiting_for(request: HttpRequest, night: ClubNight, player: int) -> list[dict[str, Any]]:
    """The player's deals of the night that wait for a second person's confirmation (the
    standings do not count them yet), each with the player's score in it, and where it is
    confirmed (the PIN page) when this phone may use it (the table's scorer or link)."""
    deals = (
        Deal.objects.filter(waiting_deals(), match__table__club_night=night, scores__player=player)
        .select_related("match__table")
        .annotate(mine=Sum("scores__score", filter=Q(scores__player=player)))
        .order_by("entered_at", "pk")
    )
    here = reverse("my_night", args=[night.pk]) + f"?player={player}"
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


def _etag(*shown: object) -> str:
    """A strong ETag of what an answer shows."""
    text = json.dumps(shown, sort_keys=True, default=str)
    return f'"{hashlib.blake2b(text.encode(), digest_size=12).hexdigest()}"'


def _answer(request: HttpRequest, etag: str, template: str, shown: dict[str, Any]) -> HttpResponse:
    """304 when the phone holds ``etag`` already (no page made), else the page."""
    if etag in request.headers.get("If-None-Match", ""):
        return HttpResponseNotModified(headers={"ETag": etag})
    answer = render(request, template, shown)
    answer["ETag"] = etag
    answer["Cache-Control"] = "private, no-cache"
    return answer


def _who_are_you(request: HttpRequest, night: ClubNight) -> HttpResponse:
    """The night's players to tap (seated at its tables or marked present), the reader's
    own first (signed in, or the name this phone tapped here last: :func:`remember`, a
    name tapped on "Who are you?", not on "Someone else"'s list); a signed-in player
    seated tonight goes straight to their own night (``?everyone`` lists the others, as
    "Someone else" asks).  The reader's own player not at the night's tables (signed in,
    or this phone's, drawn without them) is told so, and offered this phone's messages
    for when they are seated.  Before anyone is seated, a player can still be told on
    this phone when their table is drawn (or the night called off): a signed-in player
    follows themselves here; anyone else taps their name for their page, which offers it
    (the club's players the reader may see; one who may not see them all, not the club's
    member, is told who is listed and how else to find their night)."""
    players = {
        p.pk: p for p in Player.objects.filter(seats__match__table__club_night=night).distinct()
    }
    for p in night.present.all():
        players.setdefault(p.pk, p)
    own = (
        Player.objects.filter(user=request.user, club=night.season.club_id).first()
        if request.user.is_authenticated
        else None
    )
    seated = players.get(own.pk) if own is not None else None  # the reader, tonight
    if seated is not None and EVERYONE not in request.GET:
        return redirect(f"{request.path}?player={seated.pk}")  # their own night, no tap
    pages = []  # nobody at the night yet: the players' own pages, which offer the messages
    some_unlisted = False  # the reader may not see every player of the club: say who is listed
    if not players and own is None:
        club_players = Player.objects.filter(club=night.season.club_id)
        pages = reading_order(access.visible(club_players, request.user))
        some_unlisted = len(pages) < club_players.count()
    # The reader's own name first: signed in and seated tonight, or the name this phone
    # tapped last (only among the names listed here anyway).
    you = seated.pk if seated is not None else remembered(request, night)
    absent = None  # this phone's player, whom the night's tables leave out
    if own is None and players and you is not None and you not in players:
        mine = Player.objects.filter(pk=you, club=night.season.club_id)
        absent = access.visible(mine, request.user).first()
    shown = {
        "night": night,
        "players": _first(reading_order(players.values()), you),  # as every list: 五十音
        "own": own,
        "me": own if own is not None else absent,  # told when not at the night's tables
        "own_tonight": seated is not None,
        "you": you,
        "remember": EVERYONE not in request.GET,  # "Who are you?", not "Someone else"
        "pages": _first(pages, you),
        "some_unlisted": some_unlisted,
        "link_preview": link_preview(request, night),
    }
    answer = render(request, "pages/my_night.html", shown)
    patch_vary_headers(answer, ["Cookie"])
    if _cookie(night) in request.COOKIES:  # ordered for this phone alone
        keep_private(answer)
    return answer


def _first(players: list[Player], you: int | None) -> list[Player]:
    """``players`` with ``you`` first, if listed."""
    mine = [p for p in players if p.pk == you]
    return [*mine, *(p for p in players if p.pk != you)]


@require_safe
def my_night(request: HttpRequest, pk: int) -> HttpResponse:
    asked = request.GET.get("player")
    part = asked is not None and request.GET.get("part") == PART  # the page's own script
    night = _night(request, pk, page=not part)
    if asked is None:
        return _who_are_you(request, night)
    # As the room display's API: a stale answer is refreshed by a worker, not by a phone.
    _tag, body = live_cache.cached_live(night, False, live_refresher(night, False))
    data = json.loads(body)
    player, at_night = _player_of(night, asked, data, request.user)
    if REMEMBER in request.GET and not part:  # tapped on "Who are you?": this phone's
        answer = redirect(f"{request.path}?player={player}")
        remember(answer, night, player)
        keep_private(answer)
        return answer
    found = {**mine(data, player), "drawn": bool(data["tables"])}
    shown = {  # no deal of the night waits (the room's count): none of the player's either
        "waiting": waiting_for(request, night, player) if data.get("waiting") else [],
        "final": final_label(night, found),
        # "Tonight" on the night's date, "At this night" before and after it.
        "tonight": night.date == timezone.localdate(),
        # Over (its date and the day after, for a night past midnight, gone): nothing to
        # follow, no "your next table shows here".
        "over": night.date < timezone.localdate() - dt.timedelta(days=1),
        **found,
    }
    # The player's own part of the room's answer, not the room's: a phone asking every
    # few seconds is answered 304, without a page made, until their own night changes.
    part_tag = _etag(shown, get_language())
    if part:
        return _answer(request, part_tag, "pages/_my_night_mine.html", shown)
    who = Player.objects.get(pk=player)
    etag = _etag(shown, get_language(), who.shown_name, who.pk, at_night, str(night), night.venue)
    page = {
        "night": night,
        "player": who,
        "at_night": at_night,
        "link_preview": link_preview(request, night),
    }
    return _answer(request, etag, "pages/my_night.html", {**page, **shown, "part_tag": part_tag})
