"""A season of many players reads on a phone (issue 39): the season page shows a page of
each leaderboard at a time, finds a player by name, shows the reader their own line and
plots the leaders and the reader; it is sent compressed; its standings print fast."""

from __future__ import annotations

import csv
import gzip
import io
import re

import pytest
from django.test import Client
from openpyxl import load_workbook

from scoring import leaderboard
from scoring import pdf as printed
from scoring.documents import Document
from scoring.models import Rating, Scope, SeasonFile, SeasonStanding
from tests import worlds
from tests.markup import squeezed
from tests.web.test_documents import pages_text
from tournaments.models import Division, Membership, Placement, Player, Season

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
PAGE = 20


@pytest.fixture(autouse=True)
def _short_pages(monkeypatch):
    """Pages of 20 lines: three pages of a board from a season of 130 players."""
    monkeypatch.setattr(leaderboard, "PAGE", PAGE)


@pytest.fixture
def wide():
    """One public season of 130 players (every game; standings rebuilt)."""
    worlds.rebuilt_federation(1, 130, 1500, 39, public=True, tables=12)
    return Season.objects.get(club__slug__startswith="fed-")


def read(client, url: str, data=None) -> str:
    """A page's markup, its layout taken out (``tests.markup.squeezed``)."""
    return squeezed(client.get(url, data).content.decode())


def ranks(html: str, game: str) -> list[int]:
    board = html[html.index(f'id="game-{game}"') :]
    board = board[: board.index("</table>")]
    return [int(n) for n in re.findall(r'<tr[^>]*><td class="num">(\d+)</td>', board)]


