"""Link previews (issue 58, 3; ``web.previews``, ``scoring.preview_images``): every public
page has its Open Graph tags with absolute URLs and an image that answers a 1200×630 PNG;
every private page (a private season's pages read by its members, the table, PIN, setup
and account pages) has none; the images are public objects' alone, drawn once per
version, in the link's language, with Japanese names drawn (not tofu).

The pages are found from the URL resolver and the access table
(``tests.web.test_access_table``), in its world of two clubs
(``tests.web.access_world``): a page added later is checked without editing this file.
"""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import translation
from PIL import Image

from scoring import preview_images
from scoring.models import SeasonStanding
from scoring.rebuild import rebuild_season
from tests.web.access_world import World, build
from tests.web.test_access_table import resolver_patterns, send, status, text, url_of
from tournaments.models import ClubNight, Match, Player, Season
from web import previews
from web.routes import ROUTES, Role

pytestmark = pytest.mark.django_db

SHARED_PAGES = {
    "season",
    "club_night",
    "night_live",
    "my_night",
    "night_tables",
    "match",
    "player",
    "head_to_head",
    "club_page",
}
"""The public pages there are today: the test finds them itself, and checks that it found
at least these (a test that finds nothing passes nothing)."""
NOT_SHARED = {
    "home",
    "login",
    "sign_up",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "member_password_reset",
    "password_reset_complete",
    "join",
    "rest_framework:login",
    "api-docs",
}
"""Pages anyone reads that show no club's object: the site's own and the account pages
(no preview)."""
REQUIRED = ("og:title", "og:type", "og:image", "og:url")
FILE = re.compile(r"\.[a-z]+$")
"""A URL of a file (``.pdf``, ``.csv``, ``.ics``, ``.png``, ``sw.js``), never a page."""


