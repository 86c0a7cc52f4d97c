"""A process that stores deals or rebuilds standings (a Celery worker, ``manage.py
rebuild_standings``) starts without the file writers: ``scoring.tasks``, which every such
process imports, leaves openpyxl and ReportLab to the tasks that make files (a fifth of
a second of each start on a 2-core machine)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
import scoring.tasks
print(sorted(name for name in ("openpyxl", "reportlab") if name in sys.modules))
"""


def test_a_worker_or_a_rebuild_starts_without_the_file_writers():
    started = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=os.environ,
        capture_output=True,
        text=True,
        check=True,
    )
    assert started.stdout.strip() == "[]"
