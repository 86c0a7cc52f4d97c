"""Template tags: game names (each game's one name in the reader's language, from the
games' web modules), the download formats and the box to find a name in a long list."""

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django import template
from django.conf import settings
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import cards
from scoring.exports import EXPORTERS, Exporter
from tournaments import access
from tournaments.games import label, league_game
from tournaments.names import found_by, shown
from tournaments.names import night_label as _night_label
from tournaments.names import table_label as _table_label
from tournaments.names import table_place as _table_place
from tournaments.ranking import plain

register = template.Library()


@register.filter
def game_label(name: str) -> str:
    """A game's one name in the reader's language: 「ナポレオン」, "Napoleon"."""
    return label(name)


@register.simple_tag
def export_formats() -> Iterable[Exporter]:
    """Every download format, for the pages' links."""
    return EXPORTERS.values()


@register.simple_tag(takes_context=True)
def person(context: template.Context, account: Any, club: int) -> str:
    """An account as the club knows it (``access.person``): a display name; its user name
    only for readers who administer the club; nothing for anyone else."""
    reader = context["request"].user
    name = access.person(account, club, fallback=access.can_administer_club(reader, club))
    return name or ""


@register.filter
def rules_said(match: Any) -> str:
    """The match's rules variants in the reader's words, where not the game's default."""
    return league_game(match.game).rules_said(match.rules or {})


@register.filter
def season_rules(season: Any) -> list[str]:
    """The variants the season chose, game by game in the reader's words ("1234: Scoring:
    method 3, chips: …"), where not the game's default."""
    rules = season.rules if isinstance(season.rules, dict) else {}
    said = ((game, league_game(game).rules_said(rules.get(game) or {})) for game in season.games)
    return [f"{label(game)}: {words}" for game, words in said if words]


@register.filter
def table_label(name: str) -> str:
    """A table's name in the reader's language (``Table 3`` → 「卓 3」)."""
    return _table_label(name)


@register.filter
def night_label(night: Any) -> str:
    """A club night as every list names it (``tournaments.names.night_label``): its date,
    its name (or "Final"), its venue, so that two nights on one date are told apart.  The
    date is never broken at a narrow phone's line end (``2026-12-`` / ``06``); a page's
    title (``base.html``) keeps the text alone."""
    label = _night_label(night)
    date, _space, rest = label.partition(" ")
    return format_html('<span class="nowrap">{}</span>{}', date, f" {rest}" if rest else "")


@register.filter
def night_hours(night: Any) -> str:
    """When a club night meets, in its club's time zone: ``19:00–22:00``, ``19:00``,
    ``20:00–01:00 (next day)``, or nothing for a night without a start time."""
    if night.starts_at is None:
        return ""
    start = f"{night.starts_at:%H:%M}"
    if night.ends_at is None:
        return start
    if night.ends_at <= night.starts_at:  # past midnight
        return _("%(start)s–%(end)s (next day)") % {"start": start, "end": f"{night.ends_at:%H:%M}"}
    return f"{start}–{night.ends_at:%H:%M}"


@register.filter
def table_place(table: Any) -> str:
    """A table as a list of matches names it: its round (a night in rounds), then its name
    in the reader's language (「第 2 ラウンド · 卓 1」).  Read with ``table__round``."""
    return _table_place(table)


@register.filter
def card_label(code: str) -> str:
    """A card as people read it: ``SA`` → ♠A, ``H10`` → ♡10 (the joker, the bridge: JK, BR)."""
    return cards.card_label(code)


@register.simple_tag
def sign_up_open() -> bool:
    """Whether the sign-up page takes new clubs (``ALLOW_SIGN_UP``)."""
    return bool(settings.ALLOW_SIGN_UP)


# Lists written inline ("Aki, Ben, Chika"): a filter each, so that a template's loop never
# has to sit on one line to keep its commas next to the names (djLint lays out the rest).
@register.filter
def names(people: Iterable[Any]) -> str:
    """Players, or seats (their players), by the names shown (``Player.shown_name``): ``Aki, Ben, Chika``."""
    return ", ".join(getattr(p, "player", p).shown_name for p in people)


@register.filter
def game_labels(games: Iterable[str]) -> str:
    """Games by their labels, in order: ``Rettler, Napoleon`` (「レットラー, ナポレオン」)."""
    return ", ".join(label(g) for g in games)


@register.filter
def signed_scores(scores: Iterable[tuple[str, int]]) -> SafeString:
    """A deal's scores as the room display lists them: ``Aki +3, Ben -3`` (``live.js``
    too), each player's in a ``span.sc`` that a line does not break inside."""
    return format_html_join(
        ", ", '<span class="sc">{} {}</span>', ((name, f"{score:+d}") for name, score in scores)
    )


@register.filter
def deal_scores(deal: Any) -> SafeString:
    """A stored deal's scores, as :func:`signed_scores` words them (its ``scores`` prefetched
    with their players)."""
    return signed_scores((s.player.shown_name, s.score) for s in deal.scores.all())


@register.filter
def points(value: Any) -> str:
    """A score with its noun, singular for exactly one: "1 point", "12 points", "12.333
    points" (「12 点」)."""
    shown = value if isinstance(value, int) else plain(Decimal(str(value)))
    count = shown if isinstance(shown, int) else 2
    return ngettext("%(n)s point", "%(n)s points", count) % {"n": shown}


@register.filter
def score(value: Any) -> int | float:
    """A leaderboard's score: whole (412), or with its places (12.333)."""
    return plain(value)


@register.filter
def at(items: Any, index: int) -> Any:
    """The item at ``index`` of a list (``""`` past its end): a list kept beside another
    one the template loops over (``{{ labels|at:forloop.counter0 }}``)."""
    try:
        return items[index]
    except (IndexError, KeyError, TypeError):
        return ""


FIND_FROM = 20
"""A list of more names than this gets a box to find a name in (:func:`name_finder`):
a club of a hundred players scrolls past screens of them on a phone."""


register.filter("found_by", found_by)  # what else finds a player in a long list (data-also)


@register.inclusion_tag("pages/_name_finder.html")
def name_finder(target: str, count: int) -> dict[str, Any]:
    """A box to find a name in the list ``target`` (a CSS selector) of ``count`` names,
    when there are more than :data:`FIND_FROM`.  ``static/clubscore/site.js`` shows it
    (without a script the whole list is there, as before) and hides the list's items
    (those marked ``data-also``: the name in Japanese and its reading) that do not hold
    what is typed, in capitals or not, katakana and hiragana alike."""
    return {"target": target, "shown": count > FIND_FROM, "key": target.strip("#.")}


@register.filter
def scorer_of(row: Any) -> str:
    """Who scores a table (or a match's table), as the secretary's lists say it: its
    scorer's account, else the player who last said with their PIN that they score on a
    phone holding its link, "(on a phone)" after the name (rows annotated with
    ``tournaments.table_links.phone_scorer``); else "—"."""
    table = getattr(row, "table", row)
    if table.scorer_id:
        return str(table.scorer.username)
    name = getattr(row, "phone_scorer", None)
    if not name:
        return "—"
    return _("%(names)s (on a phone)") % {"names": shown(name, row.phone_scorer_ja or "")}
