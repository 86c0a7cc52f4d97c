"""A player's own night (issue 41, 1): from the table's link with no account, or as a
reader of the night; what it shows equals the night's standings; answered 304 while
nothing changed; nothing for those who hold neither a link of the night nor the right
to read it."""

from __future__ import annotations

import datetime as dt
import json
from urllib.parse import unquote

import pytest
import segno
from django.core.cache import cache
from django.test import Client, TestCase
from django.utils import timezone

import actions.deals
from actions import rounds
from actions import table_links as link_actions
from scoring import live as room_answer
from scoring import night as night_data
from tests.conftest import member_of
from tests.markup import squeezed, words
from tournaments.games import league_game
from tournaments.games.base import demo_deals
from tournaments.models import Club, ClubNight, Match, Membership, Player, Round, Season
from web.pages.tables import qr_svg

pytestmark = pytest.mark.django_db


@pytest.fixture
def tonight():
    return drawn_tonight()


def drawn_tonight() -> tuple[ClubNight, list[Player], Round]:
    """Nine players of a private season drawn tonight at three tables of three."""
    club = Club.objects.create(name="Hall", slug="hall")
    season = Season.objects.create(club=club, name="Private", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=timezone.localdate())
    people = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"Player {i}")
        for i in range(9)
    ]
    round_ = rounds.draw_next_round(
        night, game="napoleon", method="balanced", deals=2, players=[p.pk for p in people], seed=3
    ).round
    sitting = round_.sat_out.all()
    assert not sitting  # nine players: three tables of three
    return night, people, round_


def deal(match: Match, seed: int, refreshed: bool = True) -> None:
    """A deal entered at ``match``; its standings refreshed as a worker would (unless
    ``refreshed`` is false: the worker has not got to it yet)."""
    handles = [p.handle for p in match.seated_players()]
    record = demo_deals(league_game("napoleon"), seed, handles, target=2, first_in_full=False)[0]
    with TestCase.captureOnCommitCallbacks(execute=refreshed):
        actions.deals.enter_deal(match, record).stored()


def holding_the_link(match: Match) -> Client:
    phone = Client()
    token = link_actions.ensure(match.table)
    assert phone.get(f"/t/{token}/").status_code == 302
    return phone


def test_a_link_holder_sees_their_table_and_rank_and_it_follows_the_night(tonight):
    night, people, round_ = tonight
    match = Match.objects.filter(table__round=round_).order_by("table__name").first()
    other = Match.objects.filter(table__round=round_).order_by("table__name").last()
    me = match.seated_players()[0]
    phone = holding_the_link(match)
    chooser = squeezed(phone.get(f"/nights/{night.pk}/me/").content.decode())
    assert all(f'href="?player={p.pk}&amp;me">{p.display_name}</a>' in chooser for p in people)
    # Drawn, no deal played anywhere: no "first of nine with 0", but no deal yet.
    unplayed = squeezed(phone.get(f"/nights/{night.pk}/me/", {"player": me.pk}).content.decode())
    assert "Tonight: no deal yet." in unplayed and "Tonight: rank" not in unplayed
    assert f"Round 1 · {match.table.name}" in unplayed
    cache.clear()
    deal(other, 5)
    # The other table has played, ours not yet: still no place (the board shows "—"),
    # never "rank 5 of 9 · 0" below players who have played.
    waiting = squeezed(phone.get(f"/nights/{night.pk}/me/", {"player": me.pk}).content.decode())
    assert "Tonight: no deal yet." in waiting and "Tonight: rank" not in waiting
    cache.clear()
    deal(match, 4)
    answer = phone.get(f"/nights/{night.pk}/me/", {"player": me.pk})
    assert answer.status_code == 200
    shown = squeezed(answer.content.decode())
    _method, lines = night_data.standings(night)
    line = next(x for x in lines if x.player == me.pk)
    assert f"Tonight: rank {line.rank} of {len(lines)} · {line.total} points" in shown
    assert f"Round 1 · {match.table.name}" in shown and "1 of 2 deals" in shown
    mates = ", ".join(p.display_name for p in match.seated_players()[1:])
    assert f"With: {mates}" in shown
    # Asked again while nothing changed: 304, no body.
    again = phone.get(
        f"/nights/{night.pk}/me/", {"player": me.pk}, HTTP_IF_NONE_MATCH=answer["ETag"]
    )
    assert again.status_code == 304 and not again.content

    # A deal at another table changes the room's answer, not this player's own part
    # (their line tonight stays as it was here, its standings not yet refreshed): 304.
    def mine() -> tuple[int, int, int]:
        _method, lines = night_data.standings(night)
        line = next(x for x in lines if x.player == me.pk)
        return line.rank, line.total, len(lines)

    before = mine()
    deal(other, 7, refreshed=False)
    cache.clear()
    elsewhere = phone.get(
        f"/nights/{night.pk}/me/", {"player": me.pk}, HTTP_IF_NONE_MATCH=answer["ETag"]
    )
    assert mine() == before and elsewhere.status_code == 304
    # A deal entered at the player's table: the next answer says so.
    deal(match, 6)
    cache.clear()
    changed = phone.get(
        f"/nights/{night.pk}/me/", {"player": me.pk}, HTTP_IF_NONE_MATCH=answer["ETag"]
    )
    assert changed.status_code == 200 and "2 of 2 deals" in changed.content.decode()
    ja = phone.get(f"/nights/{night.pk}/me/", {"player": me.pk}, HTTP_ACCEPT_LANGUAGE="ja")
    assert "今夜" in ja.content.decode()


