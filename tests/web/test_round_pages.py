"""The pages of a night in rounds (issue 25, 5): propose, change, confirm, end early; the
room display; the night's standings with their exports."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import time

import pytest
from django.test import Client
from django.utils import timezone

from tests.conftest import member_of
from tests.markup import squeezed, words
from tournaments.models import Club, ClubNight, Match, Membership, Player, Round, Season, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club):
    season = Season.objects.create(club=club, name="Open", games=["napoleon"], public=True)
    return ClubNight.objects.create(season=season, date=dt.date(2026, 11, 28), venue="Hall")


@pytest.fixture
def nine(club):
    return [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"P{i}").pk
        for i in range(1, 10)
    ]


@pytest.fixture
def director(club, django_user_model):
    page = Client()
    page.force_login(member_of(club, django_user_model, "dir", Membership.Role.ADMIN))
    return page


def test_a_round_is_proposed_changed_and_confirmed_on_the_page(night, nine, director):
    url = f"/nights/{night.pk}/rounds/"
    assert director.get(url).status_code == 200
    form = {"game": "napoleon", "method": "balanced", "deals": "2", "players": nine}
    proposal = director.post(url, {**form, "action": "propose"}, follow=True)
    text = proposal.content.decode()
    assert proposal.status_code == 200 and "Confirm the round" in text
    assert not Round.objects.exists()  # a proposal writes nothing
    # Nine Napoleon players: three tables of 3; P1 is moved out of the round.
    confirm = {**form, "action": "confirm", "tables": "3", "number": "1", "player": nine}
    tables = [nine[0:3], nine[3:6], nine[6:9]]
    for n, table in enumerate(tables, 1):
        for p in table:
            confirm[f"table_{p}"] = str(n)
    confirm[f"table_{nine[0]}"] = "out"  # a table of 2 is no Napoleon table: said, nothing written
    refused = director.post(url, confirm)
    assert refused.status_code == 400 and "not 2" in refused.content.decode()
    assert not Round.objects.exists()
    confirm[f"table_{nine[0]}"] = "2"  # P1 and P4 change tables
    confirm[f"table_{nine[3]}"] = "1"
    done = director.post(url, confirm)
    assert done.status_code == 302
    made = Round.objects.get()
    seated = [
        {p.pk for p in m.seated_players()}
        for m in Match.objects.filter(table__round=made).order_by("table__name")
    ]
    assert nine[3] in seated[0] and nine[0] in seated[1] and len(seated) == 3
    again = director.post(url, confirm)  # the same confirmation twice: one round
    assert again.status_code == 400 and Round.objects.count() == 1
    ended = director.post(url, {"action": "end", "reason": "hall closes"})
    assert ended.status_code == 302
    assert not Match.objects.filter(table__round=made, status="open").exists()


def test_a_proposed_round_survives_a_reload_until_seated_or_drawn_again(
    night, nine, director, club, django_user_model
):
    """A phone put away and reloaded showed the round's choices again, the proposal lost
    (a newcomer's walk): it is kept, as the draw's tables are, in the session, until it
    is seated, drawn again or left for the choices (``?again``); one made stale by
    another administrator, or naming a player since deleted, is forgotten, never a 500."""
    url = f"/nights/{night.pk}/rounds/"
    form = {"game": "napoleon", "method": "balanced", "deals": "2", "players": nine}
    proposed = director.post(url, {**form, "action": "propose"})
    assert proposed.status_code == 302 and proposed["Location"] == url
    shown = director.get(url)
    tables = shown.context["proposal"].seating.tables
    assert "Confirm the round" in shown.content.decode() and sum(map(len, tables)) == 9
    assert director.get(url).context["proposal"].seating.tables == tables  # not redrawn
    # Not only the small "Rounds" of the path above: said at the foot of the proposal.
    again = re.search(r'<a href="([^"]+)" id="again">([^<]+)</a>', shown.content.decode())
    assert again and again.groups() == (
        f"{url}?again",
        "Start again from the round's game and players",
    )
    choices = director.get(f"{url}?again")
    assert "proposal" not in choices.context and "Confirm the round" not in choices.content.decode()
    assert "proposal" not in director.get(url).context  # left: forgotten
    # Another administrator seats round 1 meanwhile: the first one's proposal is stale.
    director.post(url, {**form, "action": "propose"})
    other = Client()
    other.force_login(member_of(club, django_user_model, "dir2", Membership.Role.ADMIN))
    other.post(url, {**form, "action": "propose"})
    kept = other.get(url).context["proposal"]
    confirm = {**form, "action": "confirm", "number": "1", "player": nine}
    confirm["tables"] = str(len(kept.seating.tables))
    for n, table in enumerate(kept.seating.tables, 1):
        confirm |= {f"table_{p}": str(n) for p in table}
    assert other.post(url, confirm).status_code == 302 and Round.objects.count() == 1
    assert "proposal" not in other.get(url).context  # seated: forgotten
    assert "proposal" not in director.get(url).context  # stale: forgotten
    # Another night's proposal is its own; a player deleted after it was made: the
    # choices again, not a server error.
    later = ClubNight.objects.create(season=night.season, date=dt.date(2026, 12, 5), name="B")
    four = [
        Player.objects.create(club=club, handle=f"l{i}", display_name=f"L{i}") for i in range(4)
    ]
    there = f"/nights/{later.pk}/rounds/"
    director.post(there, {**form, "action": "propose", "players": [p.pk for p in four]})
    assert "proposal" in director.get(there).context and "proposal" not in director.get(url).context
    four[0].delete()
    page = director.get(there)
    assert page.status_code == 200 and "proposal" not in page.context


def test_only_administrators_run_rounds_and_anyone_watches_a_public_night(
    night, nine, club, django_user_model
):
    member = Client()
    member.force_login(member_of(club, django_user_model, "m", Membership.Role.MEMBER))
    assert member.get(f"/nights/{night.pk}/rounds/").status_code == 403
    form = {"game": "napoleon", "players": nine, "action": "propose"}
    assert member.post(f"/nights/{night.pk}/rounds/", form).status_code == 403
    room = Client().get(f"/nights/{night.pk}/live/")
    assert room.status_code == 200 and 'src="/static/clubscore/live.js"' in room.content.decode()
    night.season.public = False
    night.season.save()
    assert Client().get(f"/nights/{night.pk}/live/").status_code == 404


def test_the_nights_standings_export(night, nine, director, django_capture_on_commit_callbacks):
    import actions.deals
    from actions import rounds
    from tournaments.games import league_game
    from tournaments.games.base import demo_deals

    with django_capture_on_commit_callbacks(execute=True):
        made = rounds.draw_next_round(
            night, game="napoleon", players=nine, deals=1, seed=1, method="balanced"
        ).round
        for match in Match.objects.filter(table__round=made):
            handles = [p.handle for p in match.seated_players()]
            actions.deals.enter_deal(
                match,
                demo_deals(league_game("napoleon"), 1, handles, target=1, first_in_full=False)[0],
            ).stored()
    page = Client().get(f"/nights/{night.pk}/").content.decode()
    assert 'id="night-standings"' in page and "P9" in page
    pdf = Client().get(f"/nights/{night.pk}/standings.pdf")
    text = subprocess.run(
        ["pdftotext", "-", "-"], input=pdf.content, capture_output=True, check=True
    ).stdout.decode()
    assert "raw points" in text and "P1" in text
    csv = Client().get(f"/nights/{night.pk}/standings.csv").getvalue().decode("utf-8-sig")
    assert csv.splitlines()[0].startswith("Rank,Player,Total") and len(csv.splitlines()) == 10


def test_a_night_by_table_ranks_is_set_up_on_its_page(night, director):
    url = f"/seasons/{night.season.pk}/nights/new/"
    form = {"date": "2026-12-05", "venue": "Hall", "standings": "ranks", "rank_points": "5, 3, 1"}
    wrong = director.post(url, {**form, "rank_points": "5, three"})
    assert wrong.status_code == 200 and "whole numbers" in wrong.content.decode()
    assert director.post(url, form).status_code == 302
    made = ClubNight.objects.get(date=dt.date(2026, 12, 5))
    assert made.standings == "ranks" and made.rank_points == [5, 3, 1]


# -- "Confirm the round" checks what the API checks: the page sends a proposal changed by
# hand, so it may say anything (rounds.seat validates all of it). ------------------------


@pytest.fixture
def hidden():
    """Another club's player, seen by nobody outside it."""
    other = Club.objects.create(name="Other", slug="other")
    return Player.objects.create(club=other, handle="secret", display_name="Secret Sato")


def _confirm(nine, **changes):
    """Three tables of three, as a proposal comes back from the page."""
    form = {
        "game": "napoleon",
        "method": "balanced",
        "deals": "2",
        "players": nine,
        "action": "confirm",
        "tables": "3",
        "number": "1",
        "player": list(nine),
    }
    for n, table in enumerate([nine[0:3], nine[3:6], nine[6:9]], 1):
        for p in table:
            form[f"table_{p}"] = str(n)
    form.update(changes)
    return form


def _refused(director, night, form) -> str:
    answer = director.post(f"/nights/{night.pk}/rounds/", form)
    assert answer.status_code == 400, answer.status_code
    assert not Round.objects.exists() and not Table.objects.exists()
    return answer.content.decode()


def test_another_clubs_player_never_sits_out_and_is_never_published(night, nine, hidden, director):
    form = _confirm(nine, player=[*nine, hidden.pk], **{f"table_{hidden.pk}": "out"})
    assert "no player" in _refused(director, night, form)
    for url in (
        f"/nights/{night.pk}/",
        f"/nights/{night.pk}/live/",
        f"/api/club-nights/{night.pk}/standings/",
    ):
        assert "Secret Sato" not in Client().get(url).content.decode()


def test_a_game_outside_the_season_seats_nothing_and_the_night_still_answers(night, nine, director):
    _refused(director, night, _confirm(nine, game="poker", player=[]))
    _refused(director, night, _confirm(nine, game="comp13"))
    _refused(director, night, _confirm(nine, game="x" * 5000))
    for url in (f"/nights/{night.pk}/", f"/nights/{night.pk}/live/", f"/nights/{night.pk}/rounds/"):
        assert director.get(url).status_code == 200


@pytest.mark.parametrize(
    "changes",
    [
        {"player": ["999999999"], "table_999999999": "1"},
        {"player": ["99999999999999999"], "table_99999999999999999": "1"},
        {"deals": "40000"},
        {"deals": "0"},
        {"method": "m" * 5000},
        {"number": "9" * 18},
    ],
    ids=["unknown", "huge-id", "deals-over", "deals-zero", "long-method", "huge-number"],
)
def test_hostile_values_are_refused_in_words(night, nine, director, changes):
    form = _confirm(nine, **changes)
    if "player" in changes:
        form["player"] = [*nine, *changes["player"]]
    answer = director.post(f"/nights/{night.pk}/rounds/", form)
    assert answer.status_code in (400, 409) and b"<ul" in answer.content
    assert not Round.objects.exists()


def test_a_huge_table_count_builds_nothing(night, nine, director):
    started = time.monotonic()
    form = _confirm(nine, tables="9" * 18)
    answer = director.post(f"/nights/{night.pk}/rounds/", form)
    assert time.monotonic() - started < 5
    assert answer.status_code in (302, 400)


def test_the_api_refuses_the_same_values(night, nine, hidden, club, django_user_model):
    from tests.conftest import client_of

    api = client_of(member_of(club, django_user_model, "dir2", Membership.Role.ADMIN))
    url = f"/api/club-nights/{night.pk}/rounds/"
    for body in (
        {"game": "napoleon", "players": [*nine[:8], hidden.pk]},
        {"game": "napoleon", "players": [*nine[:8], 10**20]},
        {"game": "napoleon", "players": [*nine[:8], -1]},
        {"game": "napoleon", "players": nine, "deals": 40000},
        {"game": "poker", "players": nine},
        {"game": "napoleon", "players": nine, "method": "final", "size": 10**20},
        {"game": "napoleon", "players": "everyone"},
    ):
        answer = api.post(url, body, format="json")
        assert answer.status_code == 400 and answer.json()["errors"], body
    assert not Round.objects.exists()


def test_round_1_starts_from_the_nights_attendance(night, nine, director):
    attendance = director.get(f"/nights/{night.pk}/draw/").content.decode()
    assert f'href="/nights/{night.pk}/rounds/"' in attendance  # the way to the rounds
    came = nine[:7]
    answer = director.post(
        f"/nights/{night.pk}/draw/", {"action": "rounds", "present": [*came, "x" * 30, 10**40]}
    )
    assert answer.status_code == 302 and answer["Location"] == f"/nights/{night.pk}/rounds/"
    assert sorted(night.present.values_list("pk", flat=True)) == sorted(came)
    page = squeezed(director.get(f"/nights/{night.pk}/rounds/").content.decode())
    ticked = {pk for pk in nine if f'value="{pk}" id="id_players_{pk}" checked' in page}
    assert ticked == set(came)
    assert 'id="final-fields"' in page  # shown for the final table only (site.js)
    # Another club's player cannot be made present.
    other = Club.objects.create(name="Other", slug="other")
    stranger = Player.objects.create(club=other, handle="x", display_name="X")
    director.post(f"/nights/{night.pk}/draw/", {"action": "rounds", "present": [stranger.pk]})
    assert not night.present.exists()


def test_two_nights_on_one_date_are_told_apart(night, client):
    evening = ClubNight.objects.create(season=night.season, date=night.date, venue="Room B")
    season = client.get(f"/seasons/{night.season_id}/").content.decode()
    assert "2026-11-28 Hall" in words(season) and "2026-11-28 Room B" in words(season)
    assert f"/nights/{evening.pk}/" in season


def test_a_nights_date_stays_on_one_line_and_its_title_is_text(night, client):
    """A phone's narrow heading never breaks a date after its hyphen (``2026-11-`` over
    ``28``): the date is one unbreakable piece of the night's name on every page; the
    browser tab's title is the name's text alone."""
    page = client.get(f"/nights/{night.pk}/").content.decode()
    heading = page[page.index("<h1>") : page.index("</h1>")]
    assert '<span class="nowrap">2026-11-28</span> Hall' in heading
    title = page[page.index("<title>") : page.index("</title>")]
    assert "2026-11-28 Hall – Test Club" in words(title) and "span" not in title


def test_lists_of_matches_name_the_round(night, nine, director):
    from actions import rounds

    today = timezone.localdate()
    ClubNight.objects.filter(pk=night.pk).update(date=today)  # the home page's tonight
    rounds.draw_next_round(night, game="napoleon", method="balanced", players=nine, deals=2, seed=1)
    home = director.get("/").content.decode()
    assert f"{today:%Y-%m-%d} Hall Round 1 · Table 1" in words(home)
    player = director.get(f"/players/{nine[0]}/").content.decode()
    assert "Round 1 · Table" in player


def test_the_room_displays_latest_deals_name_an_earlier_rounds_table_by_its_round(
    night, nine, client
):
    """Every round has its "Table 1": a deal of round 1 still among the latest once
    round 2 is on the screen says "Round 1 · Table 1"; round 2's deals say their table."""
    from actions import rounds
    from tests.conftest import play

    first = rounds.draw_next_round(
        night, game="napoleon", method="balanced", players=nine, deals=1, seed=1
    ).round
    play(first)
    second = rounds.draw_next_round(
        night, game="napoleon", method="balanced", players=nine, deals=1, seed=2
    ).round
    play(second, seed=5)
    tables = [d["table"] for d in client.get(f"/api/club-nights/{night.pk}/live/").json()["latest"]]
    assert sorted(tables[:3]) == ["Table 1", "Table 2", "Table 3"]  # round 2: three of three
    assert sorted(tables[3:]) == ["Round 1 · Table 1", "Round 1 · Table 2"]  # four and five
    client.cookies["django_language"] = "ja"
    page = client.get(f"/nights/{night.pk}/live/").content.decode()
    assert "第 1 ラウンド · 卓 1 · " in page


def test_a_tab_says_where_the_reader_is(night, nine, client):
    """Every round has its "Table 1": a match's title and heading name its round, and the
    title its night; a season's title names its club; a player's own night names them."""
    from actions import rounds
    from tournaments.models import Match

    drawn = rounds.draw_next_round(
        night, game="napoleon", method="balanced", players=nine, deals=2, seed=1
    ).round
    match = Match.objects.filter(table__round=drawn).order_by("table__name").first()

    def title_and_heading(url: str) -> tuple[str, str]:
        page = client.get(url).content.decode()
        title = words(page[page.index("<title>") : page.index("</title>")])
        heading = words(page[page.index("<h1>") : page.index("</h1>")]) if "<h1>" in page else ""
        return title, heading

    title, heading = title_and_heading(f"/matches/{match.pk}/")
    assert title == f"Napoleon – Round 1 · {match.table.name} – 2026-11-28 Hall"
    assert heading == f"Napoleon · Round 1 · {match.table.name}"
    assert title_and_heading(f"/seasons/{night.season_id}/")[0] == "Open – Test Club"
    seated = match.seated_players()[0]
    title, _heading = title_and_heading(f"/nights/{night.pk}/me/?player={seated.pk}")
    assert title == f"{seated.display_name} – My night – 2026-11-28 Hall"


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_round_proposed_without_players_says_so_at_the_names(night, nine, director, language):
    """A first night with nobody ticked (no attendance taken): "Propose the round" is
    refused, the summary at the top links to "Who plays", and the names' fieldset says it
    again, in the reader's language; nothing is stored."""
    director.cookies["django_language"] = language
    form = {"game": "napoleon", "method": "balanced", "deals": "2", "action": "propose"}
    answer = director.post(f"/nights/{night.pk}/rounds/", form)
    page = squeezed(answer.content.decode())
    said = (
        "このラウンドに参加するプレイヤーを選んでください。"
        if language == "ja"
        else "Say who plays this round."
    )
    assert answer.status_code == 400 and not Round.objects.exists()
    assert f'<a href="#field-players">{said}</a>' in page
    names = page[page.index('id="field-players"') :]
    assert names.index(f'<p class="errorlist" id="players-problem">{said}</p>') < names.index(
        f'id="id_players_{nine[0]}"'
    )


def test_the_deals_per_match_names_the_seasons_games_a_round_gives_a_length(club, director):
    """A round gives a number of deals to the games with no end of their own: the field
    names them from the season's games (1234 and Bhabhi count games too), not a fixed
    "Napoleon, Rettler" that a season of other games contradicts."""
    games = ["napoleon", "bhabhi", "comrade", "twentytwo"]
    season = Season.objects.create(club=club, name="Mixed", games=games)
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 4))
    page = words(director.get(f"/nights/{night.pk}/rounds/").content.decode())
    assert "Deals per match (Napoleon, Bhabhi; other games play to their own end)" in page
    alone = Season.objects.create(club=club, name="Comrade only", games=["comrade"])
    night = ClubNight.objects.create(season=alone, date=dt.date(2026, 12, 5))
    page = words(director.get(f"/nights/{night.pk}/rounds/").content.decode())
    assert "Deals per match" in page and "other games play" not in page


