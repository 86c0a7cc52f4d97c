"""Every field reachable on a touch phone: a card field shows no keyboard
(``inputmode="none"``), so every one stands in a section of the entry and correction
forms with a card pad that types into it; the pad holds every card of the game's deck."""

from __future__ import annotations

import re

import pytest

import actions.deals
import actions.matches
import engine
from tests.conftest import HANDLES
from tournaments.games import league_game
from tournaments.games.base import demo_deals
from tournaments.games.fields import RANKS, SUITS
from tournaments.models import Player

pytestmark = pytest.mark.django_db

NO_KEYBOARD = re.compile(r'<(?:input|textarea)[^>]*inputmode="none"[^>]*>')


def entry_sections(page: str) -> list[str]:
    """The markup of each ``<div class="entry-section">`` of ``page``, to its own closing
    tag (the divs inside it counted), however the template lays it out."""
    sections = []
    for start in (m.start() for m in re.finditer(r'<div class="entry-section"', page)):
        depth, at = 0, start
        for tag in re.finditer(r"<(/?)div\b", page[start:]):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                at = start + tag.end()
                break
        sections.append(page[start:at])
    return sections


def padless_fields(page: str) -> list[str]:
    """The keyboard-less fields of ``page`` with no card pad in their section."""
    sections = entry_sections(page)
    assert sections, "the form's sections are not marked"
    inside = sum(len(NO_KEYBOARD.findall(s)) for s in sections)
    assert inside == len(NO_KEYBOARD.findall(page)), "a keyboard-less field outside the sections"
    return [
        re.search(r'name="([^"]+)"', field).group(1)
        for s in sections
        if 'class="cardpad' not in s
        for field in NO_KEYBOARD.findall(s)
    ]


def typeable(section: str) -> set[str]:
    """The cards a section's pad can type: a suit then a rank, and its own codes."""
    codes = set(re.findall(r'data-code="([^"]+)"', section))
    if "data-suit=" in section:
        ranks = re.findall(r'data-rank="([^"]+)"', section)
        codes |= {s + r for s in re.findall(r'data-suit="([^"]+)"', section) for r in ranks}
    return codes


@pytest.mark.parametrize("game", sorted(engine.GAMES))
def test_every_card_field_has_a_pad_on_the_entry_and_correction_pages(
    game, club, season, table, scorer, client
):
    season.games = sorted(engine.GAMES)
    season.save()
    rules = engine.GAMES[game]
    count = max(n for n in rules.player_counts if n <= len(HANDLES))
    handles = HANDLES[:count]
    seated = [Player.objects.create(club=club, handle=h, display_name=h.title()) for h in handles]
    match = actions.matches.create_match(table, game, seated)
    client.force_login(scorer)
    entry = client.get(f"/matches/{match.pk}/enter/").content.decode()
    first = demo_deals(league_game(game), 3, handles, first_in_full=False, most=1)[0]
    deal = actions.deals.enter_deal(match, first, user=scorer).stored()
    correction = client.get(f"/deals/{deal.pk}/correct/").content.decode()
    for page in (entry, correction):
        assert padless_fields(page) == []
        if game in ("napoleon", "rettler"):  # the adjutant card: any card of the deck
            padded = [s for s in entry_sections(page) if 'class="cardpad' in s]
            assert padded and set(rules.deck()) <= typeable(padded[0])


def test_the_suit_pad_types_every_card_of_a_plain_deck():
    assert {s + r for s in SUITS for r in RANKS} == {
        c for c in engine.GAMES["napoleon"].deck() if c != "JK"
    }
