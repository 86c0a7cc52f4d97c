"""The entry form offers the season's deck and says each number's range before Save
(issue 56, 5 and 6): a card pad offers only the cards of the deal's deck (the engine's
``deck_for``: Comp-13's jokers come from the match's rules), the server refuses a card
outside it with the field and the card named in the scorer's language, and every number
field shows the range the engine's rules allow (a hint by the field, ``min`` and ``max``)."""

from __future__ import annotations

import html
import re

import pytest
from django.utils import translation

import engine
from engine.games.declarer import DeclarerGame
from engine.games.onetwothreefour import OneTwoThreeFour
from tests.conftest import HANDLES
from tests.web.test_card_pads import entry_sections, typeable
from tournaments.models import Deal

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _season_counts_every_game(season):
    season.games = sorted(engine.GAMES)
    season.save()


def entry_page(client, match, language="en") -> str:
    client.cookies["django_language"] = language
    return client.get(f"/matches/{match.pk}/enter/").content.decode()


def pads(page: str) -> set[str]:
    """Every card the page's pads can type."""
    return set().union(*(typeable(s) for s in entry_sections(page) if 'class="cardpad' in s))


def comp13_form(**cards: str) -> dict[str, str]:
    return {f"cap_{h}": cards.get(h, "") for h in ("aki", "ben", "chika", "dai")}


# -- the deck: the pad offers it, the server holds to it -------------------------------------


@pytest.mark.parametrize("jokers", [0, 1])
def test_the_comp13_pad_offers_the_joker_only_in_a_deck_with_one(
    client, scorer, make_match, jokers
):
    match = make_match("comp13", ["aki", "ben", "chika", "dai"], rules={"jokers": jokers} or None)
    client.force_login(scorer)
    page = entry_page(client, match)
    offered = pads(page)
    faces = {s + r for s in "SHDC" for r in ("A", "10", "J", "Q", "K")}
    assert offered == (faces | {"JK"} if jokers else faces)
    assert ("the joker" in page) == bool(jokers)  # the hint says what the pad holds


def test_a_match_without_rules_plays_comp13_without_jokers(client, scorer, make_match):
    """Matches drawn for a club night carry no rules: the engine's default, no joker."""
    match = make_match("comp13", ["aki", "ben", "chika", "dai"])
    assert "JK" not in engine.GAMES["comp13"].deck_for(4, match.rules)
    client.force_login(scorer)
    assert "JK" not in pads(entry_page(client, match))


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", ["Aki: captured", "no joker", "JK"]), ("ja", ["取札", "ジョーカーはありません", "JK"])],
)
def test_a_joker_in_a_deck_without_one_is_refused_by_the_server_with_its_field(
    client, scorer, make_match, language, words
):
    """The pad offers no joker; a form sent by hand (or an old page) that names one is
    refused before anything is stored, the field and the card named."""
    match = make_match("comp13", ["aki", "ben", "chika", "dai"])
    client.force_login(scorer)
    client.cookies["django_language"] = language
    response = client.post(
        f"/matches/{match.pk}/enter/", comp13_form(aki="JK SA", ben="HK", chika="DQ")
    )
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    summary = page[page.index('id="error-summary"') :]
    summary = summary[: summary.index("</div>")]
    for word in words:
        assert word in summary, summary
    assert 'href="#field-cap_aki"' in summary
    assert not Deal.objects.filter(match=match).exists()


