"""A player's handle changes without breaking anything (issue 28, 1): after a rename on
the player page or through the API, entry with the new handle, corrections of old deals,
``rebuild_standings --recheck``, every export and a backup restored into an empty
database all work, and the standings are what they were."""

import json

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

import actions.deals
import actions.matches
from actions import corrections
from scoring.models import MatchStanding, SeasonStanding
from tests.conftest import NAPOLEON_SEATS, SEASON_LINE, napoleon_deal
from tournaments.models import Club, ClubNight, Deal, DealVersion, Match, Player, Season

pytestmark = pytest.mark.django_db

COMP13 = {
    "captured": {
        "aki": ["SK", "HK", "DK", "CK", "SA"],
        "ben": ["HA", "D10"],
        "chika": ["SQ", "HQ"],
        "dai": ["CA", "S10"],
    },
    "hand_faces": {"aki": [], "ben": [], "chika": ["CQ"], "dai": ["DJ"]},
}


def standings():
    fields = [f for f in SEASON_LINE if f != "player__handle"]
    season = sorted(SeasonStanding.objects.values_list("player__display_name", *fields))
    match = sorted(
        MatchStanding.objects.values_list("match__game", "player__display_name", "total", "rank")
    )
    return season, match


def test_a_renamed_player_keeps_working_everywhere(
    make_match, scorer, club_admin, client, tmp_path, django_capture_on_commit_callbacks
):
    napoleon = make_match("napoleon", NAPOLEON_SEATS)
    comp13 = make_match("comp13", NAPOLEON_SEATS, target=12)
    with django_capture_on_commit_callbacks(execute=True):
        first = actions.deals.enter_deal(napoleon, napoleon_deal(), user=scorer).stored()
        actions.deals.enter_deal(
            napoleon, napoleon_deal(declarer="ben", adjutant="aki"), user=scorer
        ).stored()
        actions.deals.enter_deal(comp13, COMP13, user=scorer).stored()
        corrections.correct_deal(first, napoleon_deal(count=16), scorer, "count")
    before = standings()
    aki = Player.objects.get(handle="aki")

    admin = APIClient()
    admin.force_authenticate(club_admin)
    with django_capture_on_commit_callbacks(execute=True):
        answer = admin.patch(f"/api/players/{aki.pk}/", {"handle": "akira"}, format="json")
    assert answer.status_code == 200, answer.json()
    text = json.dumps(list(Deal.objects.values_list("record", flat=True)))
    text += json.dumps(list(DealVersion.objects.values_list("record_before", "effect")))
    assert '"aki"' not in text and '"akira"' in text
    assert standings() == before

    # Entry with the new handle, at both tables; a correction of an old deal.
    with django_capture_on_commit_callbacks(execute=True):
        actions.deals.enter_deal(
            napoleon,
            napoleon_deal(declarer="akira", points={"akira": 9, "ben": 3, "chika": 7, "dai": 1}),
            user=scorer,
        ).stored()
        record = json.loads(json.dumps(COMP13).replace('"aki"', '"akira"'))
        actions.deals.enter_deal(comp13, record, user=scorer).stored()
        old = Deal.objects.get(match=napoleon, number=2)
        corrections.correct_deal(
            old,
            {**old.record, "declaration": {**old.record["declaration"], "count": 14}},
            scorer,
            "14",
        )
    # The page renames back: the same rewrite.
    client.force_login(club_admin)
    page = client.post(
        f"/clubs/test/players/{aki.pk}/",
        {"display_name": "Aki", "handle": "aki-2", "name_ja": "", "account": ""},
    )
    assert page.status_code == 302, page.content.decode()[:2000]
    assert Deal.objects.filter(record__players__contains=["aki-2"]).count() == Deal.objects.count()

    call_command("rebuild_standings", "--recheck")
    after = standings()
    season = Season.objects.get()
    for url in [f"/seasons/{season.pk}/standings.{f}" for f in ("csv", "xlsx", "pdf")] + [
        f"/matches/{m.pk}/sheet.{f}" for m in (napoleon, comp13) for f in ("csv", "xlsx", "pdf")
    ]:
        assert client.get(url).status_code == 200, url

    path = tmp_path / "club.json"
    call_command("export_club", "test", str(path))
    for model in (Deal, Match, ClubNight, Season, Player, Club):
        model.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_club", str(path), "--link-all-accounts")
    assert standings() == after


def test_a_handle_that_is_also_a_trump_cannot_be_renamed(table, players, club_admin, scorer):
    hearts = players["aki"]
    hearts.handle = "hearts"
    hearts.save()
    seated = [hearts, players["ben"], players["chika"], players["dai"]]
    match = actions.matches.create_match(table, "napoleon", seated)
    record = napoleon_deal(declarer="hearts", points={"hearts": 9, "ben": 3, "chika": 7, "dai": 1})
    actions.deals.enter_deal(match, record, user=scorer).stored()  # trump: hearts
    admin = APIClient()
    admin.force_authenticate(club_admin)
    refused = admin.patch(f"/api/players/{hearts.pk}/", {"handle": "haruto"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "handle_in_record"
    assert Player.objects.get(pk=hearts.pk).handle == "hearts"
    assert Deal.objects.get().record["declaration"] == {
        "player": "hearts",
        "count": 15,
        "trump": "hearts",
    }
