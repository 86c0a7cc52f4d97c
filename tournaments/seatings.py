"""Who sat where, round by round, as stored (issue 57): what the draw's measures
(``tournaments.draw_measures``), the night's seating export and the pair matrix read.

A night's tables drawn without rounds (``actions.seating``) count as one round of
that night.  Seats are in order of play: seat 1, the first dealer, first."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tournaments.models import ClubNight, Round, Season, Seat


@dataclass
class Seated:
    """One round as it was seated."""

    night: int
    number: int
    """The round's number; 0 for a night's tables drawn without rounds."""
    tables: list[list[int]] = field(default_factory=list)
    """Player ids in seat order, table by table (by the table's name)."""
    table_names: list[str] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    """Each table's game."""
    sat_out: list[int] = field(default_factory=list)


def _read(seats: object, nights: list[int]) -> list[Seated]:
    found: dict[tuple[int, int], dict[tuple[str, int], list[tuple[int, int]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    games: dict[int, str] = {}
    for night, number, table, match, game, position, player in seats:  # type: ignore[attr-defined]
        found[(night, number or 0)][(table, match)].append((position, player))
        games[match] = game
    out: dict[tuple[int, int], Seated] = {}
    for key, tables in found.items():
        seated = Seated(*key)
        for name, _match in sorted(tables, key=_table_order):
            seated.tables.append([p for _pos, p in sorted(tables[(name, _match)])])
            seated.table_names.append(name)
            seated.games.append(games[_match])
        out[key] = seated
    for night, number, player in Round.sat_out.through.objects.filter(
        round__club_night_id__in=nights
    ).values_list("round__club_night_id", "round__number", "player_id"):
        out.setdefault((night, number), Seated(night, number)).sat_out.append(player)
    order = {n: i for i, n in enumerate(nights)}
    return sorted(out.values(), key=lambda s: (order[s.night], s.number))


def _table_order(key: tuple[str, int]) -> tuple[int, str, int]:
    """Table 2 before Table 10: the number in the name, then the name."""
    name, match = key
    digits = "".join(c for c in name if c.isdigit())
    return (int(digits) if digits else 0, name, match)


def _seats(**where: object) -> object:
    return (
        Seat.objects.filter(**where)
        .values_list(
            "match__table__club_night_id",
            "match__table__round__number",
            "match__table__name",
            "match_id",
            "match__game",
            "position",
            "player_id",
        )
        .order_by()
    )


def of_night(night: ClubNight) -> list[Seated]:
    """The night's rounds in order."""
    return _read(_seats(match__table__club_night=night), [night.pk])


def of_season(season: Season) -> list[Seated]:
    """Every round of the season, nights in order (date, then the order they were made)."""
    nights = list(season.club_nights.order_by("date", "id").values_list("pk", flat=True))
    return _read(_seats(match__table__club_night__season=season), nights)
