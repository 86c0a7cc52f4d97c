"""What the league app knows about a game beyond its rules: the web side of one game.

Every game has one module in this package with a :class:`LeagueGame` subclass,
registered in :mod:`tournaments.games`: its names, the table-side entry form
(fields, how they become a deal record and back), the score sheet's notes and
tie-break wording, the blank paper sheet, the demo's matches, the federation
generator's plan and how ratings form teams.  The rules themselves (player
counts, who deals, who is out, rated or not, random legal play) are the engine's
:class:`engine.game.Game`, reached as :attr:`LeagueGame.rules`.  Forms, sheets,
exports, the blank sheet, the demo, the generator and the ratings are generic
code over this registry.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from django import forms
from django.utils.translation import get_language, gettext, ngettext

import engine
from engine.cards import card_label
from engine.deal import play_match
from engine.game import Game
from tournaments.games.statistics import GENERIC, Played, Statistic
from tournaments.models import Match, Player

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise as Text
else:
    Text = str
"""A display string, possibly translated lazily (``gettext_lazy``)."""


class EntryForm(Protocol):
    """What a game's module reads and sets of the table-side entry form (the pages' form
    class implements it; this package does not import the pages)."""

    fields: dict[str, forms.Field]
    match: Match
    players: list[Player]
    """The players of the deal, in order of play."""
    handles: list[str]
    next_deal: dict[str, Any]
    """What the engine says the deal inherits from the match (its dealer…)."""
    game_field_names: list[str]
    point_total: int


@dataclass(frozen=True)
class Section:
    """A block of the entry form: its fields in order, and how the page shows them."""

    fields: Sequence[str]
    heading: Text = ""
    hint: Text = ""
    grid: bool = False
    """Narrow number fields side by side (the point cards)."""
    pad: Sequence[str] = ()
    """Card buttons that type their code into the focused card field (they stay on screen,
    with an undo button)."""
    suit_pad: bool = False
    """A pad of the four suits and thirteen ranks: a suit, then ranks of it."""
    pack_lines: bool = False
    """With the suit pad, a button that starts a new pack on the next line (Packing: a
    pack is cards of one suit)."""
    suits: Sequence[str] = tuple("SHDC")
    ranks: Sequence[str] = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
    """With the suit pad, the suits and ranks it offers: those of the deal's deck
    (:func:`suit_pad`)."""
    pop_up: bool = False
    """The pad shows below the section's card fields while one of them has the focus, as
    a phone's keyboard would (a card field among others: it takes no room otherwise)."""
    running_sum: bool = False
    """The running sum of the ``points`` fields, against the form's ``point_total``."""


@dataclass(frozen=True)
class DemoMatch:
    """One match of the demo club: on club night ``night`` (0, 1, 2) at ``table``."""

    night: int
    table: str
    players: list[str]
    deals: list[dict[str, Any]]
    rules: dict[str, Any] = field(default_factory=dict)
    target: int | None = None


@dataclass(frozen=True)
class PlannedMatch:
    """A kind of match the federation generator plays: seats, rules, target, and for
    open-ended games how many deals (from, to)."""

    players: int
    rules: dict[str, Any] = field(default_factory=dict)
    target: int | None = None
    deals: tuple[int, int] = (4, 12)


@dataclass(frozen=True)
class RatedTeams:
    """One deal as a rating sees it: teams of handles, ranks (lower is better), per-player
    weights and how far the deal moves a rating (1: the library's update)."""

    teams: list[list[str]]
    ranks: list[float]
    weights: list[list[float]] | None = None
    stake: float = 1.0


@dataclass(frozen=True)
class Variant:
    """A rules variant a season may choose for every new match of the game
    (``Season.rules``): the record's ``rules`` key, what the season's form calls it,
    and its choices (the value the record holds, the words), the game's default first."""

    key: str
    label: Text
    choices: tuple[tuple[Any, Text], ...]


