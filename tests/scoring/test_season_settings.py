"""A season's settings apply to its standings (issue 28, 7): turning confirmation on takes
the unconfirmed deals out, turning it off puts the pending ones in, also through a plain
``rebuild_standings``; a game with matches cannot be dropped from its season."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

import actions.deals
from scoring.models import SeasonStanding
from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments.models import Season

pytestmark = pytest.mark.django_db


def aki(season) -> int | None:
    row = SeasonStanding.objects.filter(season=season, game="napoleon", player__handle="aki")
    return row.values_list("total", flat=True).first()


def edit(client, season, **changes):
    form = {
        "name": season.name,
        "games": season.games,
        "starts_on": "",
        "ends_on": "",
        "public": "on" if season.public else "",
        **changes,
    }
    if season.require_confirmation and "require_confirmation" not in changes:
        form["require_confirmation"] = "on"
    return client.post(
        f"/clubs/{season.club.slug}/seasons/{season.pk}/",
        {k: v for k, v in form.items() if v != ""},
    )


def test_confirmation_turned_on_and_off_applies_to_the_deals_already_there(
    season, make_match, scorer, club_admin, client, django_capture_on_commit_callbacks
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    assert aki(season) == 40
    client.force_login(club_admin)
    with django_capture_on_commit_callbacks(execute=True):
        assert edit(client, season, require_confirmation="on").status_code == 302
    season.refresh_from_db()
    assert season.require_confirmation and aki(season) in (None, 0)  # unconfirmed: out
    call_command("rebuild_standings")  # a plain rebuild agrees
    assert aki(season) in (None, 0)
    with django_capture_on_commit_callbacks(execute=True):
        assert edit(client, season, require_confirmation="").status_code == 302
    assert aki(season) == 40
    call_command("rebuild_standings")
    assert aki(season) == 40


def test_a_game_with_matches_stays_in_its_season(season, make_match, club_admin, client):
    make_match("napoleon", NAPOLEON_SEATS)
    client.force_login(club_admin)
    page = edit(client, season, games=["rettler"])
    assert (
        page.status_code == 200 and "Napoleon has matches in this season" in page.content.decode()
    )
    api = APIClient()
    api.force_authenticate(club_admin)
    answer = api.patch(f"/api/seasons/{season.pk}/", {"games": ["rettler"]}, format="json")
    assert answer.status_code == 400 and answer.json()["errors"][0]["path"] == "games"
    assert "napoleon" in Season.objects.get(pk=season.pk).games
    assert edit(client, season, games=["napoleon", "rettler", "packing"]).status_code == 302
    # Two games, by their names in the reader's language.
    season.games = ["napoleon", "comp13"]
    season.save()
    make_match("comp13", NAPOLEON_SEATS)
    page = edit(client, season, games=["rettler"]).content.decode()
    assert "Comp-13, Napoleon have matches in this season" in page
    client.cookies["django_language"] = "ja"
    page = edit(client, season, games=["rettler"]).content.decode()
    assert "コンプ・イチサン, ナポレオン はこのシーズンに対戦があります" in page


def test_the_api_and_the_admin_change_a_setting_through_the_same_action(
    season, make_match, scorer, club_admin, league_admin, client, django_capture_on_commit_callbacks
):
    """Confirmation turned on by the API and off in the Django admin: each rebuilds the
    standings as the page does (``actions.seasons.save_season``); a plain ``save()``
    of the model, as a script might, changes the row and nothing derived from it."""
    match = make_match("napoleon", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    api = APIClient()
    api.force_authenticate(club_admin)
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.patch(
            f"/api/seasons/{season.pk}/", {"require_confirmation": True}, format="json"
        )
    assert answer.status_code == 200 and aki(season) in (None, 0)
    client.force_login(league_admin)
    form = {"club": season.club_id, "name": season.name, "games": json.dumps(season.games)}
    form |= {"ranking": "total", "qualify_by": "nights", "qualify_minimum": 0}  # as shown
    form |= {"moves_by": "count", "moves": 2}
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(f"/admin/tournaments/season/{season.pk}/change/", form)
    assert page.status_code == 302, page.content.decode()[:2000]
    assert not Season.objects.get(pk=season.pk).require_confirmation and aki(season) == 40
    season.refresh_from_db()
    season.require_confirmation = True
    with django_capture_on_commit_callbacks(execute=True) as hooks:
        season.save()
    assert hooks == [] and aki(season) == 40