class Tags(HTMLParser):
    """The ``<meta>`` tags of a page's head: Open Graph (``property``) and X (``name``)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "meta":
            return
        given = dict(attrs)
        key = given.get("property") or given.get("name") or ""
        if key.startswith(("og:", "twitter:")):
            self.found.setdefault(key, given.get("content") or "")


def tags(body: str) -> dict[str, str]:
    parser = Tags()
    parser.feed(body)
    return parser.found


def preview_words(body: str) -> bool:
    """Whether the page says anything of a preview, in any form (not only well-formed)."""
    return bool(re.search(r"og:|twitter:", body))


def get_pages(world: World, role: Role) -> dict[str, tuple[str, str]]:
    """Every page (a GET route answering HTML) that ``role`` reads: name → (URL, body)."""
    pages = {}
    for pattern in resolver_patterns():
        name = pattern.name
        route = ROUTES.get(name)  # one missing: test_access_table's to say
        if name == "admin:" or route is None or "GET" not in route.methods:
            continue
        url = url_of(world, pattern)
        if url.startswith(("/api/", "/api-auth/")) or FILE.search(url.split("?")[0]):
            continue  # the API and the downloads: never a page
        try:
            response = send(world, role, "GET", url)
            if response.status_code == 302 and response.url.split("?")[0] == url.split("?")[0]:
                url = response.url  # the same page for this reader (a player's own night)
                response = send(world, role, "GET", url)
        except Exception:  # a page that fails is test_access_table's to report (5xx)
            continue
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            pages[name] = (url, text(response))
    return pages


def png(client: Client, url: str) -> Image.Image:
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    assert answer["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(answer.content))
    assert image.format == "PNG"
    assert image.size == (1200, 630)
    return image


def public_world() -> World:
    """The access table's world with club A's private season made public."""
    world = build()
    Season.objects.filter(pk=world.season.pk).update(public=True)
    rebuild_season(world.season.pk)
    return world


def test_every_public_page_has_the_four_tags_and_its_image():
    world = public_world()
    anonymous = Client()
    found = get_pages(world, Role.ANONYMOUS)
    shared = set(found) - NOT_SHARED
    assert shared >= SHARED_PAGES, sorted(SHARED_PAGES - shared)
    wrong: list[str] = []
    images: set[str] = set()
    for name in sorted(shared):
        url, body = found[name]
        got = tags(body)
        wrong += [f"{url}: no {t}" for t in REQUIRED if not got.get(t)]
        for key in ("og:url", "og:image"):
            if not got.get(key, "").startswith("http://testserver/"):
                wrong.append(f"{url}: {key} {got.get(key)!r} is not absolute")
        if got.get("og:url") and not got["og:url"].startswith(f"http://testserver{url}"):
            wrong.append(f"{url}: og:url {got['og:url']!r}")
        wrong += [
            f"{url}: {key} {got.get(key)!r}"
            for key, want in {
                "og:image:width": "1200",
                "og:image:height": "630",
                "twitter:card": "summary_large_image",
                "og:site_name": "Clubscore",
                "og:locale": "en_US",
            }.items()
            if got.get(key) != want
        ]
        if not got.get("og:description"):
            wrong.append(f"{url}: no og:description")
        images.add(got.get("og:image", ""))
    assert wrong == [], "\n".join(wrong)
    for image in sorted(images):
        png(anonymous, image.removeprefix("http://testserver"))
    # The pages anyone reads that show no club's object carry nothing.
    assert [n for n in NOT_SHARED & set(found) if preview_words(found[n][1])] == []


def test_a_public_season_s_pages_have_their_tags_when_its_members_read_them_too():
    world = public_world()
    found = get_pages(world, Role.MEMBER)
    for name in SHARED_PAGES - {"my_night"}:  # a member's my night is theirs, tags or not
        assert all(tags(found[name][1]).get(t) for t in REQUIRED), name


def test_pages_that_are_never_shared_have_no_tags_even_in_a_public_season():
    """A table's page, the PIN pages, the setup pages: a public season's too."""
    world = public_world()
    for role in (Role.LINK, Role.ADMIN):
        found = get_pages(world, role)
        shown = {n for n, (_url, body) in found.items() if preview_words(body)}
        assert shown <= SHARED_PAGES, (role, sorted(shown - SHARED_PAGES))
        assert {"table", "club_setup", "season_edit", "night_rounds"} & set(found)


def test_no_private_page_has_a_tag_whoever_reads_it():
    """Club A with no public season left: every page its members, scorers, administrators,
    a table link's holder or a site operator read says nothing of a preview."""
    world = build()
    Season.objects.filter(club=world.club).update(public=False)
    wrong = []
    for role in (Role.MEMBER, Role.LINK, Role.ADMIN):  # the administrator reads every page
        found = get_pages(world, role)
        wrong += [f"{url} as {role.value}" for url, body in found.values() if preview_words(body)]
        if role is Role.MEMBER:
            assert SHARED_PAGES <= set(found) | {"night_live"}, sorted(SHARED_PAGES - set(found))
    assert wrong == [], "\n".join(wrong)


def test_public_is_asked_as_an_anonymous_reader():
    world = build()
    assert previews.public(world.public_season)
    assert not previews.public(world.season)
    assert not previews.public(world.night)
    assert not previews.public(world.hiro)  # seated in the private season alone
    assert previews.public(world.club)  # one public season
    assert not previews.public(world.rival)


# -- the images -------------------------------------------------------------------------------


def image_urls(world: World) -> list[str]:
    return [
        f"/seasons/{world.season.pk}/preview.png",
        f"/nights/{world.night.pk}/preview.png",
    ]


def test_a_private_season_s_images_answer_404_to_everyone_its_club_too():
    world = build()
    for url in image_urls(world):
        for role in Role:
            assert status(send(world, role, "GET", url)) == 404, (url, role)
    missing = "/seasons/987654321/preview.png"
    assert Client().get(missing).status_code == 404


def test_a_season_made_private_stops_answering_its_image_at_once():
    world = public_world()
    client = Client()
    for url in image_urls(world):
        png(client, url)  # drawn and kept
    Season.objects.filter(pk=world.season.pk).update(public=False)
    for url in image_urls(world):
        assert client.get(url).status_code == 404
        assert world.client(Role.MEMBER).get(url).status_code == 404