class LeagueGame(ABC):
    """The league app's side of one engine game (see the module docstring)."""

    name: ClassVar[str]
    """The engine's name of the game (``game`` in its records)."""
    name_en: ClassVar[str]
    name_ja: ClassVar[str]
    """The game's one name in each language (``Bhabhi``, ``バビ``): :attr:`label` says it."""
    aliases: ClassVar[tuple[str, ...]] = ()
    """Other names a typed sheet may give the game (a name it went by before): read on
    import, never shown."""
    hint: ClassVar[Text] = ""
    """A line of help above the game's fields."""
    tie_break: ClassVar[Text] = ""
    """How the game breaks ties, said for the score sheet (translated)."""
    blank_rows: ClassVar[int] = 15
    """Rows of the blank paper sheet."""
    paper_headings: ClassVar[Mapping[str, Text]] = {}
    """Short headings of the import template's game columns to print on the paper sheet
    (by the column's key; a seat's column, ``pc_seat3``, by its key without the seat):
    a game that has them (Napoleon, Rettler) gets a paper sheet with what a deal is —
    declarer, trump, count…, one point-card column per player — instead of a score per
    player, so that paper kept as a backup is typed into the template and imported
    (``scoring.paper``)."""
    record_words: ClassVar[Mapping[str, Text]] = {}
    """The game's own record fields in the reader's words, where a correction's history
    names them (``tournaments.history``, which names only the keys that games of different
    rules share: ``dealer``, a full play's ``tricks``…)."""
    federation: ClassVar[tuple[PlannedMatch, ...]] = ()
    """The matches the federation generator plays of this game, in turn."""
    variants: ClassVar[tuple[Variant, ...]] = ()
    """The rules variants a season's form offers for the game (a match may hold any its
    engine takes, through the API or an import)."""
    sheet_rules: ClassVar[tuple[Mapping[str, Any], ...]] = ({},)
    """The rules variants whose entry-form fields a score sheet's template has columns for
    (``tournaments.sheets``): those that add a field."""

    @property
    def label(self) -> str:
        """How pages, sheets, exports and messages name the game: its one name in the
        reader's language (「ナポレオン」, "Napoleon"), never both."""
        return self.name_ja if (get_language() or "").startswith("ja") else self.name_en

    @property
    def rules(self) -> Game:
        """The engine's game: player counts, who deals, random legal play…"""
        return engine.GAMES[self.name]

    def rules_said(self, rules: Mapping[str, Any]) -> str:
        """A match's variants as the season's form says them, where they are not the
        game's default ("method 3, chips: …"; "" for none), for the table to read."""
        said = []
        for variant in self.variants:
            values = [value for value, _words in variant.choices]
            chosen = rules.get(variant.key, values[0]) if isinstance(rules, Mapping) else values[0]
            if chosen in values and values.index(chosen) > 0:
                said.append(f"{variant.label}: {variant.choices[values.index(chosen)][1]}")
        return "; ".join(said)

    def deck(self, form: EntryForm) -> Mapping[str, int]:
        """The deck of the form's deal, as the engine says for its players and the match's
        rules (Comp-13's jokers): its card pads offer only these cards."""
        return self.rules.deck_for(len(form.players), form.match.rules or {})

    # -- the entry form -------------------------------------------------------------------
    @abstractmethod
    def add_fields(self, form: EntryForm) -> None:
        """Add the game's fields to ``form`` (its players are ``form.players``)."""

    def sections(self, form: EntryForm) -> list[Section]:
        """The blocks of the form; by default one block of every game field."""
        return [Section(form.game_field_names, hint=self.hint)]

    @abstractmethod
    def record(self, form: EntryForm, data: Mapping[str, Any]) -> dict[str, Any]:
        """The deal record (without its envelope) of the cleaned form ``data``."""

    @abstractmethod
    def initial(self, record: Mapping[str, Any], handles: list[str]) -> dict[str, Any]:
        """The form values that give ``record`` back (to prefill a correction)."""

    def field_for(self, head: str, player: str) -> str | None:
        """The form field an engine error at ``head[…].player…`` concerns."""
        return None

    def problem_label(self, head: str, player: str) -> str | None:
        """What the form's list of problems names an engine error at ``head…`` by, where
        it concerns a block of fields (a sum over them) and is shown under the block's
        last field, which alone would mislead; ``None``: that field's label."""
        return None

    # -- a record in words ----------------------------------------------------------------
    card_keys: ClassVar[frozenset[str]] = frozenset()
    """The record's keys whose values are card codes: shown as the card pads show them."""

    def value_text(self, keys: Sequence[str], value: str) -> str | None:
        """A record's value at ``keys`` (its path: ``declaration``, ``trump``) as the reader
        says it, for the history of changes and the PIN page (``tournaments.history``): a
        card under one of :attr:`card_keys` as ♠A; the game's own words for its other
        values (a trump's name); ``None``: as stored."""
        return card_label(value) if any(k in self.card_keys for k in keys) else None

    # -- the score sheet ----------------------------------------------------------------
    def note(self, details: Mapping[str, Any], names: Mapping[str, str]) -> str:
        """A few words on a deal from the engine's details (the outcome, the winner), in the
        active language; ``names`` are the players' display names by handle."""
        return ""

    def outcome(self, details: Mapping[str, Any], finished: bool, names: Mapping[str, str]) -> str:
        """One line from the engine's match details (who is out, the chips, the title)."""
        return ""

    # -- a match's progress -----------------------------------------------------------
    def progress_text(self, done: int, of: int | None) -> str:
        """How far a match has gone toward its end, in the reader's language: ``done`` of
        ``of`` (``None``: open-ended) as the engine counts them
        (:meth:`engine.game.Game.progress`).  By default deals: "3 of 12 deals", "3 deals"."""
        if of is None:
            return ngettext("%(n)s deal", "%(n)s deals", done) % {"n": done}
        return ngettext("%(n)s of %(of)s deal", "%(n)s of %(of)s deals", of) % {
            "n": done,
            "of": of,
        }

    # -- the demo and the generator -------------------------------------------------------
    def demo_matches(self) -> list[DemoMatch]:
        """The demo club's matches of this game (handles of ``tournaments.ops.demo.PLAYERS``)."""
        return []

    # -- a player's season ------------------------------------------------------------
    counts: ClassVar[tuple[str, ...]] = ()
    """The keys of :meth:`player_numbers`, in the order of the match line's count columns
    (``scoring.models.COUNT_COLUMNS``: a key keeps its column once data is kept in it)."""
    statistics: ClassVar[tuple[Statistic, ...]] = ()
    """The game's own statistics, after the generic ones (:data:`statistics.GENERIC`),
    made of the season's sums of :attr:`counts`."""

    def all_statistics(self) -> tuple[Statistic, ...]:
        return GENERIC + self.statistics

    def player_numbers(
        self, deals: Sequence[Played], handle: str, match: Mapping[str, Any]
    ) -> dict[str, int]:
        """The game's own counts (keys of :attr:`counts`) of a player in one match, from
        their checked deals in it and the engine's ``match`` details (eliminations,
        titles): counts or sums, so that a season's are the sum of its matches'.  By
        default none beyond the generic ones."""
        return {}

    # -- ratings --------------------------------------------------------------------------
    def rating_teams(
        self,
        record: Mapping[str, Any],
        details: Mapping[str, Any],
        players: list[str],
        scores: Mapping[str, int],
    ) -> RatedTeams:
        """The rated event of one deal (``details``: the engine's result details of it):
        ``players`` are those with a score in it, in order of play.  By default the
        engine's sides, ranked by their deal score."""
        teams = self.rules.sides(players)
        return RatedTeams(teams, [-sum(scores[h] for h in team) for team in teams])


def strip_envelope(record: Mapping[str, Any]) -> dict[str, Any]:
    """A deal record without what its match supplies (``game``, ``players``, ``rules``,
    ``teams``)."""
    return {k: v for k, v in record.items() if k not in ("game", "players", "rules", "teams")}


def demo_deals(
    game: LeagueGame,
    seed: int,
    seated: list[str],
    rules: Mapping[str, Any] | None = None,
    target: int | None = None,
    most: int | None = None,
    *,
    first_in_full: bool = True,
) -> list[dict[str, Any]]:
    """A demo match played by the engine's random legal play with a fixed seed (the same
    legal deals on every machine): the first deal kept as a full play log (unless not
    ``first_in_full``), the others as the summaries a table logs."""
    deals = play_match(game.rules, random.Random(seed), seated, rules, target, most)
    full = deals[:1] if first_in_full else []
    return [strip_envelope(d) for d in (*full, *map(engine.summarize, deals[len(full) :]))]


def winner_note(details: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """``winner: Aki`` for games whose details name the deal's winner."""
    who = details.get("winner")
    return gettext("winner: %(name)s") % {
        "name": names.get(who, who) if isinstance(who, str) else who
    }
