"""Backup and restore of a club, and rebuilding standings from the deal records alone."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.models import MatchStanding, SeasonStanding
from tests.conftest import SEASON_LINE
from tournaments import actions, corrections
from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    DealVersion,
    Match,
    Membership,
    Player,
    Season,
)

pytestmark = pytest.mark.django_db


def standings():
    season = sorted(SeasonStanding.objects.values_list("season__name", *SEASON_LINE))
    match = sorted(MatchStanding.objects.values_list("match__game", "match__table__name", "player__handle",
                                                     "total", "deals", "deals_won", "rank"))  # fmt: skip
    return season, match


def test_the_demo_club_round_trips_with_identical_standings(
    tmp_path, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo")
        users = {u.username: u for u in get_user_model().objects.all()}
        napoleon = Deal.objects.filter(match__game="napoleon").order_by("number")
        corrections.delete_deal(napoleon.last(), users["admin"], "entered at the wrong table")
        actions.confirm_deal(napoleon.first(), users["member"])
    before = standings()
    deals_before = sorted(Deal.objects.values_list("match__game", "number", "record"), key=repr)
    history_before = history()
    path = tmp_path / "kanda.json"
    call_command("export_club", "kanda", str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "clubscore-club/1" and len(doc["players"]) == 10

    for model in (Deal, Match, ClubNight, Season, Player, Club):  # an empty database again
        model.objects.all().delete()
    assert not SeasonStanding.objects.exists()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_club", str(path))
    assert standings() == before
    assert (
        sorted(Deal.objects.values_list("match__game", "number", "record"), key=repr)
        == deals_before
    )
    assert history() == history_before


def history():
    """What a backup keeps besides the records: deletions, confirmations, versions, roles."""
    deals = sorted(Deal.objects.values_list("match__game", "number", "deleted_at", "confirmed_by__username",
                                            "confirmed_at"), key=repr)  # fmt: skip
    versions = list(DealVersion.objects.values_list("deal__number", "action", "reason", "changed_by__username",
                                                    "changed_at", "effect"))  # fmt: skip
    roles = sorted(Membership.objects.values_list("club__slug", "user__username", "role"))
    linked = list(Player.objects.filter(user__isnull=False).values_list("handle", "user__username"))
    public = list(Season.objects.values_list("name", "public", "require_confirmation"))
    return deals, versions, roles, linked, public


def test_an_import_over_an_existing_club_changes_nothing(tmp_path):
    call_command("load_demo")
    path = tmp_path / "kanda.json"
    call_command("export_club", "kanda", str(path))
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_club", str(path))
    assert Club.objects.count() == 1


def test_an_import_with_a_refused_deal_writes_nothing(tmp_path):
    call_command("load_demo")
    path = tmp_path / "kanda.json"
    call_command("export_club", "kanda", str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["club"]["slug"] = "kanda2"
    doc["club"]["name"] = "Kanda 2"
    deal = doc["seasons"][0]["club_nights"][0]["tables"][0]["matches"][0]["deals"][0]
    deal["record"]["point_cards"]["aki"] += 5
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError, match="point_cards"):
        call_command("import_club", str(path))
    assert not Club.objects.filter(slug="kanda2").exists()
    for broken in ('{"club": ' + "1" * 5000 + "}", "{not json"):
        path.write_text(broken, encoding="utf-8")
        with pytest.raises(CommandError, match="cannot import"):
            call_command("import_club", str(path))
    path.write_bytes("{}".encode("utf-16"))
    with pytest.raises(CommandError, match="cannot import"):
        call_command("import_club", str(path))


def test_rebuild_standings_recomputes_what_a_lost_task_never_wrote():
    call_command("load_demo")  # no on_commit here: the standings tasks never ran
    assert not SeasonStanding.objects.exists()
    call_command("rebuild_standings")
    assert SeasonStanding.objects.filter(game="rettler").count() == 6
    assert (
        MatchStanding.objects.count() == 6 + 4 + 4 + 4 + 4 + 3 + 5 + 3
    )  # seats of the eight demo matches