def test_an_image_is_public_kept_and_answers_304_to_its_etag():
    world = public_world()
    url = f"/seasons/{world.season.pk}/preview.png?lang=en"
    member = world.client(Role.MEMBER)
    first = member.get(url)  # a member's request reads no session: the same public answer
    assert first.status_code == 200
    assert "public" in first["Cache-Control"] and "max-age=" in first["Cache-Control"]
    assert "private" not in first["Cache-Control"]
    again = Client().get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304
    assert again["ETag"] == first["ETag"]
    # A deal entered changes what the image shows: a new version.
    SeasonStanding.objects.filter(season=world.season).update(total=999)
    changed = Client().get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]


def test_a_crawler_asking_again_costs_no_drawing(monkeypatch):
    world = public_world()
    drawn = []
    draw = preview_images.render
    monkeypatch.setattr(preview_images, "render", lambda card: drawn.append(1) or draw(card))
    cache.clear()
    client = Client()
    for _ in range(20):
        for lang in ("en", "ja"):
            assert (
                client.get(f"/seasons/{world.season.pk}/preview.png?lang={lang}").status_code == 200
            )
    assert len(drawn) == 2  # once per language


def test_a_night_before_its_first_deal_shows_its_tables_then_its_standings():
    from scoring.night import standings as night_standings
    from scoring.tasks import refresh_standings

    world = build()
    night = ClubNight.objects.get(season=world.public_season)
    for match in Match.objects.filter(table__club_night=night):
        refresh_standings(match.pk)  # as the worker does after the deal's commit
    cache.clear()
    with translation.override("en"):
        card = preview_images.night_card(night)
    assert card.boards and not card.tables  # a deal counts: the standings
    _method, lines = night_standings(night)
    assert lines[0].points > 0  # a deal counted: someone is first on points, not by name
    assert [line.name for line in card.boards[0].lines][:1] == [lines[0].display_name]
    before = world.night  # the private night's round, had it no deal yet
    before.tables.get().matches.get().deals.all().delete()
    cache.clear()
    with translation.override("en"):
        card = preview_images.night_card(before)
    assert card.tables and not card.boards
    assert card.tables[0].name == "Table 1"
    assert "Hidden Hiro" in card.tables[0].players
    assert card.tables_heading.startswith("Round 1")


# -- languages and names ---------------------------------------------------------------------

LONG_JA = "寿限無寿限無五劫の擦り切れ海砂利水魚の水行末雲来末風来末食う寝る処に住む処"
TOFU = "\U000f0000"
"""A private-use character no font draws: its glyph is the font's "missing" box."""


@pytest.fixture
def big_season():
    """A public season of 1,000 players with long Japanese names."""
    world = build()
    season = world.public_season
    players = Player.objects.bulk_create(
        Player(
            club=world.club,
            handle=f"p{i}",
            display_name=f"Player number {i} of the long names",
            name_ja=f"{LONG_JA[: 4 + i % 30]}{i}",
        )
        for i in range(1000)
    )
    SeasonStanding.objects.filter(season=season).delete()
    SeasonStanding.objects.bulk_create(
        SeasonStanding(
            season=season,
            game="napoleon",
            player=p,
            total=100_000 - 37 * i,
            deals=10,
            deals_won=5,
            matches=2,
            matches_won=1,
            rank=i + 1,
        )
        for i, p in enumerate(players)
    )
    return season


def test_japanese_and_english_images_differ_and_draw_the_japanese_names(big_season):
    client = Client()
    url = f"/seasons/{big_season.pk}/preview.png"
    ja = client.get(url + "?lang=ja").content
    en = client.get(url + "?lang=en").content
    assert ja != en
    with translation.override("ja"):
        card = preview_images.season_card(big_season)
    names = [line.name for line in card.boards[0].lines]
    assert names[0].startswith(LONG_JA[:4]) and len(names) == preview_images.LINES
    assert "1,000" in card.footer
    assert preview_images.render(card) == ja  # the served image is this card's
    # Each Japanese character has a glyph of its own in the font drawn with, none the
    # missing box (tofu).
    face = preview_images.font(30)
    box = bytes(face.getmask(TOFU))
    assert all(bytes(face.getmask(ch)) != box for ch in set(LONG_JA))
    # The names drawn: the picture differs from the same card with every name in tofu,
    # and where the first name is drawn, ink covers what Japanese needs (not a few boxes).
    tofu_card = card.__class__(
        card.kicker,
        card.title,
        boards=tuple(
            b.__class__(
                b.heading,
                b.column,
                tuple(
                    line.__class__(line.rank, TOFU * len(line.name), line.figure, line.medal)
                    for line in b.lines
                ),
            )
            for b in card.boards
        ),
        footer=card.footer,
        language=card.language,
    )
    drawn = Image.open(io.BytesIO(ja)).convert("L")
    boxes = Image.open(io.BytesIO(preview_images.render(tofu_card))).convert("L")
    row = (120, 232, 900, 270)  # the first line's name
    assert drawn.crop(row).tobytes() != boxes.crop(row).tobytes()
    assert ink(drawn.crop(row)) > 0.02  # drawn, not blank