def test_a_player_whose_table_has_not_begun_has_no_place_yet(tonight):
    """A newcomer's walk: one table played a deal, the other none, and the second table's
    players stood at 2位 with 0, beside players who had played.  They are on the night's
    board and the room display with 0 and no place (—), until they play."""
    night, people, round_ = tonight
    first, *rest = Match.objects.filter(table__round=round_).order_by("table__name")
    Season.objects.filter(pk=night.season_id).update(public=True)
    deal(first, 4)
    waiting = rest[0].seated_players()[0]
    cache.clear()
    board = words(Client().get(f"/nights/{night.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    played = night_data.standings(night)[1]
    assert f"— {waiting.display_name} 0" in board
    assert all(f"{line.rank} {line.display_name}" in board for line in played if line.deals)
    live = room_answer.live(night, False)  # the room display's data, for its script
    rows = {r["player"]: r for b in live["standings"]["boards"] for r in b["rows"]}
    assert rows[waiting.pk]["begun"] is False and rows[first.seated_players()[0].pk]["begun"]


def test_nobody_without_a_link_or_the_right_to_read_sees_anything(tonight, django_user_model):
    night, people, round_ = tonight
    match = Match.objects.filter(table__round=round_).first()
    me = match.seated_players()[0].pk
    url = f"/nights/{night.pk}/me/"
    assert Client().get(url).status_code == 404
    assert Client().get(url, {"player": me}).status_code == 404
    other_club = Club.objects.create(name="Other", slug="other")
    outsider = Client()
    outsider.force_login(member_of(other_club, django_user_model, "o", Membership.Role.ADMIN))
    assert outsider.get(url, {"player": me}).status_code == 404
    # A link of another night opens nothing of this one.
    elsewhere = ClubNight.objects.create(season=night.season, date=night.date - dt.timedelta(1))
    far = rounds.draw_next_round(
        elsewhere, game="napoleon", method="balanced", deals=1, players=[p.pk for p in people[:3]]
    ).round
    assert holding_the_link(far.tables.get().matches.get()).get(url).status_code == 404
    # A revoked link stops at once; a player who is not of the night is nobody's.
    phone = holding_the_link(match)
    assert phone.get(url, {"player": me}).status_code == 200
    stranger = Player.objects.create(club=night.season.club, handle="z", display_name="Z")
    assert phone.get(url, {"player": stranger.pk}).status_code == 404
    assert phone.get(url, {"player": "x"}).status_code == 404
    link_actions.revoke(match.table)
    assert phone.get(url, {"player": me}).status_code == 404
    # The club's own member reads it, and lands there from the home page.
    member = django_user_model.objects.create_user("m", password="m-pass-2026")
    Membership.objects.create(club=night.season.club, user=member, role="member")
    Player.objects.filter(pk=me).update(user=member)
    reader = Client()
    reader.force_login(member)
    home = squeezed(reader.get("/").content.decode())
    assert f'href="/nights/{night.pk}/me/?player={me}">My night' in home
    assert reader.get(url, {"player": me}).status_code == 200


def test_the_room_display_shows_the_code_of_each_players_night(tonight, django_user_model):
    night, _people, _round = tonight
    reader = Client()
    reader.force_login(member_of(night.season.club, django_user_model, "r", "member"))
    shown = reader.get(f"/nights/{night.pk}/live/").content.decode()
    code = qr_svg(f"http://testserver/nights/{night.pk}/me/")
    assert f'src="{code}"' in shown


def test_a_qr_code_keeps_the_quiet_zone_the_standard_asks():
    """ISO/IEC 18004: four light modules around the symbol, so that a phone finds it
    beside the page's other lines (the room display's heading, a table's words)."""
    url = "http://testserver/nights/1/me/"
    svg = unquote(qr_svg(url).partition(",")[2])
    modules, _ = segno.make(url, error="m").symbol_size(scale=1, border=0)
    assert f"width='{(modules + 2 * 4) * 4}'" in svg
    assert "d='M4 4.5h7" in svg  # the first module drawn four modules in


def mine_of(page: str) -> str:
    """The content of the page's ``#mine``, squeezed."""
    start = page.index('<div id="mine"')
    start = page.index(">", start) + 1
    end = page.index('<p class="muted">', start)
    return squeezed(page[start:end].strip().removesuffix("</div>"))


def test_the_pages_script_asks_for_its_own_part_alone_and_it_is_the_pages(
    tonight, django_assert_max_num_queries
):
    night, people, round_ = tonight
    night.season.public = True  # read by anyone: no link, no session
    night.season.save()
    match = Match.objects.filter(table__round=round_).order_by("table__name").first()
    me = match.seated_players()[0].pk
    deal(match, 4)
    cache.clear()
    phone = Client()
    url = f"/nights/{night.pk}/me/"
    page = phone.get(url, {"player": me}).content.decode()
    part = phone.get(url, {"player": me, "part": "mine"})
    body = part.content.decode()
    assert part.status_code == 200 and "<html" not in body and "<h1>" not in body
    assert squeezed(body) == mine_of(page)  # the same markup, without the page around it
    # The page carries the part's ETag: the script's first question is answered 304.
    tag = part["ETag"]
    assert f'data-tag="{tag}"' in page.replace("&quot;", '"')
    # One query (who may read the night): the player is found in the room's answer.
    with django_assert_max_num_queries(1):
        again = phone.get(url, {"player": me, "part": "mine"}, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and not again.content
    deal(match, 5)
    cache.clear()
    changed = phone.get(url, {"player": me, "part": "mine"}, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and "2 of 2 deals" in changed.content.decode()
    ja = phone.get(url, {"player": me, "part": "mine"}, HTTP_ACCEPT_LANGUAGE="ja")
    assert "今夜" in ja.content.decode() and ja["ETag"] != changed["ETag"]


def test_the_part_alone_keeps_the_pages_rights(tonight, django_user_model):
    night, people, round_ = tonight
    match = Match.objects.filter(table__round=round_).first()
    me = match.seated_players()[0].pk
    url = f"/nights/{night.pk}/me/"
    mine = {"player": me, "part": "mine"}
    assert Client().get(url, mine).status_code == 404  # a private season, no link
    outsider = Client()
    other = Club.objects.create(name="O", slug="o")
    outsider.force_login(member_of(other, django_user_model, "o", Membership.Role.ADMIN))
    assert outsider.get(url, mine).status_code == 404
    phone = holding_the_link(match)
    assert phone.get(url, mine).status_code == 200
    # Nobody of the night by an id the room's answer does not show, nor by a text.
    stranger = Player.objects.create(club=night.season.club, handle="z", display_name="Z")
    for asked in (stranger.pk, "x", "", -1, 10**30):
        assert phone.get(url, {"player": asked, "part": "mine"}).status_code == 404
    # Who came but is neither seated nor sitting out yet is found by asking the database.
    came = Player.objects.create(club=night.season.club, handle="c", display_name="Came")
    night.present.add(came)
    cache.clear()
    answer = phone.get(url, {"player": came.pk, "part": "mine"})
    assert answer.status_code == 200 and "No table for you yet" in answer.content.decode()
    link_actions.revoke(match.table)
    assert phone.get(url, mine).status_code == 404


def test_before_the_draw_a_player_is_told_on_their_phone_when_their_table_is_drawn(
    django_user_model, django_capture_on_commit_callbacks, settings
):
    """A night nobody is seated at yet: the signed-in player turns the messages on from
    "my night" itself (the control of their own page), and hears of the draw on the
    phone, in Japanese; a member with no player of their own is pointed at the players'
    pages (their club's players only)."""
    from reach import vapid
    from reach.models import Notice
    from tests.reach import push_service

    club = Club.objects.create(name="Hall", slug="hall")
    season = Season.objects.create(club=club, name="Private", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=timezone.localdate() + dt.timedelta(7))
    people = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"Player {i}")
        for i in range(4)
    ]
    elsewhere = Club.objects.create(name="Other", slug="other")
    Player.objects.create(club=elsewhere, handle="x", display_name="Outsider")
    me = member_of(club, django_user_model, "mika", Membership.Role.MEMBER)
    Player.objects.filter(pk=people[2].pk).update(user=me)
    phone = Client()
    phone.force_login(me)
    phone.cookies["django_language"] = "ja"
    page = squeezed(phone.get(f"/nights/{night.pk}/me/").content.decode())
    assert 'id="own-messages"' in page and "まだ" in page
    assert f'data-url="/players/{people[2].pk}/push/"' in page
    assert 'id="player-pages"' not in page  # they are told who they are, not asked

    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = True  # the push service stand-in on loopback
    vapid.key.cache_clear()
    found, server = push_service.start()
    try:
        handset = found.phone()  # the control's request, as push.js sends it
        answer = phone.post(
            f"/players/{people[2].pk}/push/",
            json.dumps({"action": "on", "subscription": handset.json(), "kinds": ["drawn"]}),
            content_type="application/json",
        )
        assert answer.status_code == 200, answer.content
        found.server_key = vapid.application_server_key()
        with django_capture_on_commit_callbacks(execute=True):
            rounds.draw_next_round(
                night,
                game="napoleon",
                method="balanced",
                deals=1,
                players=[p.pk for p in people],
                seed=1,
            )
        got = found.wait(1)
        assert len(got) == 1 and "ラウンド" in got[0].message["title"]
        assert got[0].message["url"] == f"/nights/{night.pk}/me/?player={people[2].pk}"
        assert Notice.objects.get().player == people[2]
    finally:
        server.shutdown()
        server.server_close()
        vapid.key.cache_clear()

    # Seated now: straight to their own night; "Someone else" lists the others, their
    # own name first, marked.
    answer = phone.get(f"/nights/{night.pk}/me/")
    assert answer.status_code == 302
    assert answer.url == f"/nights/{night.pk}/me/?player={people[2].pk}"
    page = squeezed(phone.get(answer.url).content.decode())
    assert f'href="/nights/{night.pk}/me/?everyone">' in page
    page = squeezed(phone.get(f"/nights/{night.pk}/me/?everyone").content.decode())
    assert f'id="own-night">{people[2].display_name}' in page
    assert 'id="own-messages"' not in page

    # A member with no player of their own, on a night nobody is seated at: the players'
    # pages, their club's alone.
    later = ClubNight.objects.create(season=season, date=night.date + dt.timedelta(7))
    reader = Client()
    reader.force_login(member_of(club, django_user_model, "ren", Membership.Role.MEMBER))
    page = reader.get(f"/nights/{later.pk}/me/").content.decode()
    for p in people:
        assert f'href="?player={p.pk}&amp;me"' in page
    assert "Outsider" not in page and 'id="own-messages"' not in page


def test_a_drawn_night_called_off_shows_no_table_and_no_rank(tonight):
    """Drawn, then called off before a deal: the player's night says nothing is played,
    not their table or a rank, and no script keeps asking; held after all, the table
    is back."""
    from actions import nights

    night, _people, round_ = tonight
    match = Match.objects.filter(table__round=round_).order_by("table__name").first()
    me = match.seated_players()[0]
    phone = holding_the_link(match)
    nights.cancel_night(night)
    page = squeezed(phone.get(f"/nights/{night.pk}/me/", {"player": me.pk}).content.decode())
    assert 'id="called-off"' in page and "There is no play at this night." in page
    assert match.table.name not in page and "Tonight:" not in page and "mine.js" not in page
    nights.restore_night(night)
    cache.clear()
    page = squeezed(phone.get(f"/nights/{night.pk}/me/", {"player": me.pk}).content.decode())
    assert f"Round 1 · {match.table.name}" in page and "There is no play" not in page


def test_a_night_called_off_says_so_and_a_player_finds_their_next_nights_at_home(
    django_user_model,
):
    """Next week's night on the player's home page, their club's alone; called off, the
    home page marks it, and its "my night" says so first and offers the message for
    a night held after all, not a draw to wait for."""
    from actions import nights

    club = Club.objects.create(name="Hall", slug="hall")
    season = Season.objects.create(club=club, name="Private", games=["napoleon"])
    soon = ClubNight.objects.create(season=season, date=timezone.localdate() + dt.timedelta(7))
    ClubNight.objects.create(season=season, date=timezone.localdate() - dt.timedelta(7))
    other = Club.objects.create(name="Other", slug="other")
    theirs = ClubNight.objects.create(
        season=Season.objects.create(club=other, name="Theirs", games=["napoleon"]),
        date=soon.date,
        venue="Elsewhere",
    )
    me = member_of(club, django_user_model, "mika", Membership.Role.MEMBER)
    aya = Player.objects.create(club=club, handle="aya", display_name="Aya", user=me)
    phone = Client()
    phone.force_login(me)
    home = phone.get("/").content.decode()
    mine = home[home.index('id="my-next-nights"') :]
    mine = mine[: mine.index("</section>")]
    assert f'href="/nights/{soon.pk}/me/"' in mine and "called-off" not in mine
    assert f"/nights/{theirs.pk}/" not in mine and mine.count("<li") == 1  # not a past one

    nights.cancel_night(soon)
    home = phone.get("/").content.decode()
    assert 'class="called-off"' in home[home.index('id="my-next-nights"') :]
    phone.cookies["django_language"] = "ja"
    page = squeezed(phone.get(f"/nights/{soon.pk}/me/").content.decode())
    assert 'id="called-off"' in page and "この例会は中止です" in page
    assert "やはり開催になったとき" in page and f'data-url="/players/{aya.pk}/push/"' in page
    assert "卓は当日に決まります" not in page

    # A member with no player of their own has no such list.
    reader = Client()
    reader.force_login(member_of(club, django_user_model, "ren", Membership.Role.MEMBER))
    assert 'id="my-next-nights"' not in reader.get("/").content.decode()


def test_a_players_matches_at_home_are_in_the_order_of_their_nights(django_user_model):
    """A season entered after its nights (an import, the demo) makes an older night's
    match after a newer one's: the home page still lists the newest night first, in the
    player's own matches and in the latest matches; a night still to come, its tables
    made ahead, is not among the latest."""
    from actions.matches import create_match
    from tournaments.models import Table

    club = Club.objects.create(name="Hall", slug="hall")
    season = Season.objects.create(club=club, name="Spring", games=["napoleon"])
    me = member_of(club, django_user_model, "mika", Membership.Role.MEMBER)
    people = [
        Player.objects.create(
            club=club, handle=h, display_name=h.title(), user=me if h == "mika" else None
        )
        for h in ["aya", "mika", "ren", "sho"]
    ]
    today = timezone.localdate()
    made = []
    for days, venue in ((7, "Newer"), (21, "Older")):  # the newer night's match made first
        night = ClubNight.objects.create(season=season, date=today - dt.timedelta(days))
        table = Table.objects.create(club_night=night, name=f"{venue} table")
        made.append(create_match(table, "napoleon", people).pk)
    ahead = ClubNight.objects.create(season=season, date=today + dt.timedelta(7))
    planned = create_match(Table.objects.create(club_night=ahead, name="Ahead"), "napoleon", people)
    phone = Client()
    phone.force_login(me)
    home = phone.get("/").content.decode()
    listed = home[home.index('id="member-home"') :]
    newer, older = listed.index(f"/matches/{made[0]}/"), listed.index(f"/matches/{made[1]}/")
    assert newer < older
    latest = home[home.index("<h2>Latest matches</h2>") :]
    newer, older = latest.index(f"/matches/{made[0]}/"), latest.index(f"/matches/{made[1]}/")
    assert newer < older and f"/matches/{planned.pk}/" not in latest


def test_the_nights_page_before_the_first_deal_shows_who_sits_where(
    tonight, django_user_model, django_assert_max_num_queries
):
    """Drawn, nothing played: the night's page names each table's players (not an empty
    table) and says "no deal yet" for the night's standings, not nine players "1st with
    0", and so does the room display; the first deal brings the standings, the other
    tables still name their players."""
    night, people, round_ = tonight
    reader = Client()
    reader.force_login(member_of(night.season.club, django_user_model, "r", Membership.Role.MEMBER))
    with django_assert_max_num_queries(20):  # the seats come with the matches
        page = squeezed(reader.get(f"/nights/{night.pk}/").content.decode())
    assert 'class="board night-board"' not in page and 'class="muted night-unplayed"' in page
    seated = []
    for match in Match.objects.filter(table__round=round_):
        card = page[page.index(f'href="/matches/{match.pk}/"') :]
        card = card[: card.index("No deal yet.")]
        names = [p.display_name for p in match.seated_players()]
        assert all(f">{name}</a>" in card for name in names), names
        seated += names
    assert sorted(seated) == sorted(p.display_name for p in people)
    # The room display alike: the tables with their players, no standings' rows yet.
    room = room_answer.live(night, False)
    assert [b["rows"] for b in room["standings"]["boards"]] == [[]]
    assert sorted(n for t in room["tables"] for n in t["players"]) == sorted(seated)
    screen = squeezed(reader.get(f"/nights/{night.pk}/live/").content.decode())
    assert '<td colspan="3" class="muted">No deal yet.</td>' in screen
    first = Match.objects.filter(table__round=round_).order_by("pk").first()
    deal(first, 1)
    page = squeezed(reader.get(f"/nights/{night.pk}/").content.decode())
    assert 'class="board night-board"' in page and "night-unplayed" not in page
    tables = Match.objects.filter(table__round=round_).count()
    assert page.count("No deal yet.") == tables - 1  # the tables still to play
    rows = room_answer.live(night, False)["standings"]["boards"][0]["rows"]
    assert len(rows) == len(people)


def open_club() -> tuple[Club, ClubNight, ClubNight, list[Player]]:
    """A club of six players with a public season: tonight's night and next week's."""
    club = Club.objects.create(name="Hall", slug="hall")
    season = Season.objects.create(club=club, name="Open", games=["napoleon"], public=True)
    first = ClubNight.objects.create(season=season, date=timezone.localdate())
    later = ClubNight.objects.create(season=season, date=first.date + dt.timedelta(7))
    people = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"Player {i}")
        for i in range(6)
    ]
    return club, first, later, people


