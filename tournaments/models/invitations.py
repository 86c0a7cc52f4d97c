"""Invitation links to join a club (``tournaments.invitations``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.models.league import Club, Membership, Player


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
