"""Nothing is lost in a merge or a restore: a night in rounds, its sit-outs and how its
standings count survive a merge of two players and an export and import of the club."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from actions import pins, rounds, seating
from actions.merge import merge
from scoring import night as night_standings
from scoring.models import MatchStanding, Rating, SeasonStanding
from tests.conftest import play
from tournaments.errors import Rejection
from tournaments.models import Club, ClubNight, Deal, Match, Player, Round, Season

pytestmark = pytest.mark.django_db


def _night_of_nine(night, players, captured):
    """Nine players, counted by ranks: a balanced Napoleon round (three tables of three),
    then a final table of four while the other five sit out."""
    night.standings = ClubNight.Standings.RANKS
    night.rank_points = [5, 3, 1, 0]
    night.save()
    nine = [p.pk for p in players[:9]]
    with captured(execute=True):
        first = rounds.draw_next_round(
            night, game="napoleon", method="balanced", players=nine, deals=2, seed=1
        ).round
        play(first, seed=1)
        order = [line.player for line in night_standings.standings(night)[1]]
        final = rounds.draw_next_round(
            night,
            game="napoleon",
            method="final",
            players=nine,
            deals=2,
            size=4,
            others="sit_out",
            order=order,
            seed=2,
        ).round
        assert final.sat_out.count() == 5
        play(final, seed=2)
    return nine


def figures(slug: str):
    """Every derived figure of the club, by names (ids change in a restore)."""
    nights = [
        [
            (r["display_name"], r["rank"], r["total"], r["points"], r["sat_out"])
            for r in night_standings.standings_json(n)["rows"]
        ]
        for n in ClubNight.objects.filter(season__club__slug=slug).order_by("date", "pk")
    ]
    season = sorted(
        SeasonStanding.objects.filter(season__club__slug=slug).values_list(
            "game", "player__handle", "total", "deals", "matches", "rank"
        )
    )
    match = sorted(
        MatchStanding.objects.filter(match__table__club_night__season__club__slug=slug).values_list(
            "match__table__name", "player__handle", "total", "rank", "points"
        )
    )
    ratings = sorted(
        (h, round(m, 9), round(s, 9), n)
        for h, m, s, n in Rating.objects.filter(player__club__slug=slug).values_list(
            "player__handle", "mu", "sigma", "deals"
        )
    )
    return nights, season, match, ratings


def test_a_club_in_rounds_restores_with_every_derived_figure(
    room,
    tmp_path,
    django_capture_on_commit_callbacks,
):
    night, players = room
    _night_of_nine(night, players, django_capture_on_commit_callbacks)
    pins.set_pin(players[0], "2468")
    seating.take_attendance(night, [p.pk for p in players[:9]])
    Player.objects.filter(pk=players[1].pk).update(reading="いとう")
    with django_capture_on_commit_callbacks(execute=True):
        call_command("rebuild_standings")
    before = figures("open")
    assert any(line[-1] for line in before[0][0])  # someone sat out
    rounds_before = list(Round.objects.values_list("number", "game", "method", "deals"))
    path = tmp_path / "open.json"
    call_command("export_club", "open", str(path))
    assert json.loads(path.read_text())["seasons"][0]["club_nights"][0]["rounds"]
    for model in (Deal, Match, Round, ClubNight, Season, Player, Club):
        model.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_club", str(path), "--link-all-accounts")
        call_command("rebuild_standings")
    assert figures("open") == before
    assert list(Round.objects.values_list("number", "game", "method", "deals")) == rounds_before
    restored = Player.objects.get(handle=players[0].handle)
    assert pins.check(restored, "2468") is pins.Check.RIGHT
    came = ClubNight.objects.get(season__club__slug="open").present.values_list("handle", flat=True)
    assert sorted(came) == sorted(p.handle for p in players[:9])
    assert Player.objects.get(handle=players[1].handle).reading == "いとう"


def test_a_merge_keeps_the_rounds_the_merged_player_sat_out(
    room,
    django_capture_on_commit_callbacks,
):
    night, players = room
    _night_of_nine(night, players, django_capture_on_commit_callbacks)
    # The one who sat out round 1 was also entered, by mistake, as a new player who never
    # played: merging that player into the right one keeps the sit-out.
    final = Round.objects.get(number=2)
    sitter = final.sat_out.order_by("pk").first()
    twin = Player.objects.create(club=sitter.club, handle="twin", display_name="Twin")
    final.sat_out.remove(sitter)
    final.sat_out.add(twin)
    with django_capture_on_commit_callbacks(execute=True):
        merge(sitter, twin)
    assert sitter in final.sat_out.all() and final.sat_out.count() == 5
    lines = {r["player"]: r for r in night_standings.standings_json(night)["rows"]}
    assert lines[sitter.pk]["sat_out"] >= 1


def test_two_players_both_in_one_round_are_two_people(
    room,
    django_capture_on_commit_callbacks,
):
    night, players = room
    _night_of_nine(night, players, django_capture_on_commit_callbacks)
    final = Round.objects.get(number=2)
    first = Match.objects.filter(table__round__number=1)
    # A player at the final table and one who sat it out, never at one table in round 1
    # (the older check would refuse those anyway).
    seated, sitter = next(
        (p, s)
        for p in Match.objects.get(table__round=final).seated_players()
        for s in final.sat_out.order_by("pk")
        if not first.filter(seats__player=p).filter(seats__player=s).exists()
    )
    with pytest.raises(Rejection):
        merge(seated, sitter)
    with pytest.raises(Rejection):
        merge(sitter, seated)
    assert sitter in final.sat_out.all()
