"""What is played and scored: matches, their seats, deals with their versions and
scores, and a match's history of ends and reopenings."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

import engine
from dbtools import backend
from tournaments.models.league import Player, Season, game_choices
from tournaments.models.nights import Table


class JSONText(models.JSONField):
    """JSON kept as the text it was written as: PostgreSQL's ``json`` type, not ``jsonb``.

    A ``jsonb`` value is made into text again each time it is read as text, and the
    ratings replay reads every deal's event so (``scoring.rating_events``): three times
    slower than reading ``json`` (docs/benchmarks.md).  Key lookups work; containment (``@>``) and equality do not,
    and nothing asks them of such a column.  Elsewhere (SQLite) the same as ``JSONField``."""

    def db_type(self, connection: Any) -> str | None:
        if backend.vendor_of(connection) == "postgresql":
            return "json"
        return super().db_type(connection)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        # psycopg reads ``json`` into Python values itself (Django has it leave ``jsonb``
        # as text for this method to read).
        if value is None or not isinstance(value, str):
            return value
        return super().from_db_value(value, expression, connection)


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        FINISHED = "finished", _("finished")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="matches")
    game = models.CharField(max_length=20, choices=game_choices)
    rules = models.JSONField(
        default=dict, blank=True, help_text=_("Rules variants (the record's 'rules').")
    )
    target = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_(
            "Comp-13: deals in the match (12); Packing: points to win (500); 1234 and Bhabhi: games in the match (optional); Napoleon and Rettler: deals in the match (optional: else the match is ended by hand); else empty."
        ),
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    ended_by_hand = models.BooleanField(
        default=False,
        help_text=_(
            "Ended with 'End the match' (a scorer or administrator, with a reason), not by "
            "its rules: it counts as finished in the standings."
        ),
    )
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveBigIntegerField(
        default=1,
        db_default=1,
        help_text=_("Goes up with every change to the match's deals."),
    )
    checked_version = models.PositiveBigIntegerField(
        default=0,
        db_default=0,
        help_text=_("The version whose standings the engine computed last (rebuilds trust it)."),
    )
    state = models.JSONField(
        null=True,
        blank=True,
        help_text=_(
            "The match so far, kept for the next deal: its last deal number, its seats and "
            "the engine's snapshot (empty: recomputed from the deals)."
        ),
    )

    idempotency_key = models.CharField(
        max_length=255,
        blank=True,
        default="",
        help_text=_("The client's own key for this match (Idempotency-Key); empty: none."),
    )

    replayed = False
    """Set on the match :func:`~actions.matches.create_match` returns when its key had
    stored it before (not a column)."""

    class Meta:
        ordering = ["-created_at"]
        verbose_name = pgettext_lazy("model", "match")
        verbose_name_plural = pgettext_lazy("model", "matches")
        indexes = [
            models.Index(fields=["table", "status"]),
            # The latest matches first (home page, API) read from the newest end, not sorted.
            models.Index(fields=["created_at", "id"], name="match_latest"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="match_key_unique_at_table",
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk} at {self.table}"

    @property
    def season(self) -> Season:
        return self.table.club_night.season

    def seated_players(self) -> list[Player]:
        """The players in order of play (uses a prefetched ``seats`` when there is one)."""
        return [seat.player for seat in sorted(self.seats.all(), key=lambda s: s.position)]

    def outcome(self, result: engine.MatchResult) -> tuple[bool, list[str]]:
        """Finished, and its winners (handles): as the engine says; a match ended by hand
        ("End the match") is finished as it stands, won by the first of the game's own
        ranking (the standings' "matches won" and the score sheet agree on it)."""
        if result.finished or not self.ended_by_hand:
            return result.finished, list(result.winners)
        if not any(s.deals for s in result.standings):  # ended before any deal: no winner
            return True, []
        return True, [s.player for s in result.standings if s.rank == 1]

    def partnerships(self) -> list[list[str]]:
        """The sides by player handle: partners sit alternately, so the seat order decides."""
        handles = [p.handle for p in self.seated_players()]
        return engine.GAMES[self.game].sides(handles)


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text=_("0 is the first in order of play."))

    class Meta:
        ordering = ["match", "position"]
        verbose_name = pgettext_lazy("model", "seat")
        verbose_name_plural = pgettext_lazy("model", "seats")
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_player_unique"),
        ]
        # A player's latest matches, newest first, without reading all of them.
        indexes = [models.Index(fields=["player", "-match"], name="seat_player_latest")]

    def __str__(self) -> str:
        return f"{self.player} at seat {self.position}"


