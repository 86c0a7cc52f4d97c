"""The words a refusal says, on a page and in the API alike, in the reader's language.

A page raises Django's ``PermissionDenied`` with one of these (through
``web.pages.getters``); the API raises DRF's (``web.api.base.deny``).  A refusal an
action gives, such as a confirmer who is not at the table, keeps the action's own
message instead.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

ADMINS_ONLY = gettext_lazy("Only a league administrator of this club sets it up.")
"""A club's set-up: its players, members, seasons, nights, divisions, draws, rounds and
imported sheets."""
DEALS_ADMINS_ONLY = gettext_lazy(
    "Only a league administrator of this club deletes, restores and reopens."
)
HISTORY_FOR_ADMINS = gettext_lazy(
    "Only a league administrator of this club reads a deal's history (who changed it, when "
    "and why)."
)
NOT_YOUR_TABLE = gettext_lazy(
    "Only this table's scorer or a league administrator corrects and deletes its deals."
)
NOT_YOUR_MATCH = gettext_lazy("Only this table's scorer or a league administrator ends its match.")
NOT_THIS_TABLE = gettext_lazy(
    "Only this table's scorer, a league administrator or whoever holds the table's link "
    "enters its deals."
)
"""The entry page, which a table's link opens."""
SCORERS_ENTER = gettext_lazy("Only this table's scorer or a league administrator enters its deals.")
"""The API, where an account enters deals and a table's link grants nothing."""
LINKS_ADMINS_ONLY = gettext_lazy("Only a league administrator of this club changes table links.")
SCORERS_ADMINS_ONLY = gettext_lazy(
    "Only a league administrator of this club names a table's scorer."
)
FILES_FOR_ADMINS = gettext_lazy(
    "Only the club's league administrators have its files made and download them."
)
