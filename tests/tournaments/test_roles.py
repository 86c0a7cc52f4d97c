"""Roles per club (issue 6): nobody reads or writes another club's private data,
and scorers touch only the deals of their own tables.

Two clubs: the fixtures' club (its scorer, member and administrator) and a
rival club with its own private season, match and deal.  Every way in is
tried: list filters, detail routes, nested routes, standings, pages and
exports; every write is shown to store nothing.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

import actions.deals
import actions.matches
from tests.conftest import NAPOLEON_SEATS, client_of, member_of, napoleon_deal
from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    DealVersion,
    Match,
    Membership,
    Player,
    Season,
    Table,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def rival(django_user_model):
    """Another club with a private season, a match of four and one deal."""
    club = Club.objects.create(name="Rival Club", slug="rival")
    scorer = member_of(club, django_user_model, "rival-scorer", Membership.Role.SCORER)
    players = [
        Player.objects.create(club=club, handle=h, display_name=f"Rival {h}")
        for h in NAPOLEON_SEATS
    ]
    season = Season.objects.create(club=club, name="Secret", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 8), venue="Far")
    table = Table.objects.create(club_night=night, name="R1", scorer=scorer)
    match = actions.matches.create_match(table, "napoleon", players)
    deal = actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    return {
        "club": club,
        "scorer": scorer,
        "player": players[0],
        "season": season,
        "night": night,
        "table": table,
        "match": match,
        "deal": deal,
    }


def rival_urls(r):
    """Every read of one of the rival club's private objects."""
    m, d, s = r["match"].pk, r["deal"].pk, r["season"].pk
    return [
        f"/api/clubs/{r['club'].pk}/",
        f"/api/players/{r['player'].pk}/",
        f"/api/seasons/{s}/",
        f"/api/club-nights/{r['night'].pk}/",
        f"/api/tables/{r['table'].pk}/",
        f"/api/matches/{m}/",
        f"/api/matches/{m}/deals/",
        f"/api/deals/{d}/",
        f"/api/deals/{d}/history/",
        f"/api/standings/?match={m}",
        f"/api/standings/?season={s}",
        f"/seasons/{s}/",
        f"/nights/{r['night'].pk}/",
        f"/matches/{m}/",
        f"/matches/{m}/enter/",
        f"/players/{r['player'].pk}/",
        f"/matches/{m}/sheet.csv",
        f"/matches/{m}/sheet.pdf",
        f"/seasons/{s}/standings.xlsx",
    ]


def rival_lists(r):
    """List endpoints filtered to the rival club: they must come back empty."""
    club = r["club"].pk
    return [
        "/api/clubs/",
        f"/api/players/?club={club}",
        f"/api/seasons/?club={club}",
        f"/api/club-nights/?season={r['season'].pk}",
        f"/api/tables/?club_night={r['night'].pk}",
        f"/api/matches/?club={club}",
        f"/api/matches/?season={r['season'].pk}",
        f"/api/deals/?match={r['match'].pk}",
    ]


