"""Clubscore's rules engine: deal records in, scores and standings out.

Pure Python with no dependencies and no I/O.  The contract is
docs/deal-records.md; the entry points are :func:`check`, :func:`check_match` and :func:`summarize`,
and ``python -m engine check|match FILE`` on the command line.
"""

from engine.api import add_deal, canonical, check, check_match, next_deal, summarize
from engine.game import DealResult, MatchResult, Standing
from engine.problems import NotARecord, Problem
from engine.registry import GAMES, get_game
from engine.results import NextDeal

__all__ = [
    "GAMES",
    "DealResult",
    "MatchResult",
    "NextDeal",
    "NotARecord",
    "Problem",
    "Standing",
    "add_deal",
    "canonical",
    "check",
    "check_match",
    "next_deal",
    "summarize",
    "get_game",
]
