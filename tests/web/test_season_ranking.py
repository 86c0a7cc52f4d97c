"""A season's ranking on its pages, its API and its files (issue 40): the season page says
how it ranks, lists the players below the qualifying minimum apart and explains a figure
on tap; the setup page and the API refuse a best N without its N, in the reader's
language, and store nothing; the files carry the score and the qualification."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.test import Client

import actions.deals
import actions.matches
from actions import seasons
from tests.conftest import client_of, napoleon_deal
from tests.markup import squeezed
from tournaments.models import ClubNight, Season, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_nights(season, table, players, scorer, django_capture_on_commit_callbacks):
    """Napoleon on two club nights: aki, ben and chika at both, dai at the first only, emi
    at the second only."""
    second = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 14), venue="Hall")
    later = Table.objects.create(club_night=second, name="Table 1", scorer=scorer)
    with django_capture_on_commit_callbacks(execute=True):
        first = actions.matches.create_match(
            table, "napoleon", [players[h] for h in "aki ben chika dai".split()]
        )
        actions.deals.enter_deal(first, napoleon_deal(count=15), user=scorer).stored()
        actions.deals.enter_deal(first, napoleon_deal(count=16), user=scorer).stored()
        other = actions.matches.create_match(
            later, "napoleon", [players[h] for h in "aki ben chika emi".split()]
        )
        points = {"aki": 2, "ben": 10, "chika": 3, "emi": 5}
        actions.deals.enter_deal(
            other, napoleon_deal("ben", "emi", 14, points), user=scorer
        ).stored()
    return season


def ranked(season, commits, **settings) -> Season:
    for name, value in settings.items():
        setattr(season, name, value)
    with commits(execute=True):
        seasons.save_season(season)
    return season


def board(client, season) -> str:
    page = squeezed(client.get(f"/seasons/{season.pk}/").content.decode())
    return page[page.index('id="game-napoleon"') :].split("</table>")[0]


def test_the_page_lists_the_players_below_the_minimum_apart(
    two_nights, club_admin, django_capture_on_commit_callbacks
):
    ranked(two_nights, django_capture_on_commit_callbacks, qualify_minimum=2)
    client = Client()
    client.force_login(club_admin)
    page = squeezed(client.get(f"/seasons/{two_nights.pk}/").content.decode())
    assert (
        '<p class="muted" id="ranking">Ranked by total points; qualified from 2 club nights</p>'
        in page
    )
    lines = board(client, two_nights)
    qualified, apart = lines.split('<tr class="apart"><th colspan="7">Not yet qualified</th></tr>')
    assert all(name in qualified for name in (">Aki<", ">Ben<", ">Chika<"))
    assert ">Dai<" in apart and ">Emi<" in apart and ">Aki<" not in apart
    assert "not yet qualified: 1 of 2 club nights" in apart
    client.cookies["django_language"] = "ja"
    japanese = board(client, two_nights)
    assert "規定未到達" in japanese and "規定未到達：1 / 2 例会" in japanese


def test_a_best_n_figure_is_explained_on_tap(
    two_nights, club_admin, django_capture_on_commit_callbacks
):
    ranked(two_nights, django_capture_on_commit_callbacks, ranking="best_nights", best_of=1)
    client = Client()
    client.force_login(club_admin)
    lines = board(client, two_nights)
    assert '<th class="num">Best club night</th>' in lines
    aki = lines[lines.index(">Aki<") :].split("</tr>")[0]
    best = two_nights.standings.get(player__handle="aki", game="napoleon")
    nights = sorted(
        (p for p in best.player.match_standings.values_list("points", flat=True)), reverse=True
    )
    assert (
        f"<summary>{nights[0]}</summary><p>best 1 of 2 club nights: {nights[0]}; left out: {nights[1]}</p>"
        in aki
    )
    assert best.score == nights[0] and best.total == sum(nights)


def test_a_best_n_without_its_n_is_refused_on_the_page_and_by_the_api_and_stores_nothing(
    two_nights, club_admin
):
    client = Client()
    client.force_login(club_admin)
    client.cookies["django_language"] = "ja"
    form = {
        "name": two_nights.name,
        "games": two_nights.games,
        "ranking": "best_nights",
        "qualify_by": "nights",
        "qualify_minimum": "0",
    }
    answer = client.post(f"/clubs/{two_nights.club.slug}/seasons/{two_nights.pk}/", form)
    assert answer.status_code == 200
    assert "1 から 999 までの整数で指定してください" in answer.content.decode()
    api = client_of(club_admin)
    refused = api.patch(
        f"/api/seasons/{two_nights.pk}/", {"ranking": "best_matches"}, format="json"
    )
    assert refused.status_code == 400
    assert [e["path"] for e in refused.json()["errors"]] == ["best_of"]
    too_many = api.patch(f"/api/seasons/{two_nights.pk}/", {"qualify_minimum": 5000}, format="json")
    assert too_many.status_code == 400
    assert [e["path"] for e in too_many.json()["errors"]] == ["qualify_minimum"]
    two_nights.refresh_from_db()
    assert (two_nights.ranking, two_nights.best_of, two_nights.qualify_minimum) == (
        "total",
        None,
        0,
    )


def test_the_api_ranks_by_a_new_method_and_says_each_lines_figure(
    two_nights, club_admin, django_capture_on_commit_callbacks
):
    api = client_of(club_admin)
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.patch(
            f"/api/seasons/{two_nights.pk}/",
            {"ranking": "per_deal", "qualify_by": "deals", "qualify_minimum": 3},
            format="json",
        )
    assert answer.status_code == 200
    assert answer.json()["ranking"] == "per_deal" and answer.json()["best_of"] is None
    lines = api.get(f"/api/standings/?season={two_nights.pk}&game=napoleon").json()
    lines = lines.get("results", lines)
    by_handle = {line["handle"]: line for line in lines}
    assert not by_handle["dai"]["qualified"] and by_handle["aki"]["qualified"]
    aki = by_handle["aki"]
    assert aki["score"] == round(aki["total"] / aki["deals"], 3)
    assert max(line["rank"] for line in lines if line["qualified"]) < by_handle["dai"]["rank"]


def test_the_standings_file_says_the_figure_and_who_qualified(
    two_nights, club_admin, django_capture_on_commit_callbacks
):
    ranked(two_nights, django_capture_on_commit_callbacks, ranking="per_match", qualify_minimum=2)
    client = Client()
    client.force_login(club_admin)
    answer = client.get(f"/seasons/{two_nights.pk}/standings.csv")
    rows = list(csv.reader(io.StringIO(b"".join(answer.streaming_content).decode("utf-8-sig"))))
    header = rows[0]
    assert header[3:6] == ["Points per match", "Qualified", "Club nights"]
    dai = next(r for r in rows if r[0].endswith("Napoleon") and r[2] == "Dai")
    assert dai[4:6] == ["no", "1"]


# -- a best N only with a ranking by the best N (issue 55, 5) -------------------------------------

BEST_N_ALONE = {
    "en": "Best how many counts only when the leaderboards rank by best club nights or matches",
    "ja": "「上位いくつを数えるか」は、成績上位の例会・対戦で順位を付けるときだけ使います",
}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_total_points_with_a_best_n_is_refused_by_the_page_and_stores_nothing(
    club, club_admin, language
):
    client = Client()
    client.force_login(club_admin)
    client.cookies["django_language"] = language
    form = {
        "name": "Autumn",
        "games": ["napoleon"],
        "ranking": "total",
        "best_of": "5",
        "qualify_by": "nights",
        "qualify_minimum": "0",
    }
    answer = client.post(f"/clubs/{club.slug}/seasons/new/", form)
    assert answer.status_code == 200
    assert BEST_N_ALONE[language] in answer.content.decode()
    assert not Season.objects.filter(name="Autumn").exists()
    del form["best_of"]
    assert client.post(f"/clubs/{club.slug}/seasons/new/", form).status_code == 302
    assert Season.objects.get(name="Autumn").best_of is None


@pytest.mark.parametrize("ranking", ["total", "per_match", "per_deal"])
def test_a_best_n_with_a_ranking_that_counts_none_is_refused_by_the_api(
    season, club_admin, ranking, django_capture_on_commit_callbacks
):
    api = client_of(club_admin)
    made = api.post(
        "/api/seasons/",
        {"club": season.club_id, "name": "Autumn", "games": ["napoleon"], "ranking": ranking}
        | {"best_of": 5},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert made.status_code == 400
    assert [e["path"] for e in made.json()["errors"]] == ["best_of"]
    assert BEST_N_ALONE["ja"] in made.json()["errors"][0]["message"]
    assert not Season.objects.filter(name="Autumn").exists()
    ranked(season, django_capture_on_commit_callbacks, ranking="best_nights", best_of=6)
    for body in ({"ranking": ranking, "best_of": 5}, {"ranking": ranking, "best_of": 6}):
        refused = api.patch(f"/api/seasons/{season.pk}/", body, format="json")
        assert refused.status_code == 400, body
        assert BEST_N_ALONE["en"] in refused.json()["errors"][0]["message"]
    season.refresh_from_db()
    assert (season.ranking, season.best_of) == ("best_nights", 6)
    # The ranking alone changed: the best N goes with the ranking that counted it.
    changed = api.patch(f"/api/seasons/{season.pk}/", {"ranking": ranking}, format="json")
    assert changed.status_code == 200 and changed.json()["best_of"] is None
    again = api.patch(f"/api/seasons/{season.pk}/", {"best_of": 3}, format="json")
    assert again.status_code == 400
    season.refresh_from_db()
    assert (season.ranking, season.best_of) == (ranking, None)


def test_the_page_drops_a_best_n_left_as_it_was_and_refuses_one_typed(
    season, club_admin, django_capture_on_commit_callbacks
):
    ranked(season, django_capture_on_commit_callbacks, ranking="best_nights", best_of=6)
    client = Client()
    client.force_login(club_admin)
    form = {
        "name": season.name,
        "games": season.games,
        "ranking": "per_match",
        "best_of": "6",  # as the page shows it: left as it was
        "qualify_by": "nights",
        "qualify_minimum": "0",
    }
    assert client.post(f"/clubs/{season.club.slug}/seasons/{season.pk}/", form).status_code == 302
    season.refresh_from_db()
    assert (season.ranking, season.best_of) == ("per_match", None)
    typed = client.post(f"/clubs/{season.club.slug}/seasons/{season.pk}/", {**form, "best_of": "4"})
    assert typed.status_code == 200 and BEST_N_ALONE["en"] in typed.content.decode()
    season.refresh_from_db()
    assert season.best_of is None


def test_the_database_keeps_no_best_n_without_its_ranking(season):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.filter(pk=season.pk).update(ranking="total", best_of=3)
    season.refresh_from_db()
    assert season.best_of is None