def page_client(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("who", ["scorer", "member", "club_admin", "anonymous"])
def test_nobody_reads_another_clubs_private_data(request, who, rival, table):
    user = None if who == "anonymous" else request.getfixturevalue(who)
    api, pages = (client_of(user) if user else page_client(None)), page_client(user)
    for url in rival_urls(rival):
        client = api if url.startswith("/api/") else pages
        response = client.get(url)
        # Signed in: 404, the object does not exist for them.  Anonymous: 404, or
        # sign in first (401/403 from the API, a redirect from the entry page).
        expected = {404} if user else {302, 401, 403, 404}
        assert response.status_code in expected, url
        body = response.getvalue()
        assert b"Rival" not in body and b"Secret" not in body, url
    for url in rival_lists(rival):
        # A filter names an object the user cannot read: "not one of the available choices",
        # the same answer as for an id that does not exist; or an empty list.
        response = api.get(url)
        body = response.getvalue()
        assert b"Rival" not in body and b"Secret" not in body, url
        if response.status_code == 400:
            assert response.json()["errors"][0]["code"] == "invalid_choice", url
            continue
        assert response.status_code == 200, url
        ids = {row["id"] for row in response.json()["results"]}
        assert rival["club"].pk not in ids if url == "/api/clubs/" else not ids, url


def test_another_clubs_objects_cannot_be_written_or_referenced(scorer, club_admin, rival, table):
    deals_before, versions_before = Deal.objects.count(), DealVersion.objects.count()
    m, d = rival["match"].pk, rival["deal"].pk
    for user in (scorer, club_admin):
        api = client_of(user)
        assert (
            api.post(
                f"/api/matches/{m}/deals/", {"record": napoleon_deal()}, format="json"
            ).status_code
            == 404
        )
        assert (
            api.put(
                f"/api/deals/{d}/",
                {"record": napoleon_deal(count=16), "reason": "x"},
                format="json",
            ).status_code
            == 404
        )
        assert api.delete(f"/api/deals/{d}/?reason=x").status_code == 404
        assert api.post(f"/api/deals/{d}/confirm/").status_code == 404
        assert (
            api.post(f"/api/deals/{d}/restore/", {"reason": "x"}, format="json").status_code == 404
        )
        assert api.post(f"/api/matches/{m}/reopen/").status_code == 404
        assert (
            api.patch(
                f"/api/seasons/{rival['season'].pk}/", {"name": "Mine"}, format="json"
            ).status_code
            == 404
        )
        # A new match on the rival's table, or with the rival's players, is refused as unknown ids
        # (the answer never names the rival's players).
        answer = api.post(
            "/api/matches/",
            {
                "table": rival["table"].pk,
                "game": "napoleon",
                "players": [
                    p.pk for p in Player.objects.filter(club=club_admin.memberships.get().club)
                ][:4],
            },
            format="json",
        )
        assert answer.status_code == 400 and answer.json()["errors"][0]["path"] == "table"
        rival_players = list(Player.objects.filter(club=rival["club"]).values_list("pk", flat=True))
        answer = api.post(
            "/api/matches/",
            {"table": table.pk, "game": "napoleon", "players": rival_players},
            format="json",
        )
        assert answer.status_code == 400 and "Rival" not in answer.content.decode()
        answer = api.post(
            "/api/seasons/",
            {"club": rival["club"].pk, "name": "Annex", "games": ["napoleon"]},
            format="json",
        )
        assert answer.status_code == 400 and answer.json()["errors"][0]["path"] == "club"
    assert (Deal.objects.count(), DealVersion.objects.count()) == (deals_before, versions_before)
    assert Match.objects.filter(table=rival["table"]).count() == 1
    assert not Season.objects.filter(name="Annex").exists()
    assert Season.objects.get(pk=rival["season"].pk).name == "Secret"


@pytest.fixture
def other_table(table, django_user_model):
    """A second table of the same club night, scored by someone else."""
    other = member_of(
        table.club_night.season.club, django_user_model, "scorer2", Membership.Role.SCORER
    )
    return Table.objects.create(club_night=table.club_night, name="Table 2", scorer=other)


def test_a_scorer_touches_only_the_deals_of_their_own_tables(
    scorer, scorer_api, other_table, players
):
    match = actions.matches.create_match(
        other_table, "napoleon", [players[h] for h in NAPOLEON_SEATS]
    )
    deal = actions.deals.enter_deal(match, napoleon_deal(), user=other_table.scorer).stored()
    url = f"/api/matches/{match.pk}/deals/"
    assert scorer_api.get(url).status_code == 200  # the club's data is readable
    answer = scorer_api.post(url, {"record": napoleon_deal()}, format="json")
    assert answer.status_code == 403
    assert answer.json()["errors"][0]["code"] == "permission_denied"
    assert "scorer" in answer.json()["errors"][0]["message"]
    assert (
        scorer_api.put(
            f"/api/deals/{deal.pk}/",
            {"record": napoleon_deal(count=16), "reason": "x"},
            format="json",
        ).status_code
        == 403
    )
    assert scorer_api.delete(f"/api/deals/{deal.pk}/?reason=x").status_code == 403
    answer = scorer_api.post(
        "/api/matches/",
        {
            "table": other_table.pk,
            "game": "napoleon",
            "players": [players[h].pk for h in NAPOLEON_SEATS],
        },
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["errors"][0]["path"] == "table"
    assert page_client(scorer).get(f"/matches/{match.pk}/enter/").status_code == 403
    assert list(match.deals.values_list("number", "deleted_at")) == [(1, None)]
    assert Deal.objects.get(pk=deal.pk).record == deal.record


def test_a_scorer_enters_and_corrects_at_their_own_table(scorer_api, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    assert (
        scorer_api.post(
            f"/api/matches/{match.pk}/deals/", {"record": napoleon_deal()}, format="json"
        ).status_code
        == 201
    )
    deal = match.deals.get()
    answer = scorer_api.put(
        f"/api/deals/{deal.pk}/",
        {"record": napoleon_deal(count=16), "reason": "miscounted"},
        format="json",
    )
    assert answer.status_code == 200
    # Restoring and reading the history are the administrators'.
    assert scorer_api.get(f"/api/deals/{deal.pk}/history/").status_code == 403


def test_a_member_reads_the_club_and_changes_nothing(member_api, member, make_match, season):
    match = make_match("napoleon", NAPOLEON_SEATS)
    assert member_api.get(f"/api/matches/{match.pk}/").status_code == 200
    assert len(member_api.get(f"/api/players/?club={season.club_id}").json()["results"]) == 10
    assert page_client(member).get(f"/seasons/{season.pk}/").status_code == 200
    assert (
        member_api.post(
            f"/api/matches/{match.pk}/deals/", {"record": napoleon_deal()}, format="json"
        ).status_code
        == 403
    )
    assert (
        member_api.post(
            "/api/seasons/",
            {"club": season.club_id, "name": "Mine", "games": ["napoleon"]},
            format="json",
        ).status_code
        == 400
    )
    assert (
        member_api.patch(f"/api/seasons/{season.pk}/", {"name": "Mine"}, format="json").status_code
        == 403
    )
    assert Season.objects.get(pk=season.pk).name == "Spring" and not match.deals.exists()


def test_a_member_confirms_only_the_matches_they_sit_in(
    member, member_api, scorer, make_match, season, players
):
    season.require_confirmation = True
    season.save()
    match = make_match("napoleon", NAPOLEON_SEATS)
    deal = actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    assert member_api.post(f"/api/deals/{deal.pk}/confirm/").status_code == 403
    assert page_client(member).post(f"/deals/{deal.pk}/confirm/").status_code == 403
    players["aki"].user = member
    players["aki"].save()
    assert member_api.post(f"/api/deals/{deal.pk}/confirm/").status_code == 200
    assert Deal.objects.get(pk=deal.pk).confirmed_by == member


def test_a_club_administrator_runs_their_club(club_admin, make_match, season, scorer):
    api = client_of(club_admin)
    answer = api.post(
        "/api/seasons/",
        {"club": season.club_id, "name": "Summer", "games": ["packing"], "public": True},
        format="json",
    )
    assert answer.status_code == 201 and answer.json()["public"] is True
    match = make_match("napoleon", NAPOLEON_SEATS)
    deal = actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    assert api.delete(f"/api/deals/{deal.pk}/?reason=wrong table").status_code == 200
    assert (
        api.post(
            f"/api/deals/{deal.pk}/restore/", {"reason": "right table"}, format="json"
        ).status_code
        == 200
    )
    assert [v["action"] for v in api.get(f"/api/deals/{deal.pk}/history/").json()] == [
        "deleted",
        "restored",
    ]
    # Only the club's scorers may score a table.
    outsider = type(club_admin).objects.create_user("outsider", "o@example.org", "pass-1234")
    answer = api.patch(f"/api/tables/{match.table_id}/", {"scorer": outsider.pk}, format="json")
    assert answer.status_code == 400 and answer.json()["errors"][0]["path"] == "scorer"
    assert (
        api.post("/api/clubs/", {"name": "Mine", "slug": "mine"}, format="json").status_code == 403
    )


def test_a_public_season_is_readable_by_anyone_and_writable_by_no_stranger(
    api, make_match, season, scorer
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    anonymous = page_client(None)
    private = [
        f"/api/seasons/{season.pk}/",
        f"/api/standings/?season={season.pk}",
        f"/api/matches/{match.pk}/",
    ]
    assert [api.get(u).status_code for u in private] == [404, 404, 404]
    assert anonymous.get(f"/seasons/{season.pk}/").status_code == 404
    season.public = True
    season.save()
    assert [api.get(u).status_code for u in private] == [200, 200, 200]
    for url in (
        f"/seasons/{season.pk}/",
        f"/matches/{match.pk}/",
        f"/seasons/{season.pk}/standings.csv",
        f"/matches/{match.pk}/sheet.pdf",
    ):
        assert anonymous.get(url).status_code == 200, url
    seated = {p["handle"] for p in api.get("/api/players/").json()["results"]}
    assert seated == set(NAPOLEON_SEATS)  # the rest of the club stays private
    assert api.post(
        f"/api/matches/{match.pk}/deals/", {"record": napoleon_deal()}, format="json"
    ).status_code in (401, 403)
    assert api.patch(
        f"/api/seasons/{season.pk}/", {"public": False}, format="json"
    ).status_code in (401, 403)
    assert match.deals.count() == 1 and Season.objects.get(pk=season.pk).public


def test_the_browsable_apis_forms_offer_only_the_users_own_club(scorer, club_admin, rival, table):
    """DRF's HTML forms list the choices of every related field: they must not name another
    club's tables, players or accounts."""
    for user in (scorer, club_admin):
        client = page_client(user)
        for url in (
            "/api/matches/",
            "/api/tables/",
            "/api/players/",
            "/api/seasons/",
            "/api/club-nights/",
        ):
            html = client.get(url, HTTP_ACCEPT="text/html").content.decode()
            assert "Rival" not in html and "rival-scorer" not in html and "Secret" not in html, (
                user,
                url,
            )
