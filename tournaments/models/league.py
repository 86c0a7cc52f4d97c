"""The league's own records: clubs and their members, players and seasons (a season's
club nights, rounds and tables are ``tournaments.models.nights``)."""

from __future__ import annotations

import unicodedata
import zoneinfo
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

import engine
from tournaments.names import KANA, look_alike, normal, shown
from tournaments.ranking import BEST, Counted, Method, refusals

GAME_NAMES = sorted(engine.GAMES)
"""The games' names, for the API schema's one choice set of games."""


def validate_reading(value: str) -> None:
    """A reading is written in kana (hiragana or katakana)."""
    if value and not KANA.fullmatch(unicodedata.normalize("NFKC", value).strip()):
        raise ValidationError(
            _("Write the reading in kana (ひらがな or カタカナ)."), code="reading"
        )


def valid_time_zone(value: str) -> None:
    """A name of the IANA time zone database (Asia/Tokyo, Europe/London)."""
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name too long
        raise ValidationError(
            _("%(zone)s is not a time zone: write it as Asia/Tokyo or Europe/London."),
            params={"zone": value},
        ) from None


def game_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(engine.GAMES)]


class Club(models.Model):
    name = models.CharField(max_length=200, unique=True)
    name_key = models.CharField(
        max_length=200,
        unique=True,
        editable=False,
        help_text=_("The name as it looks (tournaments.names.look_alike): unique."),
    )
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="Asia/Tokyo",
        validators=[valid_time_zone],
        help_text=_("Where the club meets: the times of its nights (calendars) are read there."),
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        key = look_alike(self.name)
        if self.name_key != f"{key}#{self.pk}":  # a look-alike older than the key's rules
            self.name_key = key
        fields = kwargs.get("update_fields")
        if fields is not None and "name" in fields:
            kwargs["update_fields"] = {*fields, "name_key"}
        super().save(*args, **kwargs)

    def clean(self) -> None:
        if problem := Club.name_problem(self.name, self.pk):
            raise ValidationError({"name": ValidationError(problem, code="name_taken")})
        if problem := Club.slug_problem(self.slug, self.pk):
            raise ValidationError({"slug": ValidationError(problem, code="slug_taken")})

    @staticmethod
    def slug_problem(slug: str, pk: int | None = None) -> str | None:
        """``slug`` as a club's address looks like another club's (``/clubs/rnori/`` for
        ``/clubs/mori/``); a club keeps the address it has.  Sign-up derives addresses
        from names that do not look alike, numbered when taken; this checks the others."""
        if not slug or pk is not None and Club.objects.filter(pk=pk, slug=slug).exists():
            return None
        key, others = look_alike(slug), Club.objects.all()
        if pk is not None:
            others = others.exclude(pk=pk)
        if any(look_alike(s) == key for s in others.values_list("slug", flat=True).iterator()):
            return str(_("A club's address like this one exists: choose another."))
        return None

    @staticmethod
    def name_problem(name: str, pk: int | None = None) -> str | None:
        """What is wrong with ``name`` for a new club, or as club ``pk``'s new name: none
        of it shows, or it looks like another club's (``names.look_alike``).  A club keeps
        the name it has (one restored, or named before the rules of look-alikes grew)."""
        if pk is not None and Club.objects.filter(pk=pk, name=name).exists():
            return None
        key = look_alike(name)
        if not key:
            return str(_("Name the club with letters or digits."))
        others = Club.objects.filter(name_key=key)
        if (others.exclude(pk=pk) if pk is not None else others).exists():
            return str(_("A club of this name, or of a name that looks like it, exists."))
        return None


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
    calendar_token = models.CharField(
        max_length=64,
        blank=True,
        default="",
        editable=False,
        help_text="The secret of the member's private calendar feed (empty: none made yet).",
    )

    class Meta:
        ordering = ["club", "user"]
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="one_membership_per_club"),
            # A member's feed is found by its secret: one index, and never two alike.
            models.UniqueConstraint(
                fields=["calendar_token"],
                condition=~models.Q(calendar_token=""),
                name="one_calendar_token",
            ),
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
    reading = models.CharField(
        _("reading (kana)"),
        max_length=100,
        blank=True,
        validators=[validate_reading],
        help_text=_("How the name is read, in kana: lists put players in 五十音 order by it."),
    )
    pin = models.CharField(
        max_length=128,
        blank=True,
        default="",
        help_text=_("The player's short PIN for confirming deals at the table (kept hashed)."),
    )
    pin_failures = models.PositiveSmallIntegerField(
        default=0,
        db_default=0,
        help_text=_("Wrong PINs typed since the last right one (actions.pins)."),
    )
    pin_locked_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("Too many wrong PINs: the PIN is not checked before this time."),
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["club", "display_name"]
        verbose_name = pgettext_lazy("model", "player")
        verbose_name_plural = pgettext_lazy("model", "players")
        constraints = [
            models.UniqueConstraint(fields=["club", "handle"], name="player_handle_unique_in_club"),
            # An account is at most one player of a club.
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="player_account_unique_in_club",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.handle})"

    @property
    def shown_name(self) -> str:
        """The name people read in the active language (:func:`tournaments.names.shown`)."""
        return shown(self.display_name, self.name_ja)

    @property
    def other_name(self) -> str:
        """The name in the other language, where the club gave both (shown beside the
        name on the player's own page and the season's standings); else ``""``."""
        shown_name = self.shown_name
        other = self.display_name if shown_name == self.name_ja else self.name_ja
        return "" if other == shown_name else other


