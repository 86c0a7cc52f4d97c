"""Template tags: game names (their Japanese names with an English gloss, from the
games' web modules) and the download formats."""

from collections.abc import Iterable
from typing import Any

from django import template
from django.conf import settings
from django.utils.translation import gettext as _

from scoring.exports import EXPORTERS, Exporter
from tournaments import access
from tournaments.games import label
from tournaments.names import table_label as _table_label
from tournaments.ranking import plain

register = template.Library()


@register.filter
def game_label(name: str) -> str:
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
def table_label(name: str) -> str:
    """A table's name in the reader's language (``Table 3`` → 「卓 3」)."""
    return _table_label(name)


@register.filter
def night_label(night: Any) -> str:
    """A club night as every list names it: its date and its venue, so that two nights on
    one date (two rooms, an afternoon and an evening) are told apart."""
    return f"{night.date:%Y-%m-%d} {night.venue}".strip()


@register.filter
def table_place(table: Any) -> str:
    """A table as a list of matches names it: its round (a night in rounds), then its name
    in the reader's language (「第 2 ラウンド · 卓 1」).  Read with ``table__round``."""
    name = _table_label(table.name)
    if table.round_id is None:
        return name
    return _("Round %(n)s") % {"n": table.round.number} + f" · {name}"


SUIT_MARKS = {"S": "♠", "H": "♡", "D": "♢", "C": "♣"}


@register.filter
def card_label(code: str) -> str:
    """A card as people read it: ``SA`` → ♠A, ``H10`` → ♡10 (the joker, the bridge: JK, BR)."""
    return SUIT_MARKS[code[0]] + code[1:] if code[:1] in SUIT_MARKS and len(code) > 1 else code


@register.simple_tag
def sign_up_open() -> bool:
    """Whether the sign-up page takes new clubs (``ALLOW_SIGN_UP``)."""
    return bool(settings.ALLOW_SIGN_UP)


# Lists written inline ("Aki, Ben, Chika"): a filter each, so that a template's loop never
# has to sit on one line to keep its commas next to the names (djLint lays out the rest).
@register.filter
def names(people: Iterable[Any]) -> str:
    """Players, or seats (their players), by display name: ``Aki, Ben, Chika``."""
    return ", ".join(getattr(p, "player", p).display_name for p in people)


@register.filter
def game_labels(games: Iterable[str]) -> str:
    """Games by their labels, in order: ``レットラー Rettler, ナポレオン Napoleon``."""
    return ", ".join(label(g) for g in games)


@register.filter
def signed_scores(scores: Iterable[tuple[str, int]]) -> str:
    """A deal's scores as the room display lists them: ``Aki +3, Ben -3`` (``live.js`` too)."""
    return ", ".join(f"{name} {score:+d}" for name, score in scores)


@register.filter
def score(value: Any) -> int | float:
    """A leaderboard's score: whole (412), or with its places (12.333)."""
    return plain(value)