def test_a_round_proposal_names_players_still_in_an_open_match_outside_the_rounds(
    night, nine, director
):
    """Tables drawn before the night went over to rounds may still be playing: the round's
    proposal names who sits at one (not a finished one's players) and links their match;
    confirming seats them all the same, and once the match is ended the notice is gone."""
    from actions import corrections
    from actions.matches import create_match

    first = Table.objects.create(club_night=night, name="Table 1")
    other = Table.objects.create(club_night=night, name="Table 2")
    players = {p.pk: p for p in Player.objects.filter(pk__in=nine)}
    playing = create_match(first, "napoleon", [players[p] for p in nine[:4]])
    done = create_match(other, "napoleon", [players[p] for p in nine[4:8]])
    corrections.end_match(done, None, "over")
    url = f"/nights/{night.pk}/rounds/"
    form = {"game": "napoleon", "method": "balanced", "deals": "2", "players": nine}
    page = director.post(url, {**form, "action": "propose"}, follow=True).content.decode()
    notice = words(
        page[page.index('id="still-playing"') : page.index("</div>", page.index("still-playing"))]
    )
    assert "Table 1 · Napoleon: P1, P2, P3, P4" in notice and "P5" not in notice
    assert f'href="/matches/{playing.pk}/"' in page
    director.cookies["django_language"] = "ja"
    page = director.post(url, {**form, "action": "propose"}, follow=True).content.decode()
    assert "ラウンドに入っていない" in page and "卓 1 · ナポレオン: P1, P2, P3, P4" in words(page)
    # The match was drawn and never played: its page ends it all the same.
    match_page = director.get(f"/matches/{playing.pk}/").content.decode()
    assert 'id="end-match"' in match_page
    director.post(f"/matches/{playing.pk}/end/", {"reason": "we play rounds"})
    assert Match.objects.get(pk=playing.pk).status == Match.Status.FINISHED
    page = director.post(url, {**form, "action": "propose"}, follow=True).content.decode()
    assert 'id="still-playing"' not in page


def test_a_rounds_match_page_leads_its_administrator_back_to_the_rounds(
    night, nine, director, client
):
    from actions import rounds
    from tournaments.models import Match

    drawn = rounds.draw_next_round(
        night, game="napoleon", method="balanced", players=nine, deals=2, seed=1
    ).round
    match = Match.objects.filter(table__round=drawn).first()
    page = director.get(f"/matches/{match.pk}/").content.decode()
    assert re.search(rf'href="/nights/{night.pk}/rounds/"\s+id="to-rounds"', page)
    assert 'id="to-rounds"' not in client.get(f"/matches/{match.pk}/").content.decode()