class Deal(models.Model):
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="deals")
    number = models.PositiveIntegerField(help_text=_("1 for the match's first deal."))
    record = models.JSONField(help_text=_("The deal record, as in docs/deal-records.md."))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    entered_at = models.DateTimeField(default=timezone.now)
    entered_at_table = models.BooleanField(
        default=False,
        db_default=False,
        help_text=_("Entered with the table's link (no account): shown as 'entered at table N'."),
    )
    entered_by_holder = models.CharField(
        max_length=32,
        blank=True,
        default="",
        db_default="",
        help_text=_(
            "The phone that entered the deal through the table's link (its session's "
            "holder id, tournaments.table_links): it never confirms the deal."
        ),
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="confirmed_deals",
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by_player = models.ForeignKey(
        "Player",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The seated player who confirmed it at the table with their PIN."),
    )
    revised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="revised_deals",
        help_text=_(
            "Who made the current version by a correction or a restore (empty: the entry): "
            "neither they nor the enterer may confirm it."
        ),
    )
    revised_by_holder = models.CharField(
        max_length=32,
        blank=True,
        default="",
        db_default="",
        help_text=_(
            "The phone that made the current version through the table's link: neither it "
            "nor the one that entered the deal confirms it."
        ),
    )
    deleted_at = models.DateTimeField(
        null=True, blank=True, help_text=_("Deleted deals keep their number and their history.")
    )
    idempotency_key = models.CharField(
        max_length=255,
        blank=True,
        default="",
        db_default="",  # rows written with COPY (scoring's bulk inserts) name no key
        help_text=_("The key the client made for this entry: a retry with it stores nothing new."),
    )
    request_hash = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_default="",
        help_text=_("SHA-256 of the record as sent."),
    )
    event = JSONText(
        null=True,
        blank=True,
        help_text=_(
            "The deal as the ratings see it (teams of player ids, ranks, weights, stake), "
            "written with its scores (empty: derived from the record when rated)."
        ),
    )

    replayed = False
    """Set on the deal :func:`~actions.deals.enter_deal` returns when its key had
    stored it before (not a column)."""

    class Meta:
        ordering = ["match", "number"]
        verbose_name = pgettext_lazy("model", "deal")
        verbose_name_plural = pgettext_lazy("model", "deals")
        constraints = [
            # Two scorers submitting the same deal number: one wins, the other gets a conflict.
            models.UniqueConstraint(fields=["match", "number"], name="deal_number_unique_in_match"),
            # A retried entry (same client key) is the same deal, whatever its number.
            models.UniqueConstraint(
                fields=["match", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="deal_key_unique_in_match",
            ),
        ]
        indexes = [
            # An imported score sheet's rows are found by their keys (tournaments.sheets).
            models.Index(fields=["idempotency_key"], name="deal_key"),
            # The deals a ratings replay must first give an event (scoring.ratings): almost
            # always none, found without reading the club's deals.
            models.Index(
                fields=["match"], condition=models.Q(event__isnull=True), name="deal_without_event"
            ),
        ]

    def __str__(self) -> str:
        return f"deal {self.number} of {self.match}"

    @property
    def pending(self) -> bool:
        """Waiting for a second person's confirmation (it does not count in standings yet)."""
        return self.confirmed_at is None and self.match.table.club_night.season.require_confirmation


def counting_deals(through: str = "") -> models.Q:
    """The deals that count in standings: not deleted; confirmed, or in a season that asks
    no confirmation.  ``through`` prefixes the lookups (``"deal__"`` from a DealScore)."""
    return models.Q(**{f"{through}deleted_at__isnull": True}) & (
        models.Q(**{f"{through}confirmed_at__isnull": False})
        | models.Q(**{f"{through}match__table__club_night__season__require_confirmation": False})
    )


def deal_count(match: str = "pk") -> models.Func:
    """The number of deals stored in the match at ``match`` (deleted ones too), counted per
    row shown: a list of twelve matches counts twelve matches' deals, not every match's
    before it keeps twelve, as ``Count("deals")`` with its ``GROUP BY`` does."""
    deals = (
        Deal.objects.filter(match=models.OuterRef(match))
        .order_by()
        .values("match")
        .annotate(n=models.Count("pk"))
        .values("n")
    )
    return Coalesce(models.Subquery(deals), 0)


def waiting_deals(through: str = "") -> models.Q:
    """The deals that wait for a second person's confirmation: not deleted, not confirmed,
    in a season that asks for it (they are not in the standings yet)."""
    return models.Q(
        **{
            f"{through}deleted_at__isnull": True,
            f"{through}confirmed_at__isnull": True,
            f"{through}match__table__club_night__season__require_confirmation": True,
        }
    )


class DealVersion(models.Model):
    """Every version a deal has had: who changed it, when, why, and the record before."""

    class Action(models.TextChoices):
        CORRECTED = "corrected", _("corrected")
        DELETED = "deleted", _("deleted")
        RESTORED = "restored", _("restored")

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="versions")
    action = models.CharField(max_length=10, choices=Action.choices)
    record_before = models.JSONField(help_text=_("The deal record before this change."))
    reason = models.CharField(max_length=500)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    changed_at = models.DateTimeField(default=timezone.now)
    at_table = models.BooleanField(
        default=False, help_text=_("Changed with the table's link (no account).")
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="confirmed_versions",
        help_text=_("Who had confirmed the record before this change (empty: nobody)."),
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    effect = models.JSONField(
        default=list,
        blank=True,
        help_text=_(
            "What the change did to the season's leaderboard: per seated player, "
            "total and rank before and after."
        ),
    )

    class Meta:
        ordering = ["deal", "changed_at", "pk"]

    def __str__(self) -> str:
        return f"{self.deal} {self.action} at {self.changed_at:%Y-%m-%d %H:%M}"


class MatchEvent(models.Model):
    """A match ended by hand or reopened: who, when and why (the match page's history)."""

    class Action(models.TextChoices):
        ENDED = "ended", _("ended")
        REOPENED = "reopened", _("reopened")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    action = models.CharField(max_length=10, choices=Action.choices)
    reason = models.CharField(max_length=500)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "changed_at", "pk"]

    def __str__(self) -> str:
        return f"{self.match} {self.action} at {self.changed_at:%Y-%m-%d %H:%M}"


class DealScore(models.Model):
    """One player's result in one deal, as the engine computed it when the deal was entered."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="scores")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="deal_scores")
    score = models.IntegerField()
    won = models.BooleanField(help_text=_("The player is credited with winning the deal."))

    class Meta:
        ordering = ["deal", "player"]
        verbose_name = pgettext_lazy("model", "deal score")
        verbose_name_plural = pgettext_lazy("model", "deal scores")
        constraints = [models.UniqueConstraint(fields=["deal", "player"], name="deal_score_unique")]
        # The season rebuild aggregates by player over a season's deals.
        indexes = [models.Index(fields=["player", "deal"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.score:+d}"
