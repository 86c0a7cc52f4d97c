"""Clubs, players, seasons, club nights, tables, matches and deals.

A match belongs to a table of a club night of a season of a club; the chain is
the single source of which club owns what.  Rules live in ``engine/``: these
models only store what the engine checked (see ``tournaments.actions``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import engine
from tournaments.names import normal

GAME_NAMES = sorted(engine.GAMES)
"""The games' names, for the API schema's one choice set of games."""


def game_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(engine.GAMES)]


class Club(models.Model):
    name = models.CharField(max_length=200, unique=True)
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's role in one club (tournaments.access has what each role may do).

    Site operators (superusers) need none: they see and change every club.
    """

    class Role(models.TextChoices):
        ADMIN = "admin", _("league administrator")
        SCORER = "scorer", _("scorer")
        MEMBER = "member", _("member")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)

    class Meta:
        ordering = ["club", "user"]
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="one_membership_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.club} ({self.role})"


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
        help_text=_("The player's own account, if any: seated players may confirm deals."),
    )
    handle = models.SlugField(
        max_length=40,
        help_text=_("The player's identifier in deal records; unique in the club."),
    )
    display_name = models.CharField(max_length=100)
    name_ja = models.CharField(_("name in Japanese"), max_length=100, blank=True)
    pin = models.CharField(
        max_length=128,
        blank=True,
        default="",
        help_text=_("The player's short PIN for confirming deals at the table (kept hashed)."),
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["club", "display_name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "handle"], name="player_handle_unique_in_club")
        ]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.handle})"

    on_rename: ClassVar[Callable[[Player, str, str], object] | None] = None
    """Rewrites the stored records that name a renamed player: ``tournaments.renames``,
    set when the app is ready (the models import no workflow)."""

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A new handle rewrites every stored record that names the player, in the same
        transaction (``tournaments.renames``), whatever saves it: a page, the API, the
        admin, a command.  The rewrite may refuse (a ``Rejection``): nothing is saved."""
        old = Player.objects.filter(pk=self.pk).values_list("handle", flat=True).first()
        if old is None or old == self.handle or Player.on_rename is None:
            super().save(*args, **kwargs)
            return
        with transaction.atomic():
            super().save(*args, **kwargs)
            Player.on_rename(self, old, self.handle)


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(max_length=200)
    games = models.JSONField(
        default=list, help_text=_('The games this season counts, e.g. ["rettler", "comp13"].')
    )
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    require_confirmation = models.BooleanField(
        default=False,
        help_text=_("Each deal counts only once a second person at the table has confirmed it."),
    )
    public = models.BooleanField(
        default=False,
        help_text=_(
            "Anyone may read its leaderboards, score sheets and exports without signing in."
        ),
    )

    class Meta:
        ordering = ["club", "-starts_on", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club")
        ]

    def __str__(self) -> str:
        return f"{self.club} – {self.name}"

    def clean(self) -> None:
        if not isinstance(self.games, list) or not self.games:
            raise ValidationError({"games": _("List at least one game.")})
        unknown = [g for g in self.games if g not in engine.GAMES]
        if unknown:
            raise ValidationError(
                {"games": _("Unknown game(s): %(games)s") % {"games": ", ".join(map(str, unknown))}}
            )
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("A season cannot end before it starts.")})
        if self.club_id and Season.name_taken(self.club_id, self.name, self.pk):
            raise ValidationError({"name": _("The club has a season of this name already.")})
        if self.pk:
            played = self.games_with_matches() - set(self.games)
            if played:
                raise ValidationError(
                    {
                        "games": _(
                            "%(games)s has matches in this season: a game with matches stays in its season."
                        )
                        % {"games": ", ".join(sorted(played))}
                    }
                )

    @staticmethod
    def name_taken(club_id: int, name: str, pk: int | None = None) -> bool:
        """A season of the club has this name, as names are compared (``names.normal``:
        the score-sheet import takes ``Spring 2024`` and ``spring 2024`` for one season)."""
        others = Season.objects.filter(club_id=club_id)
        if pk is not None:
            others = others.exclude(pk=pk)
        return normal(name) in {normal(n) for n in others.values_list("name", flat=True)}

    def games_with_matches(self) -> set[str]:
        """The games this season has matches of (they cannot be dropped from it)."""
        return set(
            Match.objects.filter(table__club_night__season=self).values_list("game", flat=True)
        )


class ClubNight(models.Model):
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="club_nights")
    date = models.DateField()
    venue = models.CharField(max_length=200, blank=True)
    deals_per_match = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_(
            "Matches of open-ended games (Napoleon, Rettler; 1234 and Bhabhi count games) "
            "started this night end by themselves after this many deals."
        ),
    )

    class Standings(models.TextChoices):
        POINTS = "points", _("raw points")
        RANKS = "ranks", _("table ranks")

    standings = models.CharField(
        max_length=10,
        choices=Standings.choices,
        default=Standings.POINTS,
        help_text=_(
            "The night's standings across tables: the deal scores summed, or points for "
            "each place at a table (a night of several games or table sizes)."
        ),
    )
    rank_points = models.JSONField(
        default=list,
        blank=True,
        help_text=_(
            "Points for first, second, third… at a table (table ranks); empty: 4, 2, 1, 0."
        ),
    )

    class Meta:
        ordering = ["-date"]

    def __str__(self) -> str:
        return f"{self.season.name} {self.date:%Y-%m-%d}"


class Round(models.Model):
    """A round of a club night played in rounds (``tournaments.rounds``): a draw of the
    present players onto tables, each playing the round's length; who sat out."""

    class Method(models.TextChoices):
        BALANCED = "balanced", _("balanced")
        SWISS = "swiss", _("Swiss")
        FINAL = "final", _("final table")

    club_night = models.ForeignKey(ClubNight, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    game = models.CharField(max_length=20, choices=game_choices)
    method = models.CharField(max_length=10, choices=Method.choices)
    deals = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("Deals per match (open-ended games); else the game's end."),
    )
    sat_out = models.ManyToManyField(Player, blank=True, related_name="rounds_sat_out")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    ended_early_at = models.DateTimeField(null=True, blank=True)
    ended_early_reason = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        ordering = ["club_night", "number"]
        constraints = [
            models.UniqueConstraint(fields=["club_night", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.club_night} round {self.number}"


class Table(models.Model):
    club_night = models.ForeignKey(ClubNight, on_delete=models.CASCADE, related_name="tables")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="tables"
    )
    name = models.CharField(max_length=60)
    scorer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="scored_tables",
    )
    link_token = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_default="",
        db_index=True,
        help_text=_(
            "The secret of the table's link (tournaments.table_links): whoever holds it enters "
            "and corrects this table's deals that night. Empty: no link (or revoked)."
        ),
    )

    class Meta:
        ordering = ["club_night", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["club_night", "name"],
                condition=models.Q(round__isnull=True),
                name="table_name_unique_per_night",
            ),
            # A night in rounds names its tables again in every round (the room's tables).
            models.UniqueConstraint(
                fields=["round", "name"],
                condition=models.Q(round__isnull=False),
                name="table_name_unique_per_round",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club_night} {self.name}"


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

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "matches"
        indexes = [models.Index(fields=["table", "status"])]

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
    event = models.JSONField(
        null=True,
        blank=True,
        help_text=_(
            "The deal as the ratings see it (teams of player ids, ranks, weights, stake), "
            "written with its scores (empty: derived from the record when rated)."
        ),
    )

    replayed = False
    """Set on the deal :func:`~tournaments.actions.enter_deal` returns when its key had
    stored it before (not a column)."""

    class Meta:
        ordering = ["match", "number"]
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
        # An imported score sheet's rows are found by their keys (tournaments.sheets).
        indexes = [models.Index(fields=["idempotency_key"], name="deal_key")]

    def __str__(self) -> str:
        return f"deal {self.number} of {self.match}"

    def may_be_confirmed_by(self, user_id: int | None) -> bool:
        """A second person: neither who entered the deal nor who made its current version."""
        return user_id is not None and user_id not in (self.entered_by_id, self.revised_by_id)

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
        constraints = [models.UniqueConstraint(fields=["deal", "player"], name="deal_score_unique")]
        # The season rebuild aggregates by player over a season's deals.
        indexes = [models.Index(fields=["player", "deal"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.score:+d}"


class SheetUpload(models.Model):
    """A score sheet uploaded for import (``tournaments.sheets``), kept between its preview
    and the league administrator's confirmation, and afterwards as a record of it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sheet_uploads")
    name = models.CharField(max_length=255)
    data = models.BinaryField()
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    uploaded_at = models.DateTimeField(default=timezone.now)
    imported_at = models.DateTimeField(null=True, blank=True)
    preview = models.BinaryField(
        null=True, blank=True, help_text=_("The last preview checked (made by the server).")
    )
    preview_for = models.CharField(
        max_length=64, blank=True, default="", help_text=_("The answers and language it is for.")
    )
    answers = models.JSONField(
        default=dict,
        blank=True,
        help_text=_(
            "The administrator's answers for names the club does not know (name → 'new' or "
            "a handle); a file uploaded again starts from them."
        ),
    )

    class Meta:
        ordering = ["club", "-uploaded_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"


class Invitation(models.Model):
    """A one-time link that makes whoever follows it a member of a club in a role
    (``tournaments.invitations``), and optionally links them to a player."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True)
    role = models.CharField(
        max_length=10, choices=Membership.Role.choices, default=Membership.Role.MEMBER
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    made_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "-made_at"]

    def __str__(self) -> str:
        return f"{self.club} {self.role} invitation of {self.made_at:%Y-%m-%d}"

    @property
    def usable(self) -> bool:
        return self.used_at is None and self.revoked_at is None and self.expires_at > timezone.now()
