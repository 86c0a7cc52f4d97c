"""Issue 56's walk: a whole season as a club runs it, on 375×740 phones in Japanese, by taps.

A secretary starts a club, adds fourteen players from a list with their readings, makes a
season of Napoleon, Comp-13 and Packing ranked by each player's best 2 club nights with a
qualifying minimum of 2 nights, asking for a second person's confirmation, and splits the
players into two divisions by a rule.  Three club nights in rounds: the first yesterday,
the second today and the season's final today too (two nights on one date).  Every deal
is entered on a scorer's phone with no account by the table's link; the scorer says who
scores with the first PIN of their slip (printed on the night's paper), and another seated
player confirms each deal with theirs, from the rounds page.  The final seats each
division's leaders; the season is closed.

Afterwards every figure of the season's lines, the final's seating and the promotions are
checked against a direct count written here from the deals, and a rebuild changes nothing.
The taps are counted (the README quotes them), PINs included."""

from __future__ import annotations

import datetime
import re
from collections import defaultdict

import pytest

from tests.web.browser import test_whole_night
from tests.web.browser.test_club_from_nothing import shot
from tournaments.games import LEAGUE_GAMES
from tournaments.games.base import demo_deals
from tournaments.models import ClubNight, Deal, Match, Membership, Player, Round, Season

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"viewport": {"width": 375, "height": 740}, "has_touch": True, "locale": "ja-JP"}
PLAYERS = [
    ("彩", "あや"),
    ("伊織", "いおり"),
    ("海斗", "かいと"),
    ("恵", "めぐみ"),
    ("大輝", "だいき"),
    ("翼", "つばさ"),
    ("陽菜", "ひな"),
    ("蓮", "れん"),
    ("結衣", "ゆい"),
    ("湊", "みなと"),
    ("凛", "りん"),
    ("颯", "はやて"),
    ("葵", "あおい"),
    ("悠真", "ゆうま"),
]
"""Given names a library reads wrongly (彩 is あや, not さい): each with its reading."""


class Thumb(test_whole_night.Thumb):
    """Taps and key presses, counted; the PINs' keys counted apart too."""

    def __init__(self, page) -> None:
        super().__init__(page)
        self.pin_keys = 0

    def pin(self, selector: str, pin: str) -> None:
        self.fill(selector, pin)
        self.pin_keys += 1 + len(pin)


class Season_:
    """The walk's state: the secretary's phone, the season and everyone's slip PINs."""

    def __init__(self, browser, base: str, tmp_path) -> None:
        self.browser = browser
        self.base = base
        self.tmp_path = tmp_path
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.thumb = Thumb(self.page)
        self.scorer_taps = 0
        self.deal_taps: dict[str, list[int]] = defaultdict(list)
        """Each deal's taps, by game (the form alone: chips, pad keys, digits, Save)."""
        self.phone_taps: list[int] = []
        """Each phone's taps before its first deal: the link opened, who scores said."""
        self.slips: dict[tuple[int, int], str] = {}
        """The first PIN of each (night, player)'s slip."""
        self.own_pins: dict[int, str] = {}
        """The PINs players chose after their first slip."""
        self.season: Season | None = None


