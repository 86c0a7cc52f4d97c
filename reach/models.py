"""What reaching players keeps: push subscriptions and the messages sent to them, the
club's webhook endpoints and their deliveries, and the site's own VAPID key.

Every message is one row per event and recipient, unique on both: a retried or
concurrent fan-out inserts nothing twice and therefore sends nothing twice
(``reach.push``, ``reach.webhooks``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, ClubNight, Player, Season, Table


class PushKind(models.TextChoices):
    """What a player may choose to be told (each chosen apart)."""

    DRAWN = "drawn", _("my table is drawn, or a night called off")
    PIN = "pin", _("a deal waits for my PIN")
    CORRECTION = "correction", _("a correction changed my score or rank")
    CLOSED = "closed", _("the round or night is closed, with my place")
    SEASON = "season", _("the season is closed")


class VapidKey(models.Model):
    """The site's VAPID key pair, made once on first use when the environment gives none:
    every web process and worker signs with the same key, read from the database."""

    name = models.CharField(max_length=20, unique=True, default="site")
    private_pem = models.TextField()
    public_key = models.CharField(max_length=200, help_text="The application server key.")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"VAPID key {self.name}"


class Subscription(models.Model):
    """One browser's push subscription following one player.

    The right to read what it is told is checked again at every send: ``user`` (a member
    who reads the season), ``table`` (the table link it was made through: that night
    only, while the link works) or, with neither, the season being public.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="subscriptions")
    endpoint = models.URLField(max_length=1000)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    kinds = models.JSONField(default=list, help_text="The PushKind values chosen.")
    language = models.CharField(max_length=8, default="en")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="subscriptions"
    )
    night = models.ForeignKey(
        ClubNight,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="subscriptions",
        help_text="Made through a table link: the night it is limited to.",
    )
    link = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="Made through a table link: the SHA-256 of that link's secret "
        "(a replaced link stops it).",
    )
    created_at = models.DateTimeField(default=timezone.now)
    failures = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["endpoint", "player"], name="one_subscription")
        ]

    def __str__(self) -> str:
        return f"push to {self.player_id} ({self.pk})"


class Notice(models.Model):
    """One push message: one event told to one subscription, at most once."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        GONE = "gone", _("subscription expired")
        SKIPPED = "skipped", _("not allowed any more")

    event = models.CharField(max_length=120)
    kind = models.CharField(max_length=12, choices=PushKind.choices)
    subscription = models.ForeignKey(
        Subscription, null=True, on_delete=models.SET_NULL, related_name="notices"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="notices")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="notices")
    night = models.ForeignKey(
        ClubNight, null=True, blank=True, on_delete=models.CASCADE, related_name="notices"
    )
    title = models.CharField(max_length=200)
    body = models.CharField(max_length=1000)
    url = models.CharField(max_length=500)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    error = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "subscription"], name="one_notice")]
        indexes = [models.Index(fields=["night", "status"], name="notice_night")]

    def __str__(self) -> str:
        return f"{self.event} → {self.player_id}: {self.status}"


class Endpoint(models.Model):
    """A club's webhook endpoint (Standard Webhooks): where, which events, its secret."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(max_length=1000)
    description = models.CharField(max_length=200, blank=True, default="")
    secret = models.CharField(max_length=100, help_text="whsec_ and 32 random bytes, base64.")
    previous_secret = models.CharField(
        max_length=100,
        blank=True,
        default="",
        help_text="The secret a new one replaced: it signs too until previous_until.",
    )
    previous_until = models.DateTimeField(null=True, blank=True)
    events = models.JSONField(default=list, help_text="The event types it receives.")
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["club", "pk"]

    def __str__(self) -> str:
        return self.url


class Delivery(models.Model):
    """One event for one endpoint, retried with back-off until delivered or a day passed."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        DELIVERED = "delivered", _("delivered")
        RETRYING = "retrying", _("failed, will retry")
        FAILED = "failed", _("failed, given up")

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=120, help_text="The event's stable id.")
    message_id = models.CharField(max_length=60, help_text="webhook-id: msg_ and random.")
    event_type = models.CharField(max_length=40)
    payload = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["endpoint", "event"], name="one_delivery")]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="delivery_due")]

    def __str__(self) -> str:
        return f"{self.event} → {self.endpoint_id}: {self.status}"