class MovesBy(models.TextChoices):
    COUNT = "count", _("players")
    PERCENT = "percent", _("per cent of the division")


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
    rules = models.JSONField(
        default=dict,
        blank=True,
        help_text=_(
            'The rules variants of each game\'s new matches, e.g. {"1234": {"scoring": "chips"}}.'
        ),
    )
    # How the leaderboards rank (tournaments.ranking); changing it re-ranks the stored lines.
    ranking = models.CharField(
        max_length=20,
        choices=Method.choices,
        default=Method.TOTAL,
        help_text=_("What the leaderboards rank by; each game's own tie-breaks come after."),
    )
    best_of = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("How many of a player's best club nights or matches count (best N)."),
    )
    qualify_by = models.CharField(max_length=10, choices=Counted.choices, default=Counted.NIGHTS)
    qualify_minimum = models.PositiveSmallIntegerField(
        default=0,
        help_text=_(
            "Players who played fewer club nights, matches or deals than this are listed "
            "apart, after the qualified (0: everyone is)."
        ),
    )

    # Divisions (tournaments.divisions): who moves between them when the season closes.
    moves_by = models.CharField(max_length=10, choices=MovesBy.choices, default=MovesBy.COUNT)
    moves = models.PositiveSmallIntegerField(
        default=2,
        validators=[MaxValueValidator(100)],
        help_text=_(
            "When the season closes, this many players of each division (or this per cent of "
            "it) move up to the division above and down to the one below."
        ),
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    next_season = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The season its divisions moved on to when it closed."),
    )

    class Meta:
        ordering = ["club", "-starts_on", "name"]
        verbose_name = pgettext_lazy("model", "season")
        verbose_name_plural = pgettext_lazy("model", "seasons")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club"),
            # A best N only with a ranking by the best N (ranking.refusals says it in words).
            models.CheckConstraint(
                condition=models.Q(best_of__isnull=True) | models.Q(ranking__in=BEST),
                name="season_best_of_only_when_counted",
            ),
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
        if wrong := refusals(self.ranking, self.best_of, self.qualify_minimum):
            raise ValidationError({k: ValidationError(v, code="ranking") for k, v in wrong.items()})
        if self.club_id and Season.name_taken(self.club_id, self.name, self.pk):
            taken = _("The club has a season of this name already.")
            raise ValidationError({"name": ValidationError(taken, code="unique")})

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
        games = self.club_nights.values_list("tables__matches__game", flat=True)
        return {game for game in games if game is not None}