def test_the_same_joker_is_stored_where_the_match_plays_with_jokers(client, scorer, make_match):
    match = make_match("comp13", ["aki", "ben", "chika", "dai"], rules={"jokers": 1})
    client.force_login(scorer)
    response = client.post(
        f"/matches/{match.pk}/enter/", comp13_form(aki="JK SA", ben="HK", chika="DQ")
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Deal.objects.get(match=match).record["captured"]["aki"] == ["JK", "SA"]


def test_a_second_joker_where_the_match_plays_with_one_is_refused(client, scorer, make_match):
    match = make_match("comp13", ["aki", "ben", "chika", "dai"], rules={"jokers": 1})
    client.force_login(scorer)
    response = client.post(f"/matches/{match.pk}/enter/", comp13_form(aki="JK", ben="JK"))
    assert response.status_code == 200
    assert "JK appears more than 1 time(s)" in html.unescape(response.content.decode())
    assert not Deal.objects.exists()


def test_napoleon_names_the_joker_as_adjutant_card_and_twenty_two_refuses_it(
    client, scorer, make_match
):
    """A game whose deck holds a joker (Napoleon: 53 cards) and one whose deck has none
    (Twenty-Two): the pad offers it to the first alone, the server refuses it in the second."""
    client.force_login(scorer)
    napoleon = make_match("napoleon", ["aki", "ben", "chika", "dai"])
    assert "JK" in pads(entry_page(client, napoleon))
    response = client.post(
        f"/matches/{napoleon.pk}/enter/",
        {
            "declarer": "aki",
            "trump": "spades",
            "count": "14",
            "adjutant_cards": "JK",
            "adjutants": ["ben"],
            "pc_aki": "9",
            "pc_ben": "6",
            "pc_chika": "3",
            "pc_dai": "2",
            "discarded": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    twentytwo = make_match("twentytwo", ["aki", "ben", "chika"])
    assert "JK" not in pads(entry_page(client, twentytwo))
    response = client.post(
        f"/matches/{twentytwo.pk}/enter/",
        {"dealer": "aki", "last_aki": "JK", "last_ben": "H2", "last_chika": "D3"},
    )
    page = html.unescape(response.content.decode())
    assert response.status_code == 200 and "no joker (JK)" in page
    assert 'href="#field-last_aki"' in page
    assert not twentytwo.deals.exists()


@pytest.mark.parametrize("game", sorted(engine.GAMES))
def test_every_pad_offers_only_the_cards_of_the_deals_deck(client, scorer, make_match, game):
    rules = engine.GAMES[game]
    client.force_login(scorer)
    for n in sorted(rules.player_counts & set(range(2, len(HANDLES) + 1)))[:3]:
        match = make_match(game, HANDLES[:n])
        offered = pads(entry_page(client, match))
        assert offered <= set(rules.deck_for(n, match.rules)), (n, offered)
        match.seats.all().delete()
        match.delete()


def test_rettlers_pad_offers_its_jokers_and_bridges(client, scorer, make_match):
    """The 108-card double deck: the suit pad, the joker and the bridge (ブリッジ)."""
    client.force_login(scorer)
    match = make_match("rettler", HANDLES[:6])
    assert pads(entry_page(client, match)) == set(engine.GAMES["rettler"].deck_for(6, {}))
    assert sum(engine.GAMES["rettler"].deck_for(6, {}).values()) == 108


# -- the ranges: said before Save, from the engine's rules ------------------------------------


def number_input(page: str, name: str) -> dict[str, str]:
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', page).group(0)
    return dict(re.findall(r'([\w-]+)="([^"]*)"', tag))


def hint(page: str, name: str) -> str:
    found = re.search(rf'id="id_{name}_helptext">([^<]*)<', page)
    return html.unescape(found.group(1)).strip() if found else ""


@pytest.mark.parametrize(
    ("game", "n"), [("napoleon", 4), ("napoleon", 3), ("napoleon", 6), ("rettler", 6)]
)
def test_the_count_declared_says_the_engines_range_before_save(client, scorer, make_match, game, n):
    rules = engine.GAMES[game]
    assert isinstance(rules, DeclarerGame)
    (allowed,) = rules.adjutant_choices(n)
    low, high = rules.count_range(n, allowed)
    match = make_match(game, HANDLES[:n])
    client.force_login(scorer)
    page = entry_page(client, match)
    attrs = number_input(page, "count")
    assert (attrs["min"], attrs["max"]) == (str(low), str(high))
    assert hint(page, "count") == f"{low}–{high}"
    assert attrs["aria-describedby"] == "id_count_helptext"
    assert hint(entry_page(client, match, "ja"), "count") == f"{low}〜{high}"


def test_napoleon_at_four_is_14_to_20_as_the_rulebook_says(client, scorer, make_match):
    match = make_match("napoleon", HANDLES[:4])
    client.force_login(scorer)
    page = entry_page(client, match)
    assert hint(page, "count") == "14–20"
    assert hint(page, "discarded") == f"0–{engine.GAMES['napoleon'].widow_size(4)}"
    for h in HANDLES[:4]:
        assert hint(page, f"pc_{h}") == "0–20"
        assert number_input(page, f"pc_{h}")["max"] == "20"


def test_rettler_at_five_says_both_ranges_by_the_adjutants_allowed(client, scorer, make_match):
    rettler = engine.GAMES["rettler"]
    assert isinstance(rettler, DeclarerGame)
    one, two = (rettler.count_range(5, a) for a in (1, 2))
    match = make_match("rettler", HANDLES[:5])
    client.force_login(scorer)
    page = entry_page(client, match)
    said = hint(page, "count")
    assert said == f"{one[0]}–{one[1]} with 1 adjutant / {two[0]}–{two[1]} with 2 adjutants"
    assert number_input(page, "count")["min"] == str(min(one[0], two[0]))
    assert f"{one[0]}〜{one[1]}" in hint(entry_page(client, match, "ja"), "count")


def test_a_count_outside_the_range_is_refused_and_nothing_stored(client, scorer, make_match):
    match = make_match("napoleon", HANDLES[:4])
    client.force_login(scorer)
    form = {
        "declarer": "aki",
        "trump": "spades",
        "count": "13",
        "adjutant_cards": "SA",
        "pc_aki": "9",
        "pc_ben": "6",
        "pc_chika": "3",
        "pc_dai": "2",
        "discarded": "0",
    }
    for language in ("en", "ja"):
        with translation.override(language):
            client.cookies["django_language"] = language
            response = client.post(f"/matches/{match.pk}/enter/", form)
        assert response.status_code == 200
        assert 'href="#field-count"' in response.content.decode()
    assert not match.deals.exists()


def test_the_drop_out_numbers_of_1234_stop_before_the_last_player(client, scorer, make_match):
    rules = engine.GAMES["1234"]
    assert isinstance(rules, OneTwoThreeFour)
    match = make_match("1234", HANDLES[:4])
    client.force_login(scorer)
    page = entry_page(client, match)
    most = rules.most_dropped(4)
    assert most == 3
    assert hint(page, "drop_aki") == f"1–{most}"
    assert number_input(page, "drop_aki")["max"] == str(most)


def test_a_refusal_names_a_card_as_the_pad_shows_it(client, scorer, make_match):
    """The form shows ♠A; the refusal says ♠A too (not the record's SA), in Japanese as
    well; a joker stays JK, as on the pad."""
    match = make_match("comp13", ["aki", "ben", "chika", "dai"])
    client.force_login(scorer)
    response = client.post(f"/matches/{match.pk}/enter/", comp13_form(aki="SA", ben="SA"))
    page = html.unescape(response.content.decode())
    assert response.status_code == 200 and "♠A appears more than 1 time(s)" in page
    assert "SA appears" not in page
    client.cookies["django_language"] = "ja"
    response = client.post(f"/matches/{match.pk}/enter/", comp13_form(aki="SA", ben="SA"))
    assert "♠A" in html.unescape(response.content.decode())
    assert not Deal.objects.exists()