def test_a_page_of_each_board_at_a_time(wide, client):
    game = "napoleon"
    lines = SeasonStanding.objects.filter(season=wide, game=game).order_by("rank", "player_id")
    expected = list(lines.values_list("rank", flat=True))
    assert len(expected) > 2 * PAGE  # three pages
    first = read(client, f"/seasons/{wide.pk}/")
    assert ranks(first, game) == expected[:PAGE]
    assert f"1–{PAGE} of {len(expected)}" in first
    link = re.search(rf'href="(\?game={game}&amp;page=2#game-{game})" rel="next"', first)
    assert link, "a next page"
    second = read(client, f"/seasons/{wide.pk}/{link.group(1).replace('&amp;', '&')}")
    assert ranks(second, game) == expected[PAGE : 2 * PAGE]
    rettler = SeasonStanding.objects.filter(season=wide, game="rettler").order_by(
        "rank", "player_id"
    )
    # the other boards: their first page
    assert ranks(second, "rettler") == list(rettler.values_list("rank", flat=True)[:PAGE])
    last = read(client, f"/seasons/{wide.pk}/?game={game}&page=999")
    assert ranks(last, game) == expected[(len(expected) - 1) // PAGE * PAGE :]  # the last
    assert client.get(f"/seasons/{wide.pk}/?game={game}&page=x").status_code == 200


def test_by_rating_a_page_at_a_time_too(wide, client):
    page = read(client, f"/seasons/{wide.pk}/?sort=rating&game=napoleon&page=2")
    board = page[page.index('id="game-napoleon"') :]
    ratings = [float(r) for r in re.findall(r'<td class="num">(-?\d+\.\d)</td></tr>', board)]
    assert len(ratings) >= PAGE and ratings[:PAGE] == sorted(ratings[:PAGE], reverse=True)
    first = read(client, f"/seasons/{wide.pk}/?sort=rating")
    top = first[first.index('id="game-napoleon"') :]
    best = [float(r) for r in re.findall(r'<td class="num">(-?\d+\.\d)</td></tr>', top)][:PAGE]
    assert min(best) >= max(ratings[:PAGE])  # page 2 follows page 1


def test_a_player_is_found_by_name(wide, client):
    player = Player.objects.get(club=wide.club, handle="p00017")
    page = read(client, f"/seasons/{wide.pk}/", {"q": player.display_name})
    names = re.findall(r'<a href="/players/(\d+)/">', page)
    assert names and set(names) == {str(player.pk)}
    nobody = read(client, f"/seasons/{wide.pk}/", {"q": "<b>nobody"})
    assert "Nobody's name holds “&lt;b&gt;nobody”." in nobody
    assert "<b>nobody" not in nobody


def test_a_member_sees_their_own_line_and_is_taken_to_it(wide, django_user_model):
    game = "napoleon"
    last = SeasonStanding.objects.filter(season=wide, game=game).order_by("-rank").first()
    assert last is not None and last.rank > PAGE
    user = django_user_model.objects.create_user("me", password="me-password-1")
    Membership.objects.create(user=user, club=wide.club, role=Membership.Role.MEMBER)
    Player.objects.filter(pk=last.player_id).update(user=user)
    client = Client()
    client.force_login(user)
    page = read(client, f"/seasons/{wide.pk}/")
    board = page[page.index(f'id="game-{game}"') :]
    mine = re.search(r'<p class="mine"><a href="([^"]+)">You: rank (\d+)', board)
    assert mine and int(mine.group(2)) == last.rank
    there = read(client, f"/seasons/{wide.pk}/{mine.group(1).replace('&amp;', '&')}")
    board = there[there.index(f'id="game-{game}"') :]
    assert f'class="me" id="me-{game}"' in board.split("</table>")[0]
    # the plot draws the leaders and the reader, not everyone
    chart = board[board.index("<svg") : board.index("</svg>")]
    assert chart.count("<polyline") == leaderboard.LEADERS + 1
    assert f"{Player.objects.get(pk=last.player_id).display_name}:" in chart


@pytest.mark.parametrize("by_rating", [False, True], ids=["by points", "by rating"])
def test_a_readers_line_is_placed_by_counting_as_by_numbering_the_season(wide, by_rating):
    """The reader's own line is placed by counting the lines ahead of it (not by numbering
    the whole season): for every player of every board, by points and by rating, in the
    season and in each division, in either scope of ratings, ties of rank and of rating
    and lines without a rating included, the same place (and rank in the division) as
    the board numbered by a window, and so the same page and rank."""
    lines = SeasonStanding.objects.filter(season=wide, game="napoleon").order_by("rank")
    tied = list(lines.values_list("pk", flat=True)[3:9])
    SeasonStanding.objects.filter(pk__in=tied).update(rank=4)  # six lines tied at 4th
    players = list(Player.objects.filter(club=wide.club).order_by("pk"))
    assert len(players) == 130
    rated = Rating.objects.filter(player__in=players, game="napoleon")
    assert rated.filter(scope=Scope.CLUB).exists() and rated.filter(scope=Scope.PUBLIC).exists()
    rated.filter(player__in=players[:12]).delete()  # lines without a rating: last by rating
    rated.filter(player__in=players[20:26]).update(rating=17.5)  # six lines of one rating
    upper = Division.objects.create(season=wide, name="A", order=0)
    lower = Division.objects.create(season=wide, name="B", order=1)
    Placement.objects.bulk_create(  # a third in each division, a third in none
        Placement(season=wide, division=upper if i % 3 == 0 else lower, player=p)
        for i, p in enumerate(players)
        if i % 3 != 2
    )
    for scope in (Scope.CLUB, Scope.PUBLIC):
        for division in (None, upper, lower):
            base = SeasonStanding.objects.filter(season=wide)
            if division is not None:
                base = base.filter(player__placements__division=division)
            numbered = {
                (r.player_id, r.game): (r.position, getattr(r, "division_rank", None))
                for r in leaderboard._placed(base, scope, by_rating, division is not None)
            }
            counted = {
                (r.player_id, r.game): (r.position, getattr(r, "division_rank", None))
                for p in {line.player_id for line in base}
                for r in leaderboard._own_lines(base, Player(pk=p), scope, by_rating, division)
            }
            assert counted == numbered, (scope, division)
    base = SeasonStanding.objects.filter(season=wide)
    places = sorted(
        r.position
        for p in base.filter(pk__in=tied).values_list("player_id", flat=True)
        for r in leaderboard._own_lines(base, Player(pk=p), Scope.CLUB, False, None)
        if r.game == "napoleon"
    )
    assert places == [4, 5, 6, 7, 8, 9]  # a tie is placed by player id, as the page lists it


def test_a_member_in_a_division_sees_their_rank_in_it_by_rating_too(wide, django_user_model):
    """A member's own line in their division, by rating: the rank in the division and a
    link to the page of the board that lists them."""
    players = list(Player.objects.filter(club=wide.club).order_by("pk"))
    division = Division.objects.create(season=wide, name="A", order=0)
    Placement.objects.bulk_create(
        Placement(season=wide, division=division, player=p) for p in players[::2]
    )
    game = "napoleon"
    ranked = sorted(
        (r.rank, r.player_id)
        for r in SeasonStanding.objects.filter(season=wide, game=game, player__in=players[::2])
    )
    rank, me = ranked[-1]  # the division's last by points
    assert len(ranked) > PAGE
    user = django_user_model.objects.create_user("me", password="me-password-1")
    Membership.objects.create(user=user, club=wide.club, role=Membership.Role.MEMBER)
    Player.objects.filter(pk=me).update(user=user)
    client = Client()
    client.force_login(user)
    by_points = read(client, f"/seasons/{wide.pk}/")
    board = by_points[by_points.index(f'id="game-{game}"') :]
    mine = re.search(r'<p class="mine"><a href="([^"]+)">You: rank (\d+)', board)
    in_division = 1 + sum(1 for r, _p in ranked if r < rank)
    assert mine and int(mine.group(2)) == in_division
    by_rating = read(client, f"/seasons/{wide.pk}/?sort=rating")
    board = by_rating[by_rating.index(f'id="game-{game}"') :]
    mine = re.search(r'<p class="mine"><a href="([^"]+)">You: rank (\d+)', board)
    if mine is None:  # on the first page by rating: listed there
        assert f'class="me" id="me-{game}"' in board.split("</table>")[0]
        return
    assert int(mine.group(2)) == in_division
    there = read(client, f"/seasons/{wide.pk}/{mine.group(1).replace('&amp;', '&')}")
    board = there[there.index(f'id="game-{game}"') :]
    assert f'class="me" id="me-{game}"' in board.split("</table>")[0]


def test_the_page_is_sent_compressed_and_secret_pages_never_are(wide, client, admin, match):
    answer = client.get(f"/seasons/{wide.pk}/", HTTP_ACCEPT_ENCODING="gzip")
    assert answer["Content-Encoding"] == "gzip" and "Accept-Encoding" in answer["Vary"]
    html = gzip.decompress(answer.content).decode()
    assert len(answer.content) < len(html) / 4 and "</html>" in html
    # A page that holds the tables' link tokens and PINs is never compressed (BREACH).
    tables = admin.get(f"/nights/{match.table.club_night_id}/tables/", HTTP_ACCEPT_ENCODING="gzip")
    assert tables.status_code == 200 and "Content-Encoding" not in tables


def test_a_thousand_lines_print_once_each_in_order_a_heading_on_every_page():
    rows = [[n, f"Player {n}", 1000 - n] for n in range(1, 1001)]
    book = printed.book(
        [Document("s", ["Club – Season", "Standings"], ["Rank", "Player", "Points"], rows)]
    )
    pages = pages_text(book)
    assert len(pages) > 15
    assert all("Rank" in page and "Points" in page for page in pages)
    printed_names = re.findall(r"Player (\d+)", "\n".join(pages))
    assert [int(n) for n in printed_names] == list(range(1, 1001))


def test_the_standings_csv_is_streamed_and_the_xlsx_kept_whole(wide, client):
    """The CSV is sent as it is written; the XLSX, made once per version of the season's
    data (``scoring.season_files``), is sent as kept."""
    lines = SeasonStanding.objects.filter(season=wide).count()
    answer = client.get(f"/seasons/{wide.pk}/standings.csv")
    assert answer.streaming
    blocks = list(answer.streaming_content)
    assert len(blocks) > 1  # sent as it is written, not whole
    rows = list(csv.reader(io.StringIO(b"".join(blocks).decode("utf-8-sig"))))
    assert len(rows) == lines + 1
    workbook = client.get(f"/seasons/{wide.pk}/standings.xlsx")
    assert workbook.status_code == 200 and not workbook.streaming
    assert SeasonFile.objects.get(season=wide).data == workbook.content
    sheet = load_workbook(io.BytesIO(workbook.getvalue())).active
    values = list(sheet.iter_rows(values_only=True))
    header = next(i for i, row in enumerate(values) if row and row[1] == "Rank")
    assert len(values) - header - 1 == lines
    assert sheet.freeze_panes == f"B{header + 2}"


@pytest.mark.parametrize("nights", [2, 7, 26, 52, 53])
def test_the_plots_dates_never_overlap_and_stay_on_the_page(nights):
    """However many nights, the dates under a plot are apart and inside it (the last one
    is drawn leftwards of its tick)."""
    import datetime as dt

    from scoring.charts import DATE_WIDTH, WIDTH, line_chart
    from scoring.sheets import SeasonChart, Series

    player = Player(display_name="Aki", handle="aki")
    from tournaments.models import ClubNight

    days = [
        (n, ClubNight(date=dt.date(2026, 1, 6) + dt.timedelta(days=7 * (n - 1))))
        for n in range(1, nights + 1)
    ]
    chart = SeasonChart(
        series=[Series(player, [(0, 0), *((n, n) for n, _ in days)])], deals=nights, nights=days
    )
    svg = line_chart(chart)
    spans = []
    for x, anchor in re.findall(
        r'<text x="([\d.]+)" y="[\d.]+" text-anchor="(\w+)"[^>]*>\d\d-\d\d<', svg
    ):
        left = float(x) - (DATE_WIDTH if anchor == "end" else DATE_WIDTH / 2)
        spans.append((left, left + DATE_WIDTH))
    assert spans and spans[0][0] >= 0 and spans[-1][1] <= WIDTH
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))


