"""Rebuilds whose cost follows what changed (issue 26): a rebuild of unchanged data writes
nothing; a change rewrites only the rows that differ; a correction deep in a season
replays the ratings from its night on, equal to a replay of everything."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import actions.matches
from scoring import fingerprints
from scoring.models import (
    Fingerprint,
    MatchStanding,
    Rating,
    RatingHistory,
    Scope,
    SeasonStanding,
)
from scoring.ratings import rebuild_club_ratings
from scoring.rebuild import rebuild_all
from scoring.tasks import rebuild_everything
from tests import worlds
from tests.scoring.derived import derived, forget, take_out_last_deal, written_rows
from tournaments.models import Club, Match, Season

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

WRITES = ("INSERT", "UPDATE", "DELETE", "WITH", "COPY")


def test_a_rebuild_of_unchanged_data_writes_nothing():
    worlds.federation(2, 16, 700, 5)
    rebuild_all()
    before = written_rows()
    with CaptureQueriesContext(connection) as queries:
        _seasons, checked = rebuild_all()
    assert checked == 0
    writes = [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().startswith(WRITES)]
    assert writes == []
    assert written_rows() == before
    numbers = derived()
    club = Club.objects.order_by("pk").first().pk
    # A derived row changed behind the rebuild's back (a hand edit, a half-restored backup):
    # the fingerprints cannot see it; --recheck's replay (no fingerprint asked) mends it
    # and writes nothing else.
    tampered = Rating.objects.filter(player__club_id=club).order_by("pk").first()
    Rating.objects.filter(pk=tampered.pk).update(mu=99.0)
    RatingHistory.objects.filter(player=tampered.player_id).order_by(
        "club_night__date", "club_night_id"
    ).first().delete()
    assert rebuild_club_ratings(club) == 0  # fingerprint unchanged: skipped
    assert rebuild_club_ratings(club, every=True) > 0
    assert derived() == numbers
    after = written_rows()
    for rows_before, rows_after in ((before[1], after[1]), (before[2], after[2])):
        written = {pk for pk, at in rows_after.items() if rows_before.get(pk) != at}
        assert len(written) == 1  # the tampered rating, the deleted night: stored anew
        assert len(set(rows_before) - set(rows_after)) == 1  # and only they


def test_a_correction_rewrites_only_the_rows_that_differ_and_ends_as_a_clean_rebuild(
    django_user_model,
):
    worlds.federation(2, 16, 700, 5)
    rebuild_all()
    before = written_rows()
    admin = django_user_model.objects.create_superuser("op", "op@example.org", "pw-2026-x")
    changed_club = Club.objects.order_by("pk").first()
    match = Match.objects.filter(table__club_night__season__club=changed_club, game="comp13")
    deal = take_out_last_deal(match.latest("pk"), admin)  # its tasks not run: lost, say
    rebuild_all()
    after = written_rows()
    season = deal.match.table.club_night.season_id
    lines = SeasonStanding.objects.values_list("pk", "season_id", "season__club_id")
    moved = {pk for pk, at in after[0].items() if before[0].get(pk) != at}
    assert moved, "the deal's players' lines changed"
    assert all(s == season for pk, s, _c in lines if pk in moved)
    assert any(s == season and pk not in moved for pk, s, _c in lines)  # the same numbers
    others = set(Rating.objects.exclude(player__club=changed_club).values_list("pk", flat=True))
    assert others <= before[1].keys()  # the other club's ratings were not replayed
    incremental = derived()
    forget()
    rebuild_all()
    assert derived() == incremental


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ratings_replayed_from_a_corrected_night_equal_a_replay_of_everything(
    seed, django_user_model, django_capture_on_commit_callbacks
):
    """Property: whatever deals are taken out, on whichever nights and in whichever
    order, the replays from each correction's night (the standings task's) end with the
    ratings and their history that one replay of everything gives."""
    worlds.federation(1, 10, 400, seed, tables=2)
    rebuild_all()
    rng = random.Random(seed)
    admin = django_user_model.objects.create_superuser("op", "op@example.org", "pw-2026-x")
    club = Club.objects.get().pk
    rated = Match.objects.exclude(game="comrade").order_by("pk")
    for match in rng.sample(list(rated), 6):
        with django_capture_on_commit_callbacks(execute=True):
            take_out_last_deal(match, admin)
    incremental = derived(Rating, RatingHistory)
    Rating.objects.all().delete()
    RatingHistory.objects.all().delete()
    assert rebuild_club_ratings(club, every=True) > 0
    assert derived(Rating, RatingHistory) == incremental


def test_a_rebuild_sends_work_only_for_the_clubs_that_changed(django_user_model):
    """The rebuild command's first look (one set of queries for the federation): nothing
    changed, no club's task is sent at all; a deal taken out in one club (its tasks
    lost), that club alone; a season made public elsewhere, that club's ratings."""
    worlds.federation(3, 18, 600, 7)
    rebuild_all()
    clubs = list(Club.objects.order_by("pk").values_list("pk", flat=True))
    assert fingerprints.clubs_to_rebuild(clubs) == []
    with CaptureQueriesContext(connection) as queries:
        assert rebuild_everything() == (0, 0)
    assert not [q for q in queries.captured_queries if "FOR UPDATE" in q["sql"]]  # no club's task
    admin = django_user_model.objects.create_superuser("op", "op@example.org", "pw-2026-x")
    match = Match.objects.filter(table__club_night__season__club_id=clubs[1]).exclude(
        game="comrade"
    )
    take_out_last_deal(match.latest("pk"), admin)
    Season.objects.filter(club_id=clubs[2]).update(public=True)
    assert fingerprints.clubs_to_rebuild(clubs) == clubs[1:]
    before = written_rows()
    seasons, checked = rebuild_everything()
    assert checked == 0  # the correction checked its match itself: its ratings were lost
    assert seasons == Season.objects.filter(club_id__in=clubs[1:]).count()
    assert fingerprints.clubs_to_rebuild(clubs) == []
    untouched = Rating.objects.filter(player__club_id=clubs[0]).values_list("pk", flat=True)
    assert all(before[1][pk] == written_rows()[1][pk] for pk in untouched)
    assert Rating.objects.filter(player__club_id=clubs[2], scope=Scope.PUBLIC).exists()
    incremental = derived()
    forget()
    rebuild_all()
    assert derived() == incremental
    # Rows whose fingerprint was lost (a restore of part of the database): made again.
    assert fingerprints.clubs_to_rebuild(clubs) == []
    Fingerprint.objects.filter(kind=fingerprints.RATINGS, of=clubs[0]).delete()
    season = Season.objects.filter(club_id=clubs[2]).order_by("pk").first().pk
    Fingerprint.objects.filter(kind=fingerprints.SEASON, of=season).delete()
    assert fingerprints.clubs_to_rebuild(clubs) == [clubs[0], clubs[2]]