def ink(image: Image.Image) -> float:
    """The share of dark pixels."""
    dark = sum(image.histogram()[:128])
    return dark / (image.width * image.height)


def test_a_page_s_image_is_in_the_page_s_language():
    world = public_world()
    client = Client()
    page = client.get(f"/seasons/{world.season.pk}/?lang=ja")
    assert '<html lang="ja">' in page.content.decode()
    got = tags(page.content.decode())
    assert got["og:image"].endswith("?lang=ja")
    assert got["og:locale"] == "ja_JP"
    cookie = Client()
    cookie.cookies["django_language"] = "ja"
    assert tags(cookie.get(f"/seasons/{world.season.pk}/").content.decode())["og:image"].endswith(
        "?lang=ja"
    )
    english = tags(client.get(f"/seasons/{world.season.pk}/").content.decode())
    assert english["og:image"].endswith("?lang=en")


def test_an_image_of_1000_players_asks_no_more_of_the_database_than_one_of_ten(
    big_season, django_assert_num_queries
):
    """The image reads the season's first lines, never every line: drawing it for 1,000
    players makes the same queries as for the ten of another season, its lines read with
    a limit, and asked again it
    is kept (no drawing).  Its time is measured by the pages bench
    (``bench/pages_bench.py``, the wide season's "preview image"), not here."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    small = Season.objects.create(
        club=big_season.club, name="Small", games=["napoleon"], public=True
    )
    SeasonStanding.objects.bulk_create(
        SeasonStanding(
            season=small,
            game="napoleon",
            player=p,
            total=10 - i,
            deals=1,
            deals_won=1,
            matches=1,
            matches_won=1,
            rank=i + 1,
        )
        for i, p in enumerate(Player.objects.filter(club=big_season.club)[:10])
    )
    cache.clear()
    client = Client()
    counted = {}
    for season in (small, big_season):
        with CaptureQueriesContext(connection) as drawn:
            answer = client.get(f"/seasons/{season.pk}/preview.png?lang=ja")
        assert answer.status_code == 200 and answer["Content-Type"] == "image/png"
        counted[season.name] = len(drawn)
    assert counted[big_season.name] == counted["Small"], counted
    lines = [
        q["sql"]
        for q in drawn.captured_queries
        if 'FROM "scoring_seasonstanding"' in q["sql"] and "COUNT(" not in q["sql"]
    ]
    assert lines and all(re.search(r"LIMIT \d+$", sql) for sql in lines), lines  # the first few
    drawing = []
    render = preview_images.render
    preview_images.render = lambda card: drawing.append(card) or render(card)
    try:
        with CaptureQueriesContext(connection) as again:
            assert client.get(f"/seasons/{big_season.pk}/preview.png?lang=ja").status_code == 200
    finally:
        preview_images.render = render
    assert drawing == [] and len(again) <= counted["Small"]


def test_a_hostile_address_is_escaped_in_the_tags():
    world = public_world()
    url = f"/seasons/{world.season.pk}/?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E&lang=xx"
    body = Client().get(url).content.decode()
    assert "<script>alert" not in body
    got = tags(body)
    assert got["og:url"].startswith(f"http://testserver/seasons/{world.season.pk}/?q=")
    assert got["og:image"].endswith("?lang=en")  # a language the site has not: the default
