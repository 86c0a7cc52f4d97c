"""What the league announces, and the events players and a club's tools hear of it.

Each happening of a club night is played for real (a round drawn, deals entered and
confirmed, a correction, rounds played out, a season closed) and the events read from
the database are checked: who is told what, in both languages, and that an event's id
is the same however often it is read again (the key of every message and delivery).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import translation

import actions.deals
import actions.seasons
from actions import after, confirmation, corrections, rounds
from reach import sources
from reach.models import Endpoint
from tests.conftest import napoleon_deal, play
from tests.scoring.test_divisions import league, standings_of
from tournaments.errors import Rejection
from tournaments.models import Club, ClubNight, DealVersion, Match, Player


@pytest.fixture
def heard(monkeypatch):
    """Every announcement handed on while the test runs: (kind, ids); nothing fans out
    (the events are read here by hand)."""
    said: list[tuple[str, dict[str, int]]] = []
    monkeypatch.setattr(after, "tell", lambda kind, ids: said.append((kind, ids)))
    return said


def _words(said, language):
    with translation.override(language):
        return said.words()


def test_a_round_drawn_tells_each_seated_player_their_table_seat_and_company(
    room, heard, django_capture_on_commit_callbacks
):
    night, players = room
    with django_capture_on_commit_callbacks(execute=True):
        drawn = rounds.draw_next_round(
            night,
            game="napoleon",
            method="balanced",
            players=[p.pk for p in players[:13]],
            deals=2,
            seed=3,
        ).round
    assert ("round.drawn", {"round": drawn.pk}) in heard
    (event,) = sources.events("round.drawn", {"round": drawn.pk})
    assert event.id == f"round.drawn:{drawn.pk}" and event.type == "round.drawn"
    assert event.night == night.pk and event.club == night.season.club_id
    seated = {
        s.player_id: s for m in Match.objects.filter(table__round=drawn) for s in m.seats.all()
    }
    told = {s.player: s for s in event.told}
    assert set(told) == set(seated) | {p.pk for p in drawn.sat_out.all()}
    someone = next(iter(seated.values()))
    title, body = _words(told[someone.player_id], "en")
    assert title == f"Round 1: {someone.match.table.name}, seat {someone.position + 1}"
    mates = [s.player.display_name for s in someone.match.seats.all() if s != someone]
    assert all(name in body for name in mates) and someone.player.display_name not in body
    title_ja, _ = _words(told[someone.player_id], "ja")
    assert title_ja != title and "卓" in title_ja
    assert told[someone.player_id].url == (
        reverse("my_night", args=[night.pk]) + f"?player={someone.player_id}"
    )
    assert sum(len(t["players"]) for t in event.data["tables"]) == len(seated)
    assert sources.events("round.drawn", {"round": drawn.pk})[0].id == event.id


def test_a_refused_draw_announces_nothing(room, heard, django_capture_on_commit_callbacks):
    night, players = room
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(Rejection):
        rounds.draw_next_round(
            night, game="napoleon", method="balanced", players=[players[0].pk], deals=2, seed=1
        )
    assert heard == []


def test_a_deal_that_waits_tells_the_other_seated_players_with_its_pin_page(
    season, make_match, players, scorer, heard, django_capture_on_commit_callbacks
):
    season.require_confirmation = True
    season.save()
    match = make_match("napoleon", ["aki", "ben", "chika", "dai"])
    players["aki"].user = scorer
    players["aki"].save()
    with django_capture_on_commit_callbacks(execute=True):
        deal = actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    assert ("deal.entered", {"deal": deal.pk}) in heard
    (event,) = sources.events("deal.entered", {"deal": deal.pk})
    assert event.type == "deal.waiting"
    told = {s.player: s for s in event.told}
    assert players["aki"].pk not in told  # their own phone entered it: it cannot confirm
    assert set(told) == {players[h].pk for h in ("ben", "chika", "dai")}
    said = told[players["ben"].pk]
    assert said.url == reverse("confirm_with_pin", args=[deal.pk]) and said.kind == "pin"
    title, body = _words(said, "en")
    assert title == "Deal 1 at Table 1 waits for your PIN"
    score = next(s.score for s in deal.scores.all() if s.player_id == players["ben"].pk)
    assert f"{score:+d}" in body
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.confirm(deal, confirmation.Confirmer(player=players["ben"]))
    assert ("deal.confirmed", {"deal": deal.pk}) in heard
    assert sources.events("deal.entered", {"deal": deal.pk})[0].type == "deal.confirmed"
    (confirmed,) = sources.events("deal.confirmed", {"deal": deal.pk})
    assert confirmed.told == () and {s["player"] for s in confirmed.data["scores"]} == {
        "Aki",
        "Ben",
        "Chika",
        "Dai",
    }


def test_a_correction_tells_whose_total_or_place_moved_before_and_after(
    make_match, players, club_admin, heard, django_capture_on_commit_callbacks
):
    match = make_match("napoleon", ["aki", "ben", "chika", "dai"])
    deal = actions.deals.enter_deal(match, napoleon_deal()).stored()
    with django_capture_on_commit_callbacks(execute=True):
        corrections.correct_deal(
            deal, napoleon_deal(declarer="ben", adjutant="dai"), club_admin, "wrong declarer"
        )
    change = DealVersion.objects.get(deal=deal)
    assert ("correction.applied", {"change": change.pk}) in heard
    event = sources.events("correction.applied", {"change": change.pk})[0]
    assert event.type == "correction.applied" and event.data["effect"] == change.effect
    moved = {
        players[e["player"]].pk: e
        for e in change.effect
        if (e["total_before"], e["rank_before"]) != (e["total_after"], e["rank_after"])
    }
    assert moved and {s.player for s in event.told} == set(moved)
    said = next(s for s in event.told if s.player == players["aki"].pk)
    _, body = _words(said, "en")
    e = moved[players["aki"].pk]
    assert f"{e['total_before']} → {e['total_after']}" in body


@pytest.mark.parametrize("planned", [None, 1])
def test_the_last_match_of_a_round_closes_it_with_each_players_place(
    room, planned, heard, django_capture_on_commit_callbacks
):
    night, players = room
    night.rounds_planned = planned
    night.save()
    drawn = rounds.draw_next_round(
        night,
        game="napoleon",
        method="balanced",
        players=[p.pk for p in players[:12]],
        deals=2,
        seed=1,
    ).round
    with django_capture_on_commit_callbacks(execute=True):
        play(drawn)
    last = Match.objects.filter(table__round=drawn).order_by("-finished_at").first()
    finished = [
        sources.events("match.finished", {"match": m.pk})
        for m in Match.objects.filter(table__round=drawn)
    ]
    assert [[e.type for e in found] for found in finished].count([]) == 0  # all finished now
    found = sources.events("match.finished", {"match": last.pk})
    assert [e.type for e in found] == ["round.closed"] + (["night.closed"] if planned else [])
    closed = found[0]
    assert closed.id == f"round.closed:{drawn.pk}"
    assert {s.player for s in closed.told} == {p.pk for p in players[:12]}
    first = closed.data["standings"][0]
    said = next(
        s for s in closed.told if Player.objects.get(pk=s.player).display_name == first["player"]
    )
    title, body = _words(said, "en")
    assert title == "Round 1 is over" and body == "You are 1st of 12 players tonight."
    assert _words(said, "ja") != (title, body)


def test_a_match_finished_while_others_play_closes_nothing(room):
    night, players = room
    drawn = rounds.draw_next_round(
        night,
        game="napoleon",
        method="balanced",
        players=[p.pk for p in players[:8]],
        deals=2,
        seed=1,
    ).round
    match = Match.objects.filter(table__round=drawn).first()
    corrections.end_match(match, None, "went home")
    assert sources.events("match.finished", {"match": match.pk}) == []


def test_standings_are_read_only_for_a_club_that_listens_and_once_per_state(
    make_match, club, season
):
    match = make_match("napoleon", ["aki", "ben", "chika", "dai"])
    actions.deals.enter_deal(match, napoleon_deal()).stored()
    from scoring.tasks import refresh_standings

    refresh_standings(match.pk)
    assert sources.events("standings.changed", {"season": season.pk}) == []
    Endpoint.objects.create(
        club=club, url="https://example.org/h", secret="whsec_x", events=["standings.changed"]
    )
    (first,) = sources.events("standings.changed", {"season": season.pk})
    assert first.data["leaders"][0]["rank"] == 1
    assert sources.events("standings.changed", {"season": season.pk})[0].id == first.id
    actions.deals.enter_deal(match, napoleon_deal(declarer="ben", adjutant="aki")).stored()
    refresh_standings(match.pk)
    assert sources.events("standings.changed", {"season": season.pk})[0].id != first.id


@pytest.mark.django_db
def test_a_closed_season_tells_each_player_their_move(heard, django_capture_on_commit_callbacks):
    season, people = league("A B", players=8)
    standings_of(season, {p: (i + 1, True) for i, p in enumerate(people)})
    with django_capture_on_commit_callbacks(execute=True):
        actions.seasons.close_season(season, "Summer")
    assert ("season.closed", {"season": season.pk}) in heard
    (event,) = sources.events("season.closed", {"season": season.pk})
    told = {s.player: s for s in event.told}
    assert set(told) == {p.pk for p in people}
    kinds = {m["player"]: m["kind"] for m in event.data["moves"]}
    up = next(p for p in people if kinds[p.display_name] == "up")
    title, body = _words(told[up.pk], "en")
    assert title == f"{season.name} is closed" and body.startswith("You go up to ")


def test_a_night_drawn_without_rounds_is_one_draw_per_call(club, season, players):
    from actions import seating
    from actions.seating import PlannedTable

    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 5))
    made = seating.seat_night(
        night, [PlannedTable("napoleon", [players[h] for h in ("aki", "ben", "chika", "dai")])]
    )
    ids = {"night": night.pk, "table": made[0].table_id}
    (event,) = sources.events("round.drawn", ids)
    assert event.id == f"round.drawn:night-{night.pk}-{made[0].table_id}"
    assert {s.player for s in event.told} == {players[h].pk for h in ("aki", "ben", "chika", "dai")}
    assert _words(event.told[0], "en")[0].startswith("Tonight's draw: Table 1, seat ")


def test_a_night_called_off_tells_every_player_of_the_club_once_and_held_again_too(
    club, season, players, heard, django_capture_on_commit_callbacks
):
    """Calling a night off tells every player of its club (drawn or not: whoever might
    come), and no other club's; a retried tap tells nothing again; held after all, that
    is told; the call-off read after the night was held again tells nothing; called off
    a second time, it is a new event."""
    from actions import nights

    rival = Club.objects.create(name="Rival", slug="rival")
    Player.objects.create(club=rival, handle="zed", display_name="Zed")
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 5), venue="Kanda")
    ours = set(Player.objects.filter(club=club).values_list("pk", flat=True))
    assert len(ours) == len(players)

    with django_capture_on_commit_callbacks(execute=True):
        assert nights.cancel_night(night)
        assert not nights.cancel_night(night)  # the same tap again: nothing changes
    assert heard == [("night.cancelled", {"night": night.pk})]
    (event,) = sources.events("night.cancelled", {"night": night.pk})
    assert event.type == "night.cancelled" and event.id.startswith(f"night.cancelled:{night.pk}:")
    assert sources.events("night.cancelled", {"night": night.pk})[0].id == event.id
    assert (event.club, event.season, event.night) == (club.pk, season.pk, night.pk)
    assert {s.player for s in event.told} == ours
    assert {s.kind for s in event.told} == {"drawn"}
    assert event.data["cancelled"] is True and event.data["date"] == "2026-12-05"
    title, body = _words(event.told[0], "en")
    assert title == "Called off: 2026-12-05 Kanda"
    assert body == f"{season.name}: this club night does not take place."
    assert _words(event.told[0], "ja")[0] == "中止: 2026-12-05 Kanda"
    assert event.told[0].url == reverse("club_night", args=[night.pk])

    heard.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert nights.restore_night(night)
    night.refresh_from_db()
    assert heard == [("night.restored", {"night": night.pk, "sequence": night.sequence})]
    assert sources.events("night.cancelled", {"night": night.pk}) == []  # held since
    (back,) = sources.events("night.restored", heard[0][1])
    assert back.id == f"night.restored:{night.pk}:{night.sequence}"
    assert back.data["cancelled"] is False and {s.player for s in back.told} == ours
    assert _words(back.told[0], "en")[0] == "Held after all: 2026-12-05 Kanda"

    with django_capture_on_commit_callbacks(execute=True):
        nights.cancel_night(night)
    assert sources.events("night.restored", heard[0][1]) == []  # called off again since
    (again,) = sources.events("night.cancelled", {"night": night.pk})
    assert again.id != event.id


def test_a_refused_call_off_tells_nothing(
    season, make_match, players, scorer, heard, django_capture_on_commit_callbacks
):
    """A night with a deal took place: calling it off is refused, and nobody is told."""
    from actions import nights

    match = make_match("napoleon", ["aki", "ben", "chika", "dai"])
    actions.deals.enter_deal(match, napoleon_deal(), user=scorer)
    heard.clear()
    night = match.table.club_night
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(Rejection):
        nights.cancel_night(night)
    assert heard == []


def test_every_message_a_player_may_get_reads_in_japanese_without_english():
    from reach import words
    from tests.web.test_messages import english_words

    effect = {"total_before": 10, "total_after": 40, "rank_before": 3, "rank_after": 1}
    every = [
        words.drawn(2, "Table 3", 1, [Player(display_name="Ａ"), Player(display_name="Ｂ")]),
        words.drawn(None, "Table 1", 4, []),
        words.sits_out(3),
        words.waiting(5, "Table 2", -30),
        words.corrected(4, "napoleon", effect),
        words.placed("round.closed", 2, 3, 12),
        words.placed("night.closed", None, 1, 1),
        *(words.moved("春", kind, "Ａ") for kind in ("up", "down", "stay", "new", "left")),
        words.champion("春"),
        words.called_off("春", ClubNight(date=dt.date(2026, 12, 5), venue="神田", final=True)),
        words.held_after_all("春", ClubNight(date=dt.date(2026, 12, 5), name="決勝")),
    ]
    for said in every:
        with translation.override("ja"):
            title, body = said()
        assert [w for w in english_words(title + " " + body) if w != "PIN"] == [], (title, body)
        with translation.override("en"):
            assert said() != (title, body)


def test_a_players_table_mates_are_named_in_the_language_of_each_phone():
    """One message, two phones: the Japanese one names Chika 千佳, the English one Chika;
    a player with no Japanese name is Ben on both."""
    from reach import words

    said = words.drawn(
        1, "Table 2", 3, [Player(display_name="Chika", name_ja="千佳"), Player(display_name="Ben")]
    )
    with translation.override("ja"):
        assert "千佳" in said()[1] and "Ben" in said()[1] and "Chika" not in said()[1]
    with translation.override("en"):
        assert said()[1] == "With Chika, Ben."
