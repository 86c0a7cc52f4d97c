"""The Celery application; workers run ``celery -A config worker``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("clubscore")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
