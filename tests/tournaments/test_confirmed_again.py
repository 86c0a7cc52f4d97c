"""A changed result is confirmed again (issue 24, 1): in a season that requires
confirmation, a correction or a restore of a confirmed deal makes a version nobody has
confirmed; it leaves the standings until a second person, never the one who changed it,
confirms it, and the history says who had confirmed which version."""

import pytest
from rest_framework.test import APIClient

import actions.deals
from scoring.models import SeasonStanding
from tests.conftest import NAPOLEON_SEATS, member_of, napoleon_deal
from tournaments import errors
from tournaments.models import Deal, Membership

pytestmark = pytest.mark.django_db

LOST = {"aki": 5, "ben": 6, "chika": 4, "dai": 5}
"""The army takes 9 < 15: the coalition wins."""


@pytest.fixture
def confirming_season(season):
    season.require_confirmation = True
    season.save()
    return season


@pytest.fixture
def second_scorer(club, django_user_model):
    return member_of(club, django_user_model, "scorer2", Membership.Role.SCORER)


def api_of(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def aki_total(season):
    row = SeasonStanding.objects.filter(season=season, game="napoleon", player__handle="aki")
    return row.values_list("total", flat=True).first()


@pytest.fixture
def confirmed(
    confirming_season, make_match, scorer, club_admin, django_capture_on_commit_callbacks
):
    """A deal the scorer entered and the club's administrator confirmed: it counts."""
    match = make_match("napoleon", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        deal = actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
        actions.deals.confirm_deal(deal, club_admin)
    assert aki_total(confirming_season) == 40
    return Deal.objects.get(pk=deal.pk)


def test_an_api_correction_of_a_confirmed_deal_waits_for_a_new_confirmation(
    confirmed,
    confirming_season,
    scorer,
    club_admin,
    second_scorer,
    member,
    players,
    django_capture_on_commit_callbacks,
    client,
):
    with django_capture_on_commit_callbacks(execute=True):
        changed = api_of(scorer).put(
            f"/api/deals/{confirmed.pk}/",
            {"record": napoleon_deal(points=LOST), "reason": "miscounted"},
            format="json",
        )
    assert changed.status_code == 200, changed.json()
    assert changed.json()["deal"]["confirmed_at"] is None
    deal = Deal.objects.get(pk=confirmed.pk)
    assert deal.confirmed_by is None and deal.revised_by == scorer
    # Out of the standings: neither the old +40 nor the new score counts for Aki.
    assert aki_total(confirming_season) in (None, 0)

    # The page and the administrator's home show it waiting again.
    client.force_login(club_admin)
    assert "pending confirmation" in client.get(f"/matches/{deal.match_id}/").content.decode()
    home = client.get("/").content.decode()
    assert f"Deal {deal.number} at Table 1 waits for confirmation" in home

    # Who changed it cannot confirm it, through the API or the page; nor can the enterer.
    refused = api_of(scorer).post(f"/api/deals/{deal.pk}/confirm/")
    assert refused.status_code == 400 and refused.json()["errors"][0]["code"] == "same_person"
    client.force_login(scorer)
    page = client.get(f"/matches/{deal.match_id}/").content.decode()
    assert "Confirm</button>" not in page
    client.post(f"/deals/{deal.pk}/confirm/")
    assert Deal.objects.get(pk=deal.pk).confirmed_at is None

    # A second person confirms the new version: it counts.
    with django_capture_on_commit_callbacks(execute=True):
        ok = api_of(second_scorer).post(f"/api/deals/{deal.pk}/confirm/")
    assert ok.status_code == 200
    assert aki_total(confirming_season) < 0  # the corrected deal: Aki's army lost

    history = api_of(club_admin).get(f"/api/deals/{deal.pk}/history/").json()
    assert [(v["action"], v["changed_by"], v["confirmed_by"]) for v in history] == [
        ("corrected", "scorer", "clubadmin")
    ]
    assert history[0]["record_before"]["point_cards"] == napoleon_deal()["point_cards"]
    assert history[0]["confirmed_at"] is not None


def test_a_correction_on_the_page_and_a_restore_clear_the_confirmation(
    confirmed,
    confirming_season,
    scorer,
    club_admin,
    second_scorer,
    client,
    django_capture_on_commit_callbacks,
):
    client.force_login(scorer)
    form = {
        "declarer": "aki",
        "trump": "hearts",
        "count": "15",
        "adjutant_cards": "SA",
        "adjutants": ["chika"],
        "pc_aki": "5",
        "pc_ben": "6",
        "pc_chika": "4",
        "pc_dai": "5",
        "discarded": "0",
        "reason": "wrong points",
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/deals/{confirmed.pk}/correct/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    deal = Deal.objects.get(pk=confirmed.pk)
    assert deal.confirmed_at is None and deal.revised_by == scorer
    assert aki_total(confirming_season) in (None, 0)

    with django_capture_on_commit_callbacks(execute=True):
        actions.deals.confirm_deal(deal, second_scorer)
        from actions import corrections

        deleted, _effect = corrections.delete_deal(deal, club_admin, "played twice")
        restored, _effect = corrections.restore_deal(deleted, club_admin, "it was not")
    restored.refresh_from_db()
    assert restored.confirmed_at is None and restored.revised_by == club_admin
    assert aki_total(confirming_season) in (None, 0)
    with pytest.raises(errors.Rejection) as refused:
        actions.deals.confirm_deal(restored, club_admin)
    assert refused.value.errors[0]["code"] == "same_person"
    # The enterer of the record may not confirm it either.
    with pytest.raises(errors.Rejection):
        actions.deals.confirm_deal(restored, scorer)
    actions.deals.confirm_deal(restored, second_scorer)


def test_without_required_confirmation_a_correction_keeps_counting(
    season, make_match, scorer, django_capture_on_commit_callbacks
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        deal = actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
        from actions import corrections

        corrections.correct_deal(deal, napoleon_deal(points=LOST), scorer, "miscounted")
    assert aki_total(season) < 0
