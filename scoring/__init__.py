"""Standings (and later ratings and exports), kept up to date by Celery tasks."""
