"""Score sheets uploaded for import (``tournaments.sheets``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.league import Club


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
