from django.apps import AppConfig


class ReachConfig(AppConfig):
    """Reaching players and a club's tools: push, webhooks (``reach.sources`` turns what
    the actions announce, ``actions.after.announce``, into events)."""

    name = "reach"
    default_auto_field = "django.db.models.BigAutoField"