def test_a_whole_season_on_phones_in_japanese_by_taps(browser, live_server, settings, tmp_path):
    settings.ALLOW_SIGN_UP = True
    base = live_server.url
    walk = Season_(browser, base, tmp_path)
    page, thumb = walk.page, walk.thumb

    # Sign-up: the secretary starts a club.
    page.goto(f"{base}/accounts/sign-up/")
    thumb.fill("#id_account-username", "yuki")
    thumb.fill("#id_account-password1", "hongo-season-2026")
    thumb.fill("#id_account-password2", "hongo-season-2026")
    thumb.fill("#id_club-club", "本郷カード会")
    thumb.tap(".save button")
    page.wait_for_selector("#players")
    club = Membership.objects.get(user__username="yuki", role="admin").club

    # Fourteen players from a list with their readings.
    roster = tmp_path / "players.csv"
    roster.write_text(
        "name,reading\n" + "".join(f"{n},{r}\n" for n, r in PLAYERS), encoding="utf-8"
    )
    page.set_input_files("#id_list", str(roster))
    thumb.count += 2  # the file chooser: open, pick
    thumb.tap("#add-list")
    page.wait_for_selector(".messages")
    players = {p.display_name: p for p in Player.objects.filter(club=club)}
    assert {n: players[n].reading for n, _ in PLAYERS} == dict(PLAYERS)

    # The season: three games, best 2 nights, a minimum of 2 nights, confirmation.
    thumb.tap("a[href$='/seasons/new/']")
    thumb.fill("#id_name", "秋季リーグ")
    for game in ("napoleon", "comp13", "packing"):
        thumb.tap(f"#field-games label:has(input[value={game}])")
    thumb.tap("label[for=id_require_confirmation]")
    thumb.tap("label[for=id_ranking_3]")  # best club nights
    thumb.fill("#id_best_of", "2")
    thumb.fill("#id_qualify_minimum", "2")
    thumb.tap(".save button")
    page.wait_for_selector(".messages")
    season = walk.season = Season.objects.get(club=club)
    assert (season.ranking, season.best_of, season.qualify_minimum) == ("best_nights", 2, 2)
    shot(page, tmp_path, "season-created-375-ja")

    # Two divisions, the players split by a rule, then the night's rounds.
    divisions_by_rule(walk, "A B")
    yesterday = datetime.date.today() - datetime.timedelta(days=1)
    first = new_night(walk, yesterday)  # its table links still work today
    play_round(walk, first, "napoleon", deals=1, seed=100)
    play_round(walk, first, "comp13", deals=1, seed=200)
    second = new_night(walk, None)
    play_round(walk, second, "packing", deals=1, seed=300)
    play_round(walk, second, "napoleon", deals=1, seed=400)
    final = new_night(walk, None, final=True)
    assert final.date == second.date and final.pk != second.pk
    seats = play_final(walk, final, "napoleon", seed=500)
    close_season(walk)
    check_the_season(walk, seats)


def open_page(walk: Season_, path: str) -> None:
    """A page the secretary opens from a link or a bookmark: one tap."""
    walk.page.goto(walk.base + path)
    walk.thumb.count += 1


def new_night(walk: Season_, date: datetime.date | None, *, final: bool = False) -> ClubNight:
    """A club night of the season (tonight unless ``date``; the date picker: three taps),
    everyone present, in rounds."""
    page, thumb = walk.page, walk.thumb
    open_page(walk, f"/seasons/{walk.season.pk}/nights/new/")
    if date is not None:
        page.fill("#id_date", date.isoformat())
        thumb.count += 3  # the picker: open it, a day, done
    if final:
        thumb.tap("label[for=id_final]")
    thumb.tap(".save button")
    page.wait_for_selector("#attendance")
    night = ClubNight.objects.filter(season=walk.season).latest("pk")
    thumb.tap("#everyone")
    thumb.tap("#play-rounds")
    page.wait_for_selector("#next-round")
    walk.slips.update({(night.pk, p): pin for p, pin in slip_pins(walk, night).items()})
    return night


def slip_pins(walk: Season_, night: ClubNight) -> dict[int, str]:
    """The first PINs of the night's slips, as the secretary prints and hands them out,
    of the players who have none yet (read off the slips page: one tap to open it)."""
    page = walk.page
    here = page.url
    open_page(walk, f"/nights/{night.pk}/slips/")
    shot(page, walk.tmp_path, f"slips-{night.pk}-375-ja")
    found = {
        int(slip.get_attribute("data-player")): slip.locator(".slip-pin").inner_text().strip()
        for slip in page.locator(".slip").all()
    }
    page.goto(here)
    return found


