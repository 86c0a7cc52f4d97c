"""Template tags: game names (their Japanese names with an English gloss, from the
games' web modules) and the download formats."""

from collections.abc import Iterable

from django import template

from scoring.exports import EXPORTERS, Exporter
from tournaments.games import label

register = template.Library()


@register.filter
def game_label(name: str) -> str:
    return label(name)


@register.simple_tag
def export_formats() -> Iterable[Exporter]:
    """Every download format, for the pages' links."""
    return EXPORTERS.values()
