"""The floor's Celery tasks, where the workers look for them (``app.autodiscover_tasks``):
defined beside what hands them on (``actions.after``)."""

from actions.after import hand_on

__all__ = ["hand_on"]