def test_a_stranger_before_the_draw_is_told_who_is_listed(django_user_model):
    """A public season's next night, nobody seated: a stranger sees only the players who
    have played in the club's public seasons (``access.visible``), and is told so and how
    else to find their night, even on the first night, when nobody is listed; a member of
    the club sees everyone, and is told nothing."""
    club, first, later, people = open_club()
    stranger = Client()
    stranger.cookies["django_language"] = "ja"
    page = squeezed(stranger.get(f"/nights/{later.pk}/me/").content.decode())
    assert 'id="player-pages"' not in page
    assert 'id="some-unlisted"' in page and "公開シーズンで対戦したことのある" in page

    rounds.draw_next_round(
        first, game="napoleon", method="balanced", deals=1, players=[p.pk for p in people[:4]]
    )
    page = squeezed(stranger.get(f"/nights/{later.pk}/me/").content.decode())
    assert page.count('href="?player=') == 4
    assert 'id="some-unlisted"' in page

    member = Client()
    member.force_login(member_of(club, django_user_model, "ren", Membership.Role.MEMBER))
    page = squeezed(member.get(f"/nights/{later.pk}/me/").content.decode())
    assert page.count('href="?player=') == 6
    assert 'id="some-unlisted"' not in page


def test_a_stranger_who_taps_their_name_before_the_draw_sees_their_table_come(
    django_user_model,
):
    """Nobody seated at a public season's next night: a stranger taps their name and gets
    that night's page for them (not their player page), which says the tables are drawn
    at the night and offers to tell this phone; once drawn, the same page shows the
    table.  Only the names the list offers open: a player the stranger may not see (no
    public play yet, or another club's) is not found, nor is their part."""
    club, first, later, people = open_club()
    rounds.draw_next_round(
        first, game="napoleon", method="balanced", deals=1, players=[p.pk for p in people[:4]]
    )
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    Season.objects.create(club=other, name="Open too", games=["napoleon"], public=True)
    theirs = Player.objects.create(club=other, handle="x", display_name="Outsider")
    stranger = Client()
    url = f"/nights/{later.pk}/me/"
    page = squeezed(stranger.get(url, {"player": people[0].pk}).content.decode())
    assert "<h1>Player 0</h1>" in page
    assert "No table yet: the tables are drawn at the night." in page
    assert f'data-url="/players/{people[0].pk}/push/"' in page  # not the night's: not at it
    for hidden in (people[5], theirs):
        assert stranger.get(url, {"player": hidden.pk}).status_code == 404
        assert stranger.get(url, {"player": hidden.pk, "part": "mine"}).status_code == 404

    rounds.draw_next_round(
        later, game="napoleon", method="balanced", deals=1, players=[p.pk for p in people[:4]]
    )
    cache.clear()  # a second later: the room's answer kept a second is made again
    part = stranger.get(url, {"player": people[0].pk, "part": "mine"}).content.decode()
    assert "No table yet" not in part
    assert any(name in part for name in ("Player 1", "Player 2", "Player 3"))  # who they sit with
    page = squeezed(stranger.get(url, {"player": people[0].pk}).content.decode())
    assert f'data-url="/nights/{later.pk}/push/"' in page


