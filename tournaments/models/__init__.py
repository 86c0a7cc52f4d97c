"""Clubs, players, seasons, club nights, tables, matches and deals.

A match belongs to a table of a club night of a season of a club; the chain is
the single source of which club owns what.  Rules live in ``engine/``: these
models only store what the engine checked (see ``actions.deals``).
"""

from tournaments.models.divisions import Division, Move, Placement
from tournaments.models.invitations import AccountName, Invitation, SignUp
from tournaments.models.league import (
    GAME_NAMES,
    Club,
    Membership,
    MovesBy,
    Player,
    Season,
    game_choices,
)
from tournaments.models.nights import ClubNight, LinkScorer, Round, Table
from tournaments.models.play import (
    Deal,
    DealScore,
    DealVersion,
    Match,
    MatchEvent,
    Seat,
    counting_deals,
    deal_count,
    waiting_deals,
)
from tournaments.models.uploads import SheetUpload

__all__ = [
    "GAME_NAMES",
    "AccountName",
    "Club",
    "ClubNight",
    "Deal",
    "Division",
    "DealScore",
    "DealVersion",
    "Invitation",
    "Match",
    "MatchEvent",
    "Membership",
    "Move",
    "MovesBy",
    "Placement",
    "Player",
    "LinkScorer",
    "Round",
    "Season",
    "Seat",
    "SheetUpload",
    "SignUp",
    "Table",
    "counting_deals",
    "deal_count",
    "waiting_deals",
    "game_choices",
]