def test_the_standings_file_reads_the_lines_once_and_lists_a_tie_by_name(
    wide, django_assert_max_num_queries
):
    """The standings download reads the season's lines in one query, however many (plain
    values, each player's rating joined), and lists lines tied on a board by name, as it
    always has."""
    from scoring import season_tables

    game = "napoleon"
    tied = list(
        SeasonStanding.objects.filter(season=wide, game=game)
        .order_by("rank")
        .values_list("pk", "player_id")[:5]
    )
    SeasonStanding.objects.filter(pk__in=[pk for pk, _p in tied]).update(rank=1)
    for n, (_pk, player) in enumerate(tied):  # named against the order of their ids
        Player.objects.filter(pk=player).update(display_name=f"Tied {9 - n}")
    season = Season.objects.select_related("club").get(pk=wide.pk)
    with django_assert_max_num_queries(3):
        header, rows = season_tables.standings_table(season, Scope.CLUB)
    assert len(rows) == SeasonStanding.objects.filter(season=wide).count()
    at = header.index("Player")
    board = [row for row in rows if row[0] == "Napoleon"]
    assert [row[at] for row in board[:5]] == [f"Tied {n}" for n in range(5, 10)]
    assert [row[1] for row in board[:6]] == [1, 1, 1, 1, 1, 6]
    ratings = dict(
        Rating.objects.filter(scope=Scope.CLUB, game=game).values_list(
            "player__display_name", "rating"
        )
    )
    rated = header.index("Rating")
    assert all(row[rated] == round(ratings[row[at]], 1) for row in board if row[at] in ratings)
