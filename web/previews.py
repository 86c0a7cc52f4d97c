"""Link previews (issue 58, 3): the Open Graph tags of the public pages, decided in one
place.

- **Public** (:func:`public`) is asked of the object a page shows, as an anonymous reader
  meets it (``tournaments.access.visible`` with an anonymous user), whoever reads the
  page: a public season's pages carry the tags even for its members, a private season's
  pages carry none even for them, nor do the pages that are never anyone's to share (a
  table's page, the PIN pages, the setup and account pages: their views ask for none).
- **The tags** (:func:`link_preview`): a page's view puts the answer in its context as
  ``link_preview`` and ``templates/base.html`` writes ``og:title``, ``og:type``,
  ``og:image`` (1200×630, ``web.pages.previews``), ``og:url``, ``og:description``,
  ``og:site_name``, ``og:locale`` and ``twitter:card``, every URL absolute.  Their words
  say only what an anonymous reader of the page reads on it.
- **The language** a link carries: ``?lang=ja`` (or ``en``) shows a page in that language
  whatever the cookie says (:class:`LanguageInLink`: a crawler sends no cookie), and a
  page's ``og:image`` names the page's language, so a link shared in Japanese previews
  in Japanese.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db.models import F, Model
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from tournaments.access import visible
from tournaments.games import label
from tournaments.models import Club, ClubNight, Match, Player, Season
from tournaments.names import night_label, table_label

ANONYMOUS = AnonymousUser()
LOCALES = {"en": "en_US", "ja": "ja_JP"}


def public(obj: Model) -> bool:
    """Whether an anonymous reader may read ``obj`` (a club: one of its seasons)."""
    if isinstance(obj, Club):
        return visible(Season.objects.filter(club=obj), ANONYMOUS).exists()
    return visible(type(obj)._default_manager.filter(pk=obj.pk), ANONYMOUS).exists()


def public_seasons() -> Any:
    """The seasons an anonymous reader reads (the images' own question)."""
    return visible(Season.objects.select_related("club"), ANONYMOUS)


def public_nights() -> Any:
    return visible(ClubNight.objects.select_related("season__club"), ANONYMOUS)


def _latest(seasons: Any) -> Season | None:
    return seasons.order_by(F("starts_on").desc(nulls_last=True), "-pk").first()


def image_of(obj: Model) -> tuple[str, int] | None:
    """The image route and id that pictures ``obj``: a season's standings, a night (a
    match's too); a player's or a club's latest public season's standings."""
    if isinstance(obj, Season):
        return "season_preview", obj.pk
    if isinstance(obj, ClubNight):
        return "night_preview", obj.pk
    if isinstance(obj, Match):
        return "night_preview", obj.table.club_night_id
    if isinstance(obj, Player):
        season = _latest(public_seasons().filter(standings__player=obj).distinct())
        season = season or _latest(
            public_seasons().filter(club_nights__tables__matches__seats__player=obj).distinct()
        )
    elif isinstance(obj, Club):
        season = _latest(public_seasons().filter(club=obj))
    else:
        return None
    return ("season_preview", season.pk) if season else None


def words(obj: Model) -> tuple[str, str]:
    """The title and the description of ``obj``'s preview, in the active language."""
    if isinstance(obj, Season):
        games = ", ".join(label(g) for g in obj.games)
        return obj.name, _("%(club)s: the standings of %(season)s (%(games)s)") % {
            "club": obj.club.name,
            "season": obj.name,
            "games": games,
        }
    if isinstance(obj, ClubNight):
        return f"{obj.season.name} – {night_label(obj)}", _(
            "%(club)s: the standings and tables of the club night %(night)s"
        ) % {"club": obj.season.club.name, "night": night_label(obj)}
    if isinstance(obj, Match):
        night = obj.table.club_night
        players = ", ".join(p.shown_name for p in obj.seated_players())
        title = f"{label(obj.game)} – {table_label(obj.table.name)} – {night_label(night)}"
        return title, f"{night.season.club.name} · {night.season.name}: {players}"
    if isinstance(obj, Player):
        return obj.shown_name, _("%(club)s: %(name)s's matches, points and ratings") % {
            "club": obj.club.name,
            "name": obj.shown_name,
        }
    if isinstance(obj, Club):
        return obj.name, _("%(club)s: its seasons, club nights and standings") % {"club": obj.name}
    return "", ""


def link_preview(request: HttpRequest, obj: Model, title: str = "") -> dict[str, Any] | None:
    """The page's Open Graph tags (``link_preview`` in its context), or ``None`` when
    ``obj`` is not public.  ``title``: the page's own, when it is not the object's."""
    if not public(obj):
        return None
    shown, description = words(obj)
    language = translation.get_language() or settings.LANGUAGE_CODE
    image = image_of(obj)
    tags: dict[str, Any] = {
        "title": title or shown,
        "type": "profile" if isinstance(obj, Player) else "website",
        "url": request.build_absolute_uri(),
        "description": description,
        "site_name": "Clubscore",
        "locale": LOCALES.get(language, "en_US"),
        "alternates": [v for k, v in LOCALES.items() if k != language],
        "image": "",
    }
    if image is not None:
        route, pk = image
        path = f"{reverse(route, args=[pk])}?lang={language}"
        tags.update(image=request.build_absolute_uri(path), width=1200, height=630)
    return tags


class LanguageInLink:
    """``?lang=en`` or ``?lang=ja``: the page in that language, whatever the cookie and the
    browser say (sits after ``LocaleMiddleware``).  A crawler sends no cookie: a link
    shared with its language previews in it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.languages = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        wanted = request.GET.get("lang", "")
        if wanted in self.languages:
            translation.activate(wanted)
            request.LANGUAGE_CODE = wanted
        return self.get_response(request)
