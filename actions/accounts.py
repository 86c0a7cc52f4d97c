"""A person's account on the site: made at sign-up or when an invitation is followed,
and its API tokens ended when its password is set anew (a reset link)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from actions.invitations import NAME_TAKEN, name_looks_taken
from tournaments import errors

BAD = "%(reason)s"


def make_account(username: str, email: str, password: str) -> Any:
    """A new account, checked here whatever form sent it: the name (the user model's own
    rules, and not a name that is or looks like a taken one: refused alike, saying no
    more about who holds it), the e-mail address and the password (the site's password
    validators).  Two sign-ups of one name at once: the second is refused, nothing
    made."""
    users = get_user_model()
    user = users(username=username, email=email)
    try:
        user.clean_fields(exclude=["password"])
    except ValidationError as wrong:
        field, problems = next(iter(wrong.message_dict.items()))
        raise errors.refusal("invalid", field, BAD, reason=" ".join(problems)) from None
    if name_looks_taken(username):
        raise errors.refusal("name_taken", "username", NAME_TAKEN)
    try:
        validate_password(password, user)
    except ValidationError as weak:
        raise errors.refusal(
            "weak_password", "password", BAD, reason=" ".join(weak.messages)
        ) from None
    try:
        with transaction.atomic():
            return users.objects.create_user(username, email, password)
    except IntegrityError:
        raise errors.refusal("name_taken", "username", NAME_TAKEN) from None


def password_set(user: Any) -> None:
    """After the account's password was set anew: its API tokens end too (its sessions
    end by themselves, carrying a hash of the password)."""
    Token.objects.filter(user=user).delete()