def test_a_night_not_today_says_at_this_night_not_tonight(tonight, django_user_model):
    """ "Tonight" on the night's date; a night looked at before or after it says "At this
    night" (この例会).  A night over (two days and more ago) no longer says that the page
    follows it and shows the next table."""
    night, people, _round = tonight
    match = Match.objects.filter(table__club_night=night).first()
    deal(match, 1)
    seated = match.seated_players()[0]
    reader = Client()
    reader.force_login(member_of(night.season.club, django_user_model, "m", Membership.Role.MEMBER))
    reader.cookies["django_language"] = "ja"
    url = f"/nights/{night.pk}/me/?player={seated.pk}"
    follows = "次の卓がここに出ます"
    page = reader.get(url).content.decode()
    assert "今夜：" in page and follows in page
    ClubNight.objects.filter(pk=night.pk).update(date=night.date - dt.timedelta(days=1))
    cache.clear()  # the day after a night past midnight: still followed
    assert follows in reader.get(url).content.decode()
    ClubNight.objects.filter(pk=night.pk).update(date=night.date - dt.timedelta(days=7))
    cache.clear()
    page = reader.get(url).content.decode()
    assert "この例会：" in page and "今夜：" not in page and follows not in page


def test_a_phone_remembers_the_name_it_tapped_and_offers_it_first_at_the_next_night():
    """A name tapped on "Who are you?" is this phone's at every night of the club: the
    next night lists it first, as the reader's own, before the draw and after.  The
    answers that depend on it are kept by nobody else.  Only a name the list offers is
    remembered, "Someone else"'s list remembers nothing, and a cookie not signed by the
    site, or of another club, changes nothing."""
    club, first, later, people = open_club()
    rounds.draw_next_round(
        first, game="napoleon", method="balanced", deals=1, players=[p.pk for p in people[:4]]
    )
    chika = people[3]
    phone = Client()
    listed = phone.get(f"/nights/{first.pk}/me/").content.decode()
    assert f'href="?player={chika.pk}&amp;me"' in listed
    assert "(you)" not in listed

    tapped = phone.get(f"/nights/{first.pk}/me/", {"player": chika.pk, "me": ""})
    assert tapped.status_code == 302 and tapped["Location"].endswith(f"/?player={chika.pk}")
    assert "no-store" in tapped["Cache-Control"]
    kept = tapped.cookies[f"me-{club.pk}"]
    assert kept["httponly"] and kept["samesite"] == "Lax" and kept["max-age"] > 300 * 24 * 3600

    def first_chip(client: Client, night: ClubNight, query: str = "") -> str:
        answer = client.get(f"/nights/{night.pk}/me/{query}")
        page = squeezed(answer.content.decode())
        assert "Cookie" in answer["Vary"]
        start = page.index('class="chips-list"')
        return page[start : page.index("</li>", start)], answer

    chip, answer = first_chip(phone, later)  # next week, nobody drawn yet: the club's names
    assert f"?player={chika.pk}&amp;me" in chip and "Player 3 (you)" in chip
    assert "no-store" in answer["Cache-Control"]
    rounds.draw_next_round(
        later, game="napoleon", method="balanced", deals=1, players=[p.pk for p in people]
    )
    chip, _answer = first_chip(phone, later)
    assert 'id="own-night"' in chip and "Player 3 (you)" in chip
    chip, _answer = first_chip(phone, later, "?everyone")  # "Someone else": nothing remembered
    assert "Player 3 (you)" in chip and "&amp;me" not in chip
    assert phone.get(f"/nights/{later.pk}/me/", {"player": people[0].pk}).status_code == 200
    chip, _answer = first_chip(phone, later)  # looking at someone else's night is not a tap
    assert "Player 3 (you)" in chip

    other = Client()
    chip, answer = first_chip(other, later)
    assert "(you)" not in chip and "no-store" not in answer.get("Cache-Control", "")
    other.cookies[f"me-{club.pk}"] = str(chika.pk)  # not signed by the site
    assert "(you)" not in first_chip(other, later)[0]

    elsewhere = Club.objects.create(name="Elsewhere", slug="elsewhere")
    season = Season.objects.create(club=elsewhere, name="Open too", games=["napoleon"], public=True)
    night = ClubNight.objects.create(season=season, date=first.date)
    outsider = Player.objects.create(club=elsewhere, handle="x", display_name="Outsider")
    rounds.draw_next_round(
        night,
        game="napoleon",
        method="balanced",
        deals=1,
        players=[outsider.pk]
        + [
            Player.objects.create(club=elsewhere, handle=f"x{i}", display_name=f"X {i}").pk
            for i in range(3)
        ],
    )
    assert "(you)" not in first_chip(phone, night)[0]  # another club: nobody remembered
    refused = phone.get(f"/nights/{later.pk}/me/", {"player": outsider.pk, "me": ""})
    assert refused.status_code == 404 and f"me-{elsewhere.pk}" not in refused.cookies
    assert f"me-{club.pk}" not in refused.cookies
    assert "Player 3 (you)" in first_chip(phone, later)[0]

    # A night drawn without this phone's player: told so, and offered the messages.
    third = ClubNight.objects.create(season=later.season, date=later.date + dt.timedelta(7))
    rounds.draw_next_round(
        third,
        game="napoleon",
        method="balanced",
        deals=1,
        players=[p.pk for p in people[:3]] + [people[4].pk],
    )
    page = squeezed(phone.get(f"/nights/{third.pk}/me/").content.decode())
    assert "(you)" not in page
    assert "Player 3, you are not at tonight's tables yet" in page
    assert page.index('id="own-messages"') < page.index('id="night-players"')  # told first
    assert f'data-url="/players/{chika.pk}/push/"' in page
    assert "not at tonight's tables" not in other.get(f"/nights/{third.pk}/me/").content.decode()


def test_the_remembered_name_is_sent_over_https_alone_where_the_site_is_https(settings):
    """Behind HTTPS (the site's setting), the phone's remembered name is a secure-only
    cookie, as the session's is."""
    club, first, _later, people = open_club()
    rounds.draw_next_round(
        first, game="napoleon", method="balanced", deals=1, players=[p.pk for p in people[:4]]
    )
    settings.SESSION_COOKIE_SECURE = True
    tapped = Client().get(f"/nights/{first.pk}/me/", {"player": people[0].pk, "me": ""})
    assert tapped.cookies[f"me-{club.pk}"]["secure"]
    settings.SESSION_COOKIE_SECURE = False
    tapped = Client().get(f"/nights/{first.pk}/me/", {"player": people[0].pk, "me": ""})
    assert not tapped.cookies[f"me-{club.pk}"]["secure"]
