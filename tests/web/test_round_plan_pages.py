"""A night drawn on the rounds page follows its known design round after round (issue
57): the design a proposal begins travels, signed, in the form the secretary confirms;
a forged or foreign one is ignored; a declared night proposes a balanced round."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from actions import rounds
from tests.conftest import member_of
from tournaments import draw_measures, draw_plan, seatings
from tournaments.models import ClubNight, Membership, Player, Season
from tournaments.round_draw import Seating
from web.pages.rounds import signed_plans

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club):
    season = Season.objects.create(club=club, name="Day", games=["napoleon"])
    made = ClubNight.objects.create(
        season=season, date=dt.date(2026, 11, 28), table_size=3, rounds_planned=4
    )
    players = [
        Player.objects.create(club=club, handle=f"q{i}", display_name=f"Q{i}") for i in range(9)
    ]
    made.present.set(players)
    return made


@pytest.fixture
def director(club, django_user_model):
    page = Client()
    page.force_login(member_of(club, django_user_model, "sec", Membership.Role.ADMIN))
    return page


def confirm_as_drawn(director: Client, night: ClubNight, **change: str) -> str:
    """Propose the next round with the page's defaults and confirm it unchanged; the
    proposal page's words."""
    url = f"/nights/{night.pk}/rounds/"
    page = director.get(url)
    form = {
        "action": "propose",
        "game": "napoleon",
        "method": page.context["form"]["method"],
        "size": page.context["form"]["size"] or "",
        "deals": "1",
        "players": page.context["form"]["players"],
    }
    proposal = director.post(url, form, follow=True)
    assert proposal.status_code == 200
    html = proposal.content.decode()
    posted = {**form, "action": "confirm", "number": proposal.context["proposal"].number}
    tables = proposal.context["proposal"].seating.tables
    posted["tables"] = len(tables)
    posted["player"] = [p for t in tables for p in t]
    for i, table in enumerate(tables, 1):
        for p in table:
            posted[f"table_{p}"] = i
    plans = re.search(r'name="plans" value="([^"]*)"', html)
    if plans:
        posted["plans"] = plans.group(1)
    posted.update(change)
    confirmed = director.post(url, posted)
    assert confirmed.status_code == 302
    rounds.end_early(rounds.current(night), None, "next")
    return html


def test_a_declared_night_drawn_on_the_page_meets_nobody_twice(night, director):
    first = confirm_as_drawn(director, night)
    assert "known schedule" in first and "round 1 of 4" in first
    night.refresh_from_db()
    (plan,) = draw_plan.stored(night.draw_plan)
    for number in (2, 3, 4):
        html = confirm_as_drawn(director, night)
        assert f"round {number} of 4" in html and "balanced" in html
    measured = draw_measures.measure([s.tables for s in seatings.of_night(night)])
    assert (measured.most_met, measured.excess, measured.seat_off) == (1, 0, 0)
    assert draw_plan.stored(ClubNight.objects.get(pk=night.pk).draw_plan) == [plan]


def test_a_forged_or_foreign_plan_is_ignored(night, director):
    """A plan the site did not sign for this night begins nothing: the night's later
    rounds are drawn by search."""
    other = ClubNight.objects.create(season=night.season, date=dt.date(2026, 11, 29))
    foreign = rounds.Proposal(
        1,
        "napoleon",
        "balanced",
        1,
        Seating([], []),
        (draw_plan.Plan(frozenset(night.present.values_list("pk", flat=True)), "x", []),),
    )
    for forged in ("not-signed", signed_plans(foreign, other)):
        fresh = ClubNight.objects.create(
            season=night.season, date=dt.date(2026, 11, 30), table_size=3, rounds_planned=4
        )
        fresh.present.set(night.present.all())
        confirm_as_drawn(director, fresh, plans=forged)
        assert ClubNight.objects.get(pk=fresh.pk).draw_plan is None


def test_the_proposal_names_who_sits_together_again(club, director):
    """Four players, one table: round 2 seats every pair a second time, and the proposal
    names them, in the reader's language."""
    season = Season.objects.create(club=club, name="Four", games=["napoleon"])
    small = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 28))
    four = [
        Player.objects.create(club=club, handle=f"f{i}", display_name=f"F{i}") for i in range(4)
    ]
    small.present.set(four)
    first = rounds.draw_next_round(small, game="napoleon", method="balanced", deals=1, seed=1).round
    rounds.end_early(first, None, "next")
    url = f"/nights/{small.pk}/rounds/"
    form = {"action": "propose", "game": "napoleon", "method": "balanced", "deals": "1"}
    form["players"] = [p.pk for p in four]
    html = director.post(url, form, follow=True).content.decode()
    assert "6 pairs sit together again" in html and "F0 and F1: 2 rounds together" in html
    director.cookies["django_language"] = "ja"
    html = director.post(url, form, follow=True).content.decode()
    assert "再び同卓する組: 6 組" in html and "F0 と F1: 2 回目の同卓" in html


def test_the_proposal_says_how_sitting_out_is_chosen(club, director):
    season = Season.objects.create(club=club, name="Six", games=["napoleon"])
    six = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 28), table_size=4)
    players = [
        Player.objects.create(club=club, handle=f"s{i}", display_name=f"S{i}") for i in range(6)
    ]
    form = {"action": "propose", "game": "napoleon", "deals": "1", "size": "4"}
    form["players"] = [p.pk for p in players]
    for method, words in [("balanced", "then by lot"), ("swiss", "the last of the night's order")]:
        answer = director.post(f"/nights/{six.pk}/rounds/", {**form, "method": method}, follow=True)
        assert len(answer.context["sat_out"]) == 2 and words in answer.content.decode()
