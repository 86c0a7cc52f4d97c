"""Password reset links that a league administrator makes for a member.

A reset link is the account: whoever opens it sets the password.  So the right to make
one (``invitations.may_reset``: the maker administers every club of the account, and the
account is no operator or staff) is checked again each time the link is used, not only
when it is made, and the link names its maker for that.  Its hash also covers what that
right rests on: the account's memberships and roles, its staff and operator flags, its
password and last sign-in.  Any change to them (the member joins or administers another
club, the maker is removed, the password changes) ends every link made before.  A link
works for ``RESET_LINK_SECONDS`` (settings) and once.

Links sent by e-mail (``auth_views.PasswordResetView``) are Django's own, checked by
Django; both kinds end the account's sessions and API tokens when the password is set
(``web.pages.accounts``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.utils.http import base36_to_int, int_to_base36

from actions.invitations import may_reset
from tournaments.models import Membership


class _MadeBy(PasswordResetTokenGenerator):
    """Django's reset token, its hash also over the maker and the account's rights."""

    key_salt = "clubscore.actions.reset_links"

    def __init__(self, maker_id: int) -> None:
        super().__init__()
        self.maker_id = maker_id

    def _make_hash_value(self, user: Any, timestamp: int) -> str:
        rights = ",".join(
            f"{club}:{role}"
            for club, role in Membership.objects.filter(user=user)
            .order_by("club_id")
            .values_list("club_id", "role")
        )
        flags = f"{user.is_active:d}{user.is_staff:d}{user.is_superuser:d}"
        return f"{super()._make_hash_value(user, timestamp)}|{flags}|{rights}|{self.maker_id}"

    def fresh(self, token: str) -> bool:
        try:
            made = base36_to_int(token.split("-")[0])
        except ValueError:
            return False
        return 0 <= self._num_seconds(self._now()) - made <= settings.RESET_LINK_SECONDS


class AdministratorLinks:
    """The token generator of an administrator's reset links (the reset view's
    ``token_generator``): ``<maker>-<timestamp>-<hash>``."""

    def make_token(self, user: Any, maker: Any) -> str:
        return f"{int_to_base36(maker.pk)}-{_MadeBy(maker.pk).make_token(user)}"

    def check_token(self, user: Any, token: str | None) -> bool:
        if user is None or not token:
            return False
        maker_part, _sep, rest = token.partition("-")
        try:
            maker_id = base36_to_int(maker_part)
        except ValueError:
            return False
        maker = get_user_model().objects.filter(pk=maker_id, is_active=True).first()
        if maker is None or not may_reset(maker, user):
            return False
        tokens = _MadeBy(maker.pk)
        return tokens.fresh(rest) and tokens.check_token(user, rest)


links = AdministratorLinks()
