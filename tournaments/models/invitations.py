"""Joining the site without its operator (``actions.invitations``): invitation links,
the sign-up log, and account names as they look."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.models.league import Club, Membership, Player


class Invitation(models.Model):
    """A one-time link that makes whoever follows it a member of a club in a role
    (``actions.invitations``), and optionally links them to a player."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True)
    role = models.CharField(
        max_length=10, choices=Membership.Role.choices, default=Membership.Role.MEMBER
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="The only account that may accept it (an existing account added by name).",
    )
    meant_for = models.CharField(
        max_length=80,
        blank=True,
        help_text="Whom the link was made for, in the administrator's words (the list says it).",
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
    def whom(self) -> str:
        """Whom the link is for, as the list of links says it ("": anyone with it)."""
        if self.meant_for:
            return self.meant_for
        if self.player is not None:
            return str(self.player.shown_name)
        return self.account.get_username() if self.account is not None else ""

    @property
    def usable(self) -> bool:
        return self.used_at is None and self.revoked_at is None and self.expires_at > timezone.now()


class SignUp(models.Model):
    """A club started by sign-up: from which address, by which account (the limits on
    sign-ups per address and clubs per account count these)."""

    address = models.CharField(max_length=45, db_index=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    club = models.ForeignKey(Club, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["address", "at"], name="signup_by_address")]

    def __str__(self) -> str:
        return f"{self.address} at {self.at:%Y-%m-%d %H:%M}"


class AccountName(models.Model):
    """An account's user name as it looks (``tournaments.names.look_alike``), kept with
    every save of the account: a new account may not look like an existing one."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    key = models.CharField(max_length=150, db_index=True)

    def __str__(self) -> str:
        return self.key
