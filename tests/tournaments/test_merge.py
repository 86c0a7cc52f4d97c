"""Two players who are one person become one (issue 29, 6): seats, scores, records,
history, ratings and the account move; players who sat together are refused."""

from __future__ import annotations

import pytest
from django.test import Client

import actions.deals
import actions.matches
from actions import corrections
from actions.merge import merge
from scoring.models import SeasonStanding
from tests.conftest import NAPOLEON_SEATS, member_of, napoleon_deal
from tournaments.errors import Rejection
from tournaments.models import ClubNight, Deal, DealVersion, Membership, Player, Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def twice(club, season, players, make_match, scorer, django_capture_on_commit_callbacks):
    """Aki entered again as "Aki Sato" (aki-sato) on another night, with a corrected deal."""
    second = Player.objects.create(club=club, handle="aki-sato", display_name="Aki Sato")
    night = ClubNight.objects.create(season=season, date="2026-11-14")
    other = Table.objects.create(club_night=night, name="Table 1", scorer=scorer)
    with django_capture_on_commit_callbacks(execute=True):
        first = make_match("napoleon", NAPOLEON_SEATS)
        actions.deals.enter_deal(first, napoleon_deal(), user=scorer).stored()
        later = actions.matches.create_match(
            other, "napoleon", [second, players["ben"], players["chika"], players["dai"]]
        )
        deal = actions.deals.enter_deal(
            later,
            napoleon_deal(
                declarer="aki-sato", points={"aki-sato": 9, "ben": 3, "chika": 7, "dai": 1}
            ),
            user=scorer,
        ).stored()
        corrections.correct_deal(
            deal,
            napoleon_deal(
                declarer="aki-sato",
                count=16,
                points={"aki-sato": 10, "ben": 2, "chika": 7, "dai": 1},
            ),
            scorer,
            "count was 16",
        )
    return players["aki"], second, later


def test_a_merge_moves_seats_records_history_and_standings(
    twice, season, django_capture_on_commit_callbacks
):
    aki, sato, later = twice
    with django_capture_on_commit_callbacks(execute=True):
        merge(aki, sato)
    assert not Player.objects.filter(pk=sato.pk).exists()
    assert Seat.objects.filter(match=later, position=0).get().player == aki
    deal = Deal.objects.get(match=later)
    assert deal.record["declaration"]["player"] == "aki" and "aki-sato" not in str(deal.record)
    version = DealVersion.objects.get(deal=deal)
    assert "aki-sato" not in str(version.record_before) + str(version.effect)
    line = SeasonStanding.objects.get(season=season, player=aki, game="napoleon")
    assert line.deals == 2  # both nights count for the one person
    # The match still takes deals (its kept progress names the kept handle).
    added = actions.deals.enter_deal(Deal.objects.get(match=later).match, napoleon_deal()).stored()
    assert added.number == 2


def test_players_who_sat_at_one_table_are_two_people(players, make_match):
    make_match("napoleon", NAPOLEON_SEATS)
    with pytest.raises(Rejection) as refused:
        merge(players["aki"], players["ben"])
    assert refused.value.errors[0]["code"] == "played_together"
    assert Player.objects.filter(pk=players["ben"].pk).exists()


def test_the_merge_page_is_the_clubs_administrators_only(twice, club, django_user_model):
    aki, sato, _later = twice
    scorer = Client()
    scorer.force_login(member_of(club, django_user_model, "sam", Membership.Role.SCORER))
    url = f"/clubs/{club.slug}/players/{sato.pk}/merge/"
    assert scorer.post(url, {"into": aki.pk}).status_code == 403
    admin = Client()
    admin.force_login(member_of(club, django_user_model, "lena", Membership.Role.ADMIN))
    page = admin.get(f"/clubs/{club.slug}/players/{sato.pk}/").content.decode()
    assert "The same person as another player?" in page
    assert admin.post(url, {"into": aki.pk}).status_code == 302
    assert not Player.objects.filter(pk=sato.pk).exists()
