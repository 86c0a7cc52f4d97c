"""Backup and restore of a club, and rebuilding standings from the deal records alone."""

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

import actions.deals
import actions.divisions
import actions.seasons
from actions import corrections, seasons
from scoring.models import MatchStanding, SeasonStanding
from tests import worlds
from tests.conftest import SEASON_LINE
from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    DealVersion,
    Match,
    Membership,
    Move,
    Placement,
    Player,
    Season,
    Seat,
)

pytestmark = pytest.mark.django_db


def standings():
    season = sorted(SeasonStanding.objects.values_list("season__name", *SEASON_LINE))
    match = sorted(
        MatchStanding.objects.values_list(
            "match__game",
            "match__table__name",
            "player__handle",
            "total",
            "deals",
            "deals_won",
            "rank",
        )
    )
    return season, match


def test_the_demo_club_round_trips_with_identical_standings(
    tmp_path, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        worlds.demo(scored=True)
        users = {u.username: u for u in get_user_model().objects.all()}
        napoleon = Deal.objects.filter(match__game="napoleon").order_by("number")
        corrections.delete_deal(napoleon.last(), users["admin"], "entered at the wrong table")
        actions.deals.confirm_deal(napoleon.first(), users["admin"])
        # Entered by a table's link and confirmed with a seated player's PIN.
        second = napoleon.all()[1]
        seated = second.match.seats.order_by("position").last().player
        Deal.objects.filter(pk=second.pk).update(
            entered_at_table=True, confirmed_by_player=seated, confirmed_at=second.entered_at
        )
        # Ranked by the best two club nights, qualified from two matches (issue 40).
        league = Season.objects.get(club__slug="kanda", games__contains=["napoleon"])
        league.ranking, league.best_of, league.qualify_by = "best_nights", 2, "matches"
        league.qualify_minimum = 2
        seasons.save_season(league)
        # Each game's variants chosen by its season.
        varied = Season.objects.get(club__slug="kanda", games__contains=["1234"])
        varied.rules = {"1234": {"scoring": "loser_minus"}}
        seasons.save_season(varied)
        # In two divisions, closed into the next season (issue 40).
        people = Player.objects.filter(club=league.club).order_by("handle")
        places = {p.pk: "AB"[i % 2] for i, p in enumerate(people)}
        actions.divisions.set_divisions(league, ["A", "B"], places, moves=1)
    actions.seasons.close_season(league, "Next season", {str(people[0].pk): ""})
    before = standings()
    assert {q for *_line, q in SeasonStanding.objects.values_list("qualified")} == {True, False}
    deals_before = sorted(Deal.objects.values_list("match__game", "number", "record"), key=repr)
    history_before = history()
    path = tmp_path / "kanda.json"
    call_command("export_club", "kanda", str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "clubscore-club/1" and len(doc["players"]) == 10

    for model in (Deal, Match, ClubNight, Season, Player, Club):  # an empty database again
        model.objects.all().delete()
    assert not SeasonStanding.objects.exists()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_club", str(path), "--link-all-accounts")
    assert standings() == before
    assert Season.objects.get(name=varied.name).rules == {"1234": {"scoring": "loser_minus"}}
    assert (
        sorted(Deal.objects.values_list("match__game", "number", "record"), key=repr)
        == deals_before
    )
    assert history() == history_before


def history():
    """What a backup keeps besides the records: deletions, confirmations, versions, roles."""
    deals = sorted(
        Deal.objects.values_list(
            "match__game",
            "number",
            "deleted_at",
            "confirmed_by__username",
            "confirmed_at",
            "entered_at_table",
            "confirmed_by_player__handle",
        ),
        key=repr,
    )
    versions = list(
        DealVersion.objects.values_list(
            "deal__number",
            "action",
            "reason",
            "changed_by__username",
            "changed_at",
            "effect",
            "at_table",
        )
    )
    roles = sorted(Membership.objects.values_list("club__slug", "user__username", "role"))
    linked = list(Player.objects.filter(user__isnull=False).values_list("handle", "user__username"))
    public = list(
        Season.objects.values_list(
            "name", "public", "require_confirmation", *seasons.RANKING
        ).order_by("name")
    )
    placed = sorted(
        Placement.objects.values_list(
            "season__name", "division__name", "division__order", "player__handle"
        )
    )
    moves = sorted(
        Move.objects.values_list(
            "season__name",
            "next_season__name",
            "player__handle",
            "kind",
            "division",
            "rank",
            "next_division",
            "made_at",
        )
    )
    closed = sorted(
        Season.objects.values_list("name", "closed_at", "next_season__name", "moves_by", "moves")
    )
    return deals, versions, roles, linked, public, placed, moves, closed


def test_an_import_over_an_existing_club_changes_nothing(tmp_path):
    worlds.demo()
    path = tmp_path / "kanda.json"
    call_command("export_club", "kanda", str(path))
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_club", str(path))
    assert Club.objects.count() == 1


def test_an_import_with_a_refused_deal_writes_nothing(tmp_path):
    worlds.demo()
    path = tmp_path / "kanda.json"
    call_command("export_club", "kanda", str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["club"]["slug"] = "kanda2"
    doc["club"]["name"] = "Kanda 2"
    deal = doc["seasons"][0]["club_nights"][0]["tables"][0]["matches"][0]["deals"][0]
    deal["record"]["point_cards"]["aki"] += 5
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError, match="point_cards"):
        call_command("import_club", str(path), "--accept-unsigned")
    assert not Club.objects.filter(slug="kanda2").exists()
    for broken in ('{"club": ' + "1" * 5000 + "}", "{not json"):
        path.write_text(broken, encoding="utf-8")
        with pytest.raises(CommandError, match="cannot import"):
            call_command("import_club", str(path))
    path.write_bytes("{}".encode("utf-16"))
    with pytest.raises(CommandError, match="cannot import"):
        call_command("import_club", str(path))


def test_rebuild_standings_recomputes_what_a_lost_task_never_wrote():
    worlds.demo()  # no on_commit here: the standings tasks never ran
    assert not SeasonStanding.objects.exists()
    call_command("rebuild_standings")
    seats = Seat.objects.count()  # every seat of every demo match (the game's, played thrice)
    assert seats == 3 * (6 + 4 + 4 + 4 + 4 + 3 + 5 + 3) and MatchStanding.objects.count() == seats
    rettler = set(Seat.objects.filter(match__game="rettler").values_list("player", flat=True))
    assert SeasonStanding.objects.filter(game="rettler").count() == len(rettler)


# -- a restore trusts nothing it can check (issue 24, 7) ------------------------------------------


@pytest.fixture
def backup(tmp_path):
    """The demo club's file, moved aside under another slug, for a hostile hand to edit."""
    worlds.demo()
    path = tmp_path / "kanda.json"
    call_command("export_club", "kanda", str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["club"] = {"name": "Kanda 2", "slug": "kanda2"}
    return path, doc


def restore(path, doc, *flags):
    path.write_text(json.dumps(doc), encoding="utf-8")
    call_command("import_club", str(path), "--accept-unsigned", *flags)


def first_match(doc, game):
    for season in doc["seasons"]:
        for night in season["club_nights"]:
            for table in night["tables"]:
                for match in table["matches"]:
                    if match["game"] == game:
                        return match
    raise AssertionError(game)


EDITS = {
    "a finished status on an unfinished match": (
        lambda d: first_match(d, "napoleon").update(status="finished"),
        r"seasons\[0\]\.club_nights\[\d\]\.tables\[\d\]\.matches\[\d\]\.status: finished in the file",
    ),
    "a confirmation by the enterer": (
        lambda d: first_match(d, "napoleon")["deals"][0].update(
            entered_by="scorer", confirmed_by="scorer", confirmed_at="2026-11-07T20:00:00+00:00"
        ),
        r"deals\[0\]\.confirmed_by: confirmed by who entered or changed it",
    ),
    "an unknown role": (lambda d: d["members"][0].update(role="owner"), r"members\[0\]: role:"),
    "a 5,000-character name": (
        lambda d: d["players"][0].update(display_name="x" * 5000),
        r"players\[0\]: display_name:",
    ),
    "a bad handle": (
        lambda d: d["players"][1].update(handle="no spaces!"),
        r"players\[1\]: handle:",
    ),
    "a bad date": (
        lambda d: d["seasons"][0]["club_nights"][0].update(date="2026-02-30"),
        r"seasons\[0\]\.club_nights\[0\]\.date: not a date",
    ),
    "an unknown game": (
        lambda d: first_match(d, "comp13").update(game="poker"),
        r"\.game: unknown game 'poker'",
    ),
    "a season of an unknown game": (
        lambda d: d["seasons"][0].update(games=["poker"]),
        r"seasons\[0\]: games:",
    ),
    "a list where an object was": (lambda d: d.update(club=["kanda3"]), r"club: an object"),
    "a seat of nobody": (
        lambda d: first_match(d, "comp13")["seats"].__setitem__(0, "ghost"),
        r"seats\[0\]: no player 'ghost'",
    ),
    "a number for a reason": (
        lambda d: first_match(d, "napoleon")["deals"][0].__setitem__(
            "versions",
            [
                {
                    "action": "corrected",
                    "record_before": {},
                    "reason": 5,
                    "changed_at": "2026-11-07T20:00:00+00:00",
                }
            ],
        ),
        r"versions\[0\]\.reason: a text",
    ),
}


@pytest.mark.parametrize("edit", EDITS, ids=list(EDITS))
def test_an_edited_file_is_refused_naming_the_object_and_field(backup, edit):
    path, doc = backup
    change, message = EDITS[edit]
    change(doc)
    with pytest.raises(CommandError, match=message):
        restore(path, doc, "--link-all-accounts")
    assert not Club.objects.filter(slug="kanda2").exists()  # nothing written


def test_an_unsigned_or_edited_file_needs_the_operators_word(backup):
    path, doc = backup  # its slug was changed: the signature no longer holds
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError, match="changed since it was signed"):
        call_command("import_club", str(path))
    del doc["signature"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError, match="unsigned"):
        call_command("import_club", str(path))
    assert not Club.objects.filter(slug="kanda2").exists()
    restore(path, doc)
    assert Club.objects.filter(slug="kanda2").exists()


def test_a_signed_file_restores_without_the_flag(tmp_path):
    worlds.demo()
    path = tmp_path / "kanda.json"
    call_command("export_club", "kanda", str(path))
    old = Club.objects.get(slug="kanda")
    old.slug, old.name = "kanda-old", "Kanda (old)"
    old.save()
    call_command("import_club", str(path))
    assert Club.objects.filter(slug="kanda").exists()


def test_only_the_accounts_the_operator_names_are_linked(backup):
    path, doc = backup
    restore(path, doc, "--link-account", "scorer")
    club = Club.objects.get(slug="kanda2")
    assert list(club.memberships.values_list("user__username", flat=True)) == ["scorer"]
    assert not Player.objects.filter(club=club, user__isnull=False).exists()  # member's not named
    assert not Deal.objects.filter(
        match__table__club_night__season__club=club, confirmed_by__username="admin"
    ).exists()


def test_a_restore_says_what_it_restored_and_whom_it_left_out(tmp_path):
    """Issue 55, 5: ``import_club`` counts what it made, kind by kind, as the file has
    them, and names the file's user names it linked to no account."""
    worlds.demo()
    admin = get_user_model().objects.get(username="admin")
    napoleon = Deal.objects.filter(match__game="napoleon").order_by("number")
    corrections.delete_deal(napoleon.last(), admin, "entered at the wrong table")
    path = tmp_path / "kanda.json"
    call_command("export_club", "kanda", str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["club"] = {"name": "Kanda 2", "slug": "kanda2"}
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = io.StringIO()
    call_command(
        "import_club", str(path), "--accept-unsigned", "--link-account", "scorer", stdout=out
    )
    lines = out.getvalue().splitlines()
    assert lines[0] == "restored Kanda 2 (kanda2):"
    counts = {k: int(n) for k, n in (line.strip().rsplit(maxsplit=1) for line in lines[1:15])}
    nights = [n for s in doc["seasons"] for n in s["club_nights"]]
    tables = [t for n in nights for t in n["tables"]]
    matches = [m for t in tables for m in t["matches"]]
    deals = [d for m in matches for d in m["deals"]]
    assert counts == {
        "players": len(doc["players"]),
        "members": 1,  # the scorer's: the only account named
        "seasons": len(doc["seasons"]),
        "divisions": sum(len(s.get("divisions", [])) for s in doc["seasons"]),
        "placements": sum(
            len(d["players"]) for s in doc["seasons"] for d in s.get("divisions", [])
        ),
        "moves": sum(len(s.get("moves_made", [])) for s in doc["seasons"]),
        "club nights": len(nights),
        "rounds": sum(len(n.get("rounds", [])) for n in nights),
        "tables": len(tables),
        "matches": len(matches),
        "match events": sum(len(m.get("events", [])) for m in matches),
        "deals": len(deals),
        "deleted deals": sum(1 for d in deals if d.get("deleted_at")),
        "deal versions": sum(len(d.get("versions", [])) for d in deals),
    }
    assert counts["deals"] > 0 and counts["deal versions"] > 0 and counts["deleted deals"] > 0
    left_out = next(line for line in lines if line.startswith("left out:"))
    named = {m["user"] for m in doc["members"]} - {"scorer"}
    assert left_out.startswith(f"left out: {len(named | others(doc))} user names")
    assert all(name in left_out for name in named) and "scorer," not in left_out
    assert (
        lines[-1] == f"standings rebuilt: {len(matches)} matches in {len(doc['seasons'])} seasons"
    )


def others(doc) -> set[str]:
    """The file's user names besides the members' (who entered or changed a deal…)."""
    found: set[str] = set()

    def walk(value, key=""):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and key in USER_FIELDS:
            found.add(value)

    walk(doc)
    return found - {"scorer"}


USER_FIELDS = {
    "user",
    "scorer",
    "entered_by",
    "confirmed_by",
    "revised_by",
    "changed_by",
    "created_by",
}
