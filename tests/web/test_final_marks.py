"""A final once seated (issue 56): the rounds page marks each division's final table as the
proposal did, a player at one reads on their own night that it is the final, and the
season page's link to the final in progress goes to the viewed division's final table.
The final tables are those ``scoring.finals.final_matches`` names: each division's first
table in the order seated, whatever the tables' names sort like."""

from __future__ import annotations

import re

import pytest

from scoring.finals import final_matches, season_final
from tests.markup import squeezed
from tests.web.test_final_seeding import (  # noqa: F401 (a fixture)
    a_season,
    director,
    final_night,
    proposal_seating,
)
from tournaments import divisions
from tournaments.models import Match, Round

pytestmark = pytest.mark.django_db


def seated_final(page, night, players, **more) -> Round:
    """The final drawn and confirmed on the rounds page, as a director does."""
    url = f"/nights/{night.pk}/rounds/"
    form = {
        "game": "napoleon",
        "method": "final",
        "size": "4",
        "others": "balanced",
        "deals": "2",
        "players": [p.pk for p in players],
        **more,
    }
    proposed = page.post(url, {**form, "action": "propose"}, follow=True)
    assert proposed.status_code == 200
    seating = proposal_seating(proposed.content.decode())
    done = page.post(url, {**form, **seating, "action": "confirm", "confirm_unqualified": "1"})
    assert done.status_code == 302
    return Round.objects.get(club_night=night, method="final")


def marks(html: str) -> dict[str, str]:
    """Each marked table of the rounds page: its name → its mark."""
    found = re.findall(
        r'<li><strong>([^<]+)</strong>·<strong class="final-mark">([^<]+)</strong>',
        squeezed(html),
    )
    return dict(found)


@pytest.fixture
def two_divisions(director):  # noqa: F811 (the fixture imported above)
    """Sixteen players in divisions A and B, eight each: each division's final table of
    four and a table of its other four; the final confirmed on the page."""
    season, people = a_season("fin", 16, "A B")
    night = final_night(season)
    page = director(season.club)
    made = seated_final(page, night, people)
    return season, night, page, made


def test_the_rounds_page_marks_each_division_final_once_seated(two_divisions):
    season, night, page, made = two_divisions
    placed = divisions.placed(season)
    tables = list(Match.objects.filter(table__round=made).order_by("table_id"))
    assert len(tables) == 4
    found = final_matches(made)
    assert [(f.match, f.division.name) for f in found] == [(tables[0], "A"), (tables[2], "B")]
    for f in found:  # each final seats its own division only
        assert {placed[p.pk].name for p in f.match.seated_players()} == {f.division.name}

    shown = page.get(f"/nights/{night.pk}/rounds/").content.decode()
    assert marks(shown) == {
        "Table 1": "Final table of division A",
        "Table 3": "Final table of division B",
    }
    page.cookies["django_language"] = "ja"
    ja = page.get(f"/nights/{night.pk}/rounds/").content.decode()
    assert set(marks(ja).values()) == {"ディビジョン A の決勝卓", "ディビジョン B の決勝卓"}
    assert len(marks(ja)) == 2


def test_without_divisions_one_final_table_and_other_rounds_unmarked(director):  # noqa: F811
    season, people = a_season("uno", 9)
    night = final_night(season)
    page = director(season.club)
    made = seated_final(page, night, people)
    first = Match.objects.filter(table__round=made).order_by("table_id").first()
    assert [(f.match, f.division, f.label) for f in final_matches(made)] == [
        (first, None, "Final table")
    ]
    assert marks(page.get(f"/nights/{night.pk}/rounds/").content.decode()) == {
        first.table.name: "Final table"
    }
    earlier = Round.objects.get(club_night__season=season, club_night__final=False)
    assert final_matches(earlier) == []  # a balanced round has no final table


def test_my_night_says_final_at_a_final_table_only(two_divisions):
    season, night, page, made = two_divisions
    found = final_matches(made)
    at_b = found[1].match.seated_players()[0]
    others = Match.objects.filter(table__round=made).exclude(pk__in=[f.match.pk for f in found])
    elsewhere = others.first().seated_players()[0]

    mine = squeezed(page.get(f"/nights/{night.pk}/me/?player={at_b.pk}").content.decode())
    assert '<strong class="final-mark" id="mine-final">Final table of division B</strong>' in mine
    theirs = squeezed(page.get(f"/nights/{night.pk}/me/?player={elsewhere.pk}").content.decode())
    assert 'id="mine-table"' in theirs and "mine-final" not in theirs
    assert "Final table" not in theirs

    page.cookies["django_language"] = "ja"
    ja = squeezed(page.get(f"/nights/{night.pk}/me/?player={at_b.pk}").content.decode())
    assert 'id="mine-final">ディビジョン B の決勝卓</strong>' in ja


def test_the_season_page_links_the_viewed_division_final(two_divisions):
    season, night, page, made = two_divisions
    a, b = (f.match for f in final_matches(made))

    def linked(query: str) -> int:
        shown = squeezed(page.get(f"/seasons/{season.pk}/{query}").content.decode())
        return int(re.search(r'<a href="/matches/(\d+)/" id="final-table">', shown).group(1))

    assert linked("?division=B") == b.pk
    assert linked("?division=A") == a.pk
    assert linked("?division=all") == a.pk  # no division chosen: the top division's
    assert season_final(season).match == a  # the champion still comes from division A's
    division_b = season.divisions.get(name="B")
    assert season_final(season, division_b).table == b