def next_round(walk: Season_, night: ClubNight, game: str, deals: int | None, **final) -> Round:
    """The next round proposed and confirmed from the rounds page."""
    page, thumb = walk.page, walk.thumb
    if not page.url.endswith(f"/nights/{night.pk}/rounds/"):
        open_page(walk, f"/nights/{night.pk}/rounds/")
    page.wait_for_selector("#next-round")
    if page.input_value("#id_game") != game:
        page.select_option("#id_game", game)
        thumb.count += 2
    if final:
        assert page.is_checked("#id_method_final")  # a final night's first round: the final
        thumb.fill("#id_size", str(final["size"]))
    if deals is not None:
        thumb.tap("#id_deals")
        for _ in page.input_value("#id_deals"):
            thumb.press("Backspace")
        thumb.type(str(deals))
    thumb.tap("#propose")
    page.wait_for_selector("#round-proposal")
    shot(page, walk.tmp_path, f"proposal-{night.pk}-{game}")
    number = night.rounds.count() + 1
    with page.expect_navigation():
        thumb.tap("#confirm-round")
    page.wait_for_selector(f"#round-{number}")
    return night.rounds.get(number=number)


def play_round(walk: Season_, night: ClubNight, game: str, deals: int, seed: int, **final):
    """A round of ``game``: drawn, each table's deals entered on its phone, every deal
    confirmed by another seated player from the rounds page; a game that plays to its own
    end (Comp-13's 12 deals, Packing's 500) is ended early when its deals are in."""
    round_ = next_round(walk, night, game, deals if game == "napoleon" else None, **final)
    open_page(walk, f"/nights/{night.pk}/tables/?round={round_.number}")
    links = [box.input_value() for box in walk.page.locator(".table-link input.copy").all()]
    assert len(links) == round_.tables.count()
    for i, link in enumerate(links):
        walk.scorer_taps += enter_deals(walk, link, game, deals, seed + 10 * i)
    confirm_all(walk, night)
    if game != "napoleon":
        page, thumb = walk.page, walk.thumb
        thumb.fill("#end-round input[name=reason]", "時間切れ")
        thumb.tap("#end-round button")
        page.wait_for_selector(".messages")
    return round_


def enter_deals(walk: Season_, link: str, game: str, deals: int, seed: int) -> int:
    """A scorer's phone with no account opens the table's ``link``; its scorer (the first
    seated player) says who scores with their slip, then taps in ``deals`` deals."""
    context = walk.browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(link)
    found = re.search(r"/matches/(\d+)/", page.content())
    assert found, (link, page.url, page.inner_text("main")[:500])
    match = Match.objects.get(pk=int(found.group(1)))
    seated = match.seated_players()
    handles = [p.handle for p in seated]
    thumb = Thumb(page)
    thumb.tap("#phone-scorer a")
    say_pin(walk, thumb, seated[0], match.table.club_night)
    page.wait_for_selector("#phone-scorer")
    thumb.tap(f"a[href='/matches/{match.pk}/enter/']")
    page.wait_for_selector("#deal-entry[data-ready]")
    walk.phone_taps.append(thumb.count)
    league = LEAGUE_GAMES[game]
    from tests.web.browser.conftest import tap_deal

    for record in demo_deals(league, seed, handles, most=deals, first_in_full=False):
        before = thumb.count
        thumb.count += tap_deal(page, league.initial(record, handles))
        with page.expect_navigation():
            thumb.tap("#save")
        walk.deal_taps[game].append(thumb.count - before)
        page.wait_for_selector(".messages")
    assert match.deals.count() == deals
    context.close()
    return thumb.count


def say_pin(walk: Season_, thumb: Thumb, player: Player, night: ClubNight) -> None:
    """On a PIN page: the player's name, then their PIN.  A player with no PIN of their own
    types their slip's six digits, and is then offered to choose one: every other player
    does (their next nights need no slip), the others tap "Not now"."""
    page = thumb.page
    thumb.tap(f"label[for=id_player_{player.pk}]")
    own = walk.own_pins.get(player.pk)
    thumb.pin("#id_pin", own or walk.slips[night.pk, player.pk])
    with page.expect_navigation():
        thumb.tap(".save button")
    if own is None:
        page.wait_for_selector("#save-pin")
        if player.pk % 2:
            pin = f"{player.pk % 10000:04d}"
            thumb.pin("#id_pin", pin)
            thumb.pin("#id_again", pin)
            with page.expect_navigation():
                thumb.tap("#save-pin")
            walk.own_pins[player.pk] = pin
        else:
            with page.expect_navigation():
                thumb.tap("#skip-pin")


