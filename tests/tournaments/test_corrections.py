"""Correcting, deleting and restoring deals: every version kept, standings recomputed,
the effect on the leaderboard shown, finished matches locked."""

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import MatchStanding, SeasonStanding
from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tests.markup import squeezed
from tournaments import actions
from tournaments.models import DealScore, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def entered(make_match, scorer, django_capture_on_commit_callbacks):
    match = make_match("napoleon", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        first = actions.enter_deal(match, napoleon_deal(), user=scorer)  # aki +40, chika +20
        actions.enter_deal(
            match,
            napoleon_deal(
                declarer="ben", adjutant="dai", points={"aki": 3, "ben": 9, "chika": 1, "dai": 7}
            ),
            user=scorer,
        )
    return match, first


def client_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def totals(match):
    return dict(MatchStanding.objects.filter(match=match).values_list("player__handle", "total"))


def test_a_correction_keeps_the_old_record_and_shows_the_effect(
    entered, scorer, league_admin, django_capture_on_commit_callbacks
):
    match, first = entered
    before = totals(match)
    corrected = napoleon_deal(
        adjutant="dai", points={"aki": 9, "ben": 3, "chika": 1, "dai": 7}
    )  # dai was the adjutant
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(scorer).put(
            f"/api/deals/{first.pk}/",
            {"record": corrected, "reason": "wrong adjutant"},
            format="json",
        )
    assert response.status_code == 200, response.json()
    effect = {e["player"]: e for e in response.json()["effect"]}
    assert (
        effect["chika"]["total_before"] == before["chika"]
        and effect["chika"]["total_after"] == before["chika"] - 50
    )
    assert effect["dai"]["total_after"] == before["dai"] + 50
    assert totals(match)["dai"] == before["dai"] + 50
    history = client_for(league_admin).get(f"/api/deals/{first.pk}/history/").json()
    assert [(h["action"], h["reason"], h["changed_by"]) for h in history] == [
        ("corrected", "wrong adjutant", "scorer")
    ]
    assert history[0]["record_before"]["adjutants"] == ["chika"]
    assert (
        client_for(scorer).get(f"/api/deals/{first.pk}/history/").status_code == 403
    )  # administrators only
    # The match page shows the correction and its effect, as stored with the version.
    page = Client()
    page.force_login(scorer)
    html = squeezed(page.get(f"/matches/{match.pk}/").content.decode())
    assert "History of changes" in html and "wrong adjutant" in html
    row = re.search(r"<tr><td>Dai</td>(.*?)</tr>", html).group(1)  # by display name
    numbers = [int(n) for n in re.findall(r">(-?\d+)<", row)]
    assert numbers[:2] == [effect["dai"]["total_before"], effect["dai"]["total_after"]]


def test_an_invalid_correction_is_refused_and_changes_nothing(entered, scorer):
    match, first = entered
    before = (totals(match), list(DealScore.objects.order_by("pk").values_list("score", flat=True)))
    bad = {**napoleon_deal(), "adjutants": ["zed"]}
    response = client_for(scorer).put(
        f"/api/deals/{first.pk}/", {"record": bad, "reason": "x"}, format="json"
    )
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "unknown_player"
    first.refresh_from_db()
    assert first.record["adjutants"] == ["chika"] and not first.versions.exists()
    assert (
        totals(match),
        list(DealScore.objects.order_by("pk").values_list("score", flat=True)),
    ) == before


def test_a_change_needs_a_reason(entered, scorer):
    _match, first = entered
    response = client_for(scorer).delete(f"/api/deals/{first.pk}/")
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == "reason"


def test_delete_and_restore(entered, scorer, league_admin, django_capture_on_commit_callbacks):
    match, first = entered
    before = totals(match)
    with django_capture_on_commit_callbacks(execute=True):
        deleted = client_for(scorer).delete(f"/api/deals/{first.pk}/?reason=entered+twice")
    assert deleted.status_code == 200 and deleted.json()["deal"]["deleted_at"]
    assert totals(match)["aki"] == before["aki"] - 40
    assert (
        client_for(scorer)
        .post(f"/api/deals/{first.pk}/restore/", {"reason": "no"}, format="json")
        .status_code
        == 403
    )
    with django_capture_on_commit_callbacks(execute=True):
        restored = client_for(league_admin).post(
            f"/api/deals/{first.pk}/restore/", {"reason": "it was real"}, format="json"
        )
    assert restored.status_code == 200 and totals(match) == before
    actions_seen = [v.action for v in first.versions.all()]
    assert actions_seen == ["deleted", "restored"]
    # The next deal keeps counting from the numbers in use.
    assert actions.enter_deal(match, napoleon_deal(), user=scorer).number == 3


def test_a_finished_match_is_locked_until_an_administrator_reopens_it(
    make_match, scorer, league_admin
):
    comp = {
        "captured": {"aki": ["SK"], "ben": [], "chika": [], "dai": []},
        "hand_faces": {"aki": [], "ben": [], "chika": [], "dai": []},
    }
    match = make_match("comp13", NAPOLEON_SEATS, target=1)
    deal = actions.enter_deal(match, comp, user=scorer)
    fixed = {**comp, "captured": {"aki": [], "ben": ["SK"], "chika": [], "dai": []}}
    locked = client_for(scorer).put(
        f"/api/deals/{deal.pk}/", {"record": fixed, "reason": "ben took it"}, format="json"
    )
    assert locked.status_code == 409 and locked.json()["errors"][0]["code"] == "match_locked"
    why = {"reason": "ben took the king"}
    assert client_for(scorer).post(f"/api/matches/{match.pk}/reopen/", why).status_code == 403
    assert client_for(league_admin).post(f"/api/matches/{match.pk}/reopen/").status_code == 400
    assert (
        client_for(league_admin).post(f"/api/matches/{match.pk}/reopen/", why).json()["status"]
        == "open"
    )
    response = client_for(scorer).put(
        f"/api/deals/{deal.pk}/", {"record": fixed, "reason": "ben took it"}, format="json"
    )
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED  # the corrected deal ends the 1-deal match again


def test_a_correction_ranks_its_effect_as_the_leaderboard_does(
    make_match, scorer, django_capture_on_commit_callbacks
):
    """Comp-13 breaks a tie on points by deals won: the rank a correction stores in the
    deal's history is the one the season's leaderboard then shows."""
    hands = {"aki": [], "ben": [], "chika": [], "dai": []}
    match = make_match("comp13", NAPOLEON_SEATS, target=12)
    with django_capture_on_commit_callbacks(execute=True):
        # aki and ben 1 point each, the deal won by aki (the rulebook's tie-breaks)
        first = {"captured": {**hands, "aki": ["SK"], "ben": ["HK"]}, "hand_faces": hands}
        actions.enter_deal(match, first, user=scorer)
        second = actions.enter_deal(
            match, {"captured": {**hands, "ben": ["SK"]}, "hand_faces": hands}, user=scorer
        )
    fixed = {"captured": {**hands, "chika": ["SK"]}, "hand_faces": hands}
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(scorer).put(
            f"/api/deals/{second.pk}/",
            {"record": fixed, "reason": "chika took the king"},
            format="json",
        )
    assert response.status_code == 200, response.json()
    effect = {e["player"]: e for e in response.json()["effect"]}
    # Before: ben 2 points leads alone. After: aki, ben and chika 1 point each; aki and
    # chika won a deal, ben none: ben is third, not first equal.
    assert effect["ben"]["rank_before"] == 1 and effect["ben"]["total_after"] == 1
    after = {p: e["rank_after"] for p, e in effect.items()}
    assert after == {"aki": 1, "ben": 3, "chika": 1, "dai": 4}
    board = SeasonStanding.objects.filter(season=match.table.club_night.season, game="comp13")
    assert dict(board.values_list("player__handle", "rank")) == after
    kept = match.deals.get(pk=second.pk).versions.get()
    assert kept.effect == response.json()["effect"]