def test_fingerprints_change_with_each_thing_they_stand_for():
    """The fingerprints are cheap aggregates, not a text of every row: each thing a
    club's ratings or a season's lines are made from still changes them, and reading
    them again with nothing changed gives the same."""
    worlds.federation(2, 12, 300, 3)
    rebuild_all()
    club, other = Club.objects.order_by("pk").values_list("pk", flat=True)
    season = Season.objects.filter(club_id=club).order_by("pk").first()
    match = Match.objects.filter(table__club_night__season=season).order_by("pk").first()
    night = match.table.club_night

    def now() -> tuple[str, str, str]:
        ratings = fingerprints.of_clubs_ratings([club, other])
        return ratings[club], ratings[other], fingerprints.of_seasons([season.pk])[season.pk]

    seen = [now()]
    assert now() == seen[-1]  # the same data, the same fingerprints

    def changed(what: str) -> None:
        mine, others, lines = now()
        assert mine != seen[-1][0], f"{what}: the club's ratings fingerprint did not change"
        assert others == seen[-1][1], f"{what}: another club's fingerprint changed"
        seen.append((mine, others, lines))

    Match.objects.filter(pk=match.pk).update(version=match.version + 1)  # a deal changed
    changed("a match's version")
    type(night).objects.filter(pk=night.pk).update(date=night.date.replace(year=2020))
    changed("a night's date")
    Season.objects.filter(pk=season.pk).update(public=not season.public)
    changed("a season made public or private")
    Season.objects.filter(pk=season.pk).update(require_confirmation=True)
    changed("confirmation asked")
    actions.matches.create_match(match.table, match.game, list(match.seated_players()))
    changed("a match added")
    line = MatchStanding.objects.filter(season=season).order_by("pk").first()
    line.delete()
    line.pk = None
    line.save()  # a line written again, as a check does: as many lines, a new id
    assert fingerprints.of_seasons([season.pk])[season.pk] != seen[-1][2]
    biggest = MatchStanding.objects.filter(season=season).order_by("-pk").first()
    before = fingerprints.of_seasons([season.pk])[season.pk]
    biggest.delete()  # the newest line alone taken away: the count tells
    assert fingerprints.of_seasons([season.pk])[season.pk] != before
    Season.objects.filter(pk=season.pk).update(ranking="per_match")
    assert fingerprints.of_seasons([season.pk])[season.pk] != before