def confirm_all(walk: Season_, night: ClubNight) -> None:
    """Every waiting deal confirmed from the rounds page by a seated player who did not
    score it, with their slip; each confirmation lands back on the rounds page."""
    page, thumb = walk.page, walk.thumb
    open_page(walk, f"/nights/{night.pk}/rounds/")
    page.locator("#waiting").scroll_into_view_if_needed()
    shot(page, walk.tmp_path, f"waiting-{night.pk}-375-ja")
    while page.locator("#waiting a[href*='/pin/']").count():
        href = page.get_attribute("#waiting a[href*='/pin/'] >> nth=0", "href")
        deal = Deal.objects.get(pk=int(re.search(r"/deals/(\d+)/pin/", href).group(1)))
        thumb.tap("#waiting a[href*='/pin/'] >> nth=0")
        page.wait_for_selector("#id_pin")
        shown = page.inner_text("main")
        for line in deal.scores.all():  # the deal it confirms: each seat's score
            assert f"{line.score}" in shown.replace("−", "-"), (line, shown)
        confirmer = deal.match.seated_players()[1]
        say_pin(walk, thumb, confirmer, night)
        page.wait_for_selector("#round-1")
        assert page.url.endswith(f"/nights/{night.pk}/rounds/"), page.url
        assert Deal.objects.get(pk=deal.pk).confirmed_by_player == confirmer


def divisions_by_rule(walk: Season_, names: str) -> None:
    """The season's divisions named, the players split by a rule (one tap), saved."""
    page, thumb = walk.page, walk.thumb
    open_page(walk, f"/seasons/{walk.season.pk}/divisions/")
    thumb.fill("#id_names", names)
    thumb.tap("button[name=rule][value=alternate]")
    page.wait_for_selector("#rule-filled")
    thumb.tap("div.save button")
    page.wait_for_selector(".messages")
    shot(page, walk.tmp_path, "divisions-375-ja")


def play_final(walk: Season_, night: ClubNight, game: str, seed: int) -> dict[str, set[int]]:
    """The final round: each division's leaders at its final table of four (the others at
    a table of three), as counted from the deals before it is drawn; its deals entered and
    confirmed.  The players of each division's final table."""
    before = count_season(walk.season)
    round_ = play_round(walk, night, game, deals=1, seed=seed, size=4)
    finals: dict[str, set[int]] = {}
    for match in Match.objects.filter(table__round=round_).prefetch_related("seats"):
        seated = {s.player_id for s in match.seats.all()}
        if len(seated) == 4:
            division = {division_of(walk.season, p) for p in seated}
            assert len(division) == 1, division
            finals[division.pop()] = seated
    assert set(finals) == {"A", "B"}, finals
    for division, seated in finals.items():
        expected = leaders(before, walk.season, game, division, 4)
        assert seated in expected, (division, seated, expected)
    return finals


def close_season(walk: Season_) -> None:
    page, thumb = walk.page, walk.thumb
    open_page(walk, f"/seasons/{walk.season.pk}/close/")
    shot(page, walk.tmp_path, "close-375-ja")
    thumb.fill("#id_next_season", "冬季リーグ")
    thumb.tap(".save button")
    page.wait_for_selector(".messages")


# -- the direct count -------------------------------------------------------------------


def division_of(season: Season, player_id: int) -> str:
    return season.placements.get(player_id=player_id).division.name


