"""A history people read (issue 29, 5): what a correction changed, field by field, with
players by their display names, never their handles."""

import pytest
from django.utils import translation

import actions.deals
from actions import corrections
from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tests.markup import squeezed
from tournaments.games import league_game
from tournaments.history import changes

pytestmark = pytest.mark.django_db

NAMES = {"aki": "Aki Ito", "ben": "Ben Mori", "chika": "Chika Sato", "dai": "Dai Kato"}


def test_changes_are_field_by_field_with_names():
    before = {**napoleon_deal(count=14), "game": "napoleon", "players": NAPOLEON_SEATS}
    after = {
        **napoleon_deal(count=16, adjutant="dai"),
        "adjutant_cards": ["HJ"],
        "game": "napoleon",
        "players": NAPOLEON_SEATS,
    }
    with translation.override("en"):
        found, more = changes(before, after, NAMES, league_game("napoleon"))
    lines = [(c.field, c.before, c.after) for c in found]
    assert ("declaration · count", "14", "16") in lines
    assert ("adjutant cards", "♠A", "♡J") in lines  # cards as the card pads show them
    assert ("adjutants", "Chika Sato", "Dai Kato") in lines
    assert more == 0 and not any("aki" in str(line) for line in lines)


def test_the_match_page_shows_what_changed_and_the_effect_by_name(
    make_match, scorer, club_admin, client
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    deal = actions.deals.enter_deal(match, napoleon_deal(count=14), user=scorer).stored()
    corrections.correct_deal(deal, napoleon_deal(count=16), scorer, "sixteen, not fourteen")
    client.force_login(club_admin)
    page = squeezed(client.get(f"/matches/{match.pk}/").content.decode())
    history = page[page.index("History of changes") :]
    assert "sixteen, not fourteen" in history
    assert "<td>declaration · count</td><td>14</td><td>16</td>" in history
    assert "<td>Aki</td>" in history and "<td>aki</td>" not in history  # names, not handles


def test_the_fields_are_named_in_the_readers_language():
    before, after = napoleon_deal(count=14), napoleon_deal(count=16)
    with translation.override("ja"):
        found, _more = changes(before, after, NAMES, league_game("napoleon"))
    assert [(c.field, c.before, c.after) for c in found] == [("宣言 · 立枚数", "14", "16")]


def test_a_games_own_field_is_named_by_its_game():
    """Bhabhi's ``bhabhi`` field is named by Bhabhi's league module (one game, one
    place): in Japanese バビ with the game, the plain key without it."""
    before = {"game": "bhabhi", "bhabhi": "aki"}
    after = {"game": "bhabhi", "bhabhi": "ben"}
    with translation.override("ja"):
        found, _more = changes(before, after, NAMES, league_game("bhabhi"))
        bare, _more = changes(before, after, NAMES)
    assert [(c.field, c.before, c.after) for c in found] == [("バビ", "Aki Ito", "Ben Mori")]
    assert [c.field for c in bare] == ["bhabhi"]