def count_season(season: Season) -> dict[tuple[str, int], tuple[int, int, bool]]:
    """Each (game, player)'s line by the season's rule, counted from the confirmed deals:
    the sum of their best 2 nights' points (a night: one club night, whatever its date),
    the nights played, and whether they are 2 or more."""
    nights: dict[tuple[str, int], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for deal in Deal.objects.filter(
        match__table__club_night__season=season, deleted_at__isnull=True
    ).select_related("match__table"):
        assert deal.confirmed_at is not None
        for line in deal.scores.all():
            key = (deal.match.game, line.player_id)
            nights[key][deal.match.table.club_night_id] += line.score
    out = {}
    for key, by_night in nights.items():
        best = sorted(by_night.values(), reverse=True)[:2]
        out[key] = (sum(best), len(by_night), len(by_night) >= 2)
    return out


def leaders(
    count: dict[tuple[str, int], tuple[int, int, bool]],
    season: Season,
    game: str,
    division: str,
    n: int,
) -> list[set[int]]:
    """Every set of ``n`` players a division's table of its leaders may seat: the qualified
    first, by the best-2 sum; more than one set only when a tie straddles the cut."""
    lines = [
        (not qualified, -score, player)
        for (g, player), (score, _nights, qualified) in count.items()
        if g == game and division_of(season, player) == division
    ]
    lines.sort()
    cut = lines[n - 1][:2]
    sure = {p for q, s, p in lines if (q, s) < cut}
    tied = [p for q, s, p in lines if (q, s) == cut]
    from itertools import combinations

    return [sure | set(c) for c in combinations(tied, n - len(sure))]


def check_the_season(walk: Season_, finals: dict[str, set[int]]) -> None:
    from scoring.models import SeasonStanding
    from scoring.rebuild import rebuild_season
    from tournaments.models import Move

    season = walk.season
    count = count_season(season)
    stored = {
        (line.game, line.player_id): (int(line.score), line.nights, line.qualified)
        for line in SeasonStanding.objects.filter(season=season)
    }
    assert stored == count
    # Napoleon: every player played it on all three nights, two of them on one date.
    assert {v[1] for k, v in count.items() if k[0] == "napoleon"} == {3}

    # The season page, division by division: each game's board in the order of the count.
    names = {p.pk: p.display_name for p in Player.objects.filter(club=season.club)}
    boards = season_boards(walk)
    for division in ("A", "B"):
        for game in season.games:
            lines = {
                names[p]: (score, q)
                for (g, p), (score, _n, q) in count.items()
                if g == game and division_of(season, p) == division
            }
            shown = boards[division][game]
            assert {name: (score, rank is not None) for name, rank, score in shown} == lines
            order = [(rank is None, -score) for _name, rank, score in shown]
            assert order == sorted(order), (division, game, shown)
            # Competition ranks (1, 2, 2, 4): a new figure takes its place's number; a
            # tie the game's tie-breaks cannot part shares the rank above it.
            ranked = [(rank, score) for _name, rank, score in shown if rank is not None]
            for place, (rank, score) in enumerate(ranked, 1):
                above = ranked[place - 2] if place > 1 else None
                tied = above is not None and above[1] == score
                assert rank == place or (tied and rank == above[0]), (division, game, ranked)

    # The champions: the first of division A's final table by its points (the top
    # division's final names the season's champion; ties share the title).
    points: dict[int, int] = defaultdict(int)
    final = (
        Match.objects.filter(table__club_night__final=True, seats__player__in=finals["A"])
        .distinct()
        .get()
    )
    for deal in final.deals.filter(deleted_at__isnull=True):
        for line in deal.scores.all():
            points[line.player_id] += line.score
    champions = sorted(names[p] for p, total in points.items() if total == max(points.values()))
    title = walk.page.inner_text("#final").split("（")[0]
    assert sorted(title.split("：", 1)[1].split(", ")) == champions, title

    # The promotions: the top 2 qualified of B up, the bottom 2 of A down, on Napoleon's
    # boards (the season's first game) as shown.
    moves = {
        names[m.player_id]: m.kind for m in Move.objects.filter(season=season) if m.kind != "stay"
    }
    b_board = [(name, rank) for name, rank, _s in boards["B"]["napoleon"] if rank is not None]
    a_board = [(name, rank) for name, rank, _s in boards["A"]["napoleon"]]
    for kind, board in (("up", b_board), ("down", a_board[::-1])):
        moved = {name for name, k in moves.items() if k == kind}
        assert moved in cut(board, 2), (kind, moved, board)
    assert set(moves.values()) <= {"up", "down"}

    # The standings PDF, in both languages: one titled table per game and division.
    for language in ("ja", "en"):
        pdf = walk.page.request.get(
            f"{walk.base}/seasons/{season.pk}/standings.pdf", headers={"Accept-Language": language}
        )
        assert pdf.ok and pdf.body().startswith(b"%PDF"), pdf.status
        keep_first_page(pdf.body(), walk.tmp_path, f"standings-pdf-{language}")

    # A rebuild changes nothing.
    before = sorted(SeasonStanding.objects.filter(season=season).values_list())
    rebuild_season(season.pk, recheck=True)
    after = sorted(SeasonStanding.objects.filter(season=season).values_list())
    strip = [tuple(v for i, v in enumerate(row) if i != 9) for row in before]  # updated_at
    assert [tuple(v for i, v in enumerate(r) if i != 9) for r in after] == strip
    deals = Deal.objects.filter(match__table__club_night__season=season).count()
    per_game = ", ".join(
        f"{game} {sum(taps) / len(taps):.0f}" for game, taps in sorted(walk.deal_taps.items())
    )
    print(
        f"\nwhole season: secretary {walk.thumb.count} taps, {walk.thumb.pin_keys} of them "
        f"players' PINs on her phone; scorers {walk.scorer_taps} taps for {deals} deals: "
        f"{sum(walk.phone_taps) / len(walk.phone_taps):.0f} a phone to say who scores, "
        f"a deal's form ({per_game})"
    )


def season_boards(walk: Season_) -> dict[str, dict[str, list[tuple[str, int | None, int]]]]:
    """The season page's boards as a reader sees them, division by division (a tap on the
    division's name): each game's lines, as (name, rank or None when not qualified,
    figure ranked)."""
    page = walk.page
    open_page(walk, f"/seasons/{walk.season.pk}/")
    out: dict[str, dict[str, list[tuple[str, int | None, int]]]] = {}
    for division in ("A", "B"):
        link = f"nav.divisions a[href^='?division={division}']"
        if page.locator(link).count():
            with page.expect_navigation():
                walk.thumb.tap(link)
            page.wait_for_selector("#game-napoleon")
        shot(page, walk.tmp_path, f"season-page-{division}-375-ja")
        out[division] = {}
        for game in walk.season.games:
            lines = []
            for row in page.locator(f"#game-{game} table.leaderboard tr:has(td.name)").all():
                rank = row.locator("td").nth(0).inner_text().strip()
                figure = row.locator("td.num summary").inner_text().strip()
                lines.append(
                    (
                        row.locator("td.name a").inner_text().strip(),
                        int(rank) if rank.isdigit() else None,
                        int(figure.replace("−", "-").replace(",", "")),
                    )
                )
            out[division][game] = lines
    return out


def keep_first_page(pdf: bytes, tmp_path, name: str) -> None:
    """The PDF's first page as a picture for the documents (with ``CLUBSCORE_SCREENSHOTS``:
    ``docs/images/standings-pdf-*.png`` are made so): 100 dpi, 16 greys."""
    import os
    import subprocess
    from pathlib import Path

    from PIL import Image

    where = os.environ.get("CLUBSCORE_SCREENSHOTS")
    if not where:
        return
    source = tmp_path / f"{name}.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", "100", "-f", "1", "-l", "1", "-png", "-singlefile", source, source],
        check=True,
    )
    picture = Image.open(f"{source}.png").convert("L").quantize(16)
    picture.save(Path(where) / f"{name}.png", optimize=True)


def cut(board: list[tuple[str, int | None]], n: int) -> list[set[str]]:
    """The sets of ``n`` names a rule "the first ``n`` of this board" may take: those
    ranked strictly before the ``n``-th, and any of those tied with it (a tie the game's
    tie-breaks cannot part)."""
    from itertools import combinations

    last = board[n - 1][1]
    sure = {name for name, rank in board[: n - 1] if rank != last}
    tied = [name for name, rank in board if rank == last]
    return [sure | set(c) for c in combinations(tied, n - len(sure))]
