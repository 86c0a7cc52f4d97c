"""What one deal entry costs the web process (issue 60, entry), run by hand with
``make services`` running: ``.venv/bin/python bench/entry_cost.py``.

The API bench's entries (``bench/api_bench.py``: a Napoleon deal POSTed with a token)
sent straight to Django's WSGI handler in this one process, no server and no client:
the CPU time of an entry, and, under valgrind's callgrind (Debian's ``valgrind``),
the instructions an entry costs, which do not depend on what else the machine is
doing. Callgrind counts the whole process: it runs twice, with no entries and with
``BENCH_ENTRIES``, and the difference is divided. PostgreSQL's and Redis's own work is
not counted (other processes). Set ``BENCH_CALLGRIND=0`` for the CPU time alone.
"""

from __future__ import annotations

import io
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import api_bench  # noqa: E402
from common import environment, machine, setup_django  # noqa: E402

ENTRIES = int(os.environ.get("BENCH_ENTRIES", "150"))
WARM = 50
"""Entries before any is counted: each process's first answers load what they use."""
DATABASE = "clubscore_bench_api"


def entries(count: int, reuse: bool) -> float:
    """Enter ``WARM`` then ``count`` deals in this process; CPU seconds of the last ``count``."""
    if reuse:
        setup_django(environment(DATABASE))
        from rest_framework.authtoken.models import Token

        from tournaments.models import Match

        token = Token.objects.get().key
        matches = list(Match.objects.order_by("pk").values_list("pk", flat=True))
        bodies = api_bench.bodies()
    else:
        _env, token, matches, bodies = api_bench.prepare()
    import config.wsgi

    app = config.wsgi.application
    rng = random.Random(1)

    def enter(i: int) -> None:
        body = rng.choice(bodies)
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": f"/api/matches/{matches[i % len(matches)]}/deals/",
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "HTTP_HOST": "127.0.0.1",
            "HTTP_AUTHORIZATION": f"Token {token}",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(body)),
            "REMOTE_ADDR": "127.0.0.1",
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
        }
        status: list[str] = []
        b"".join(app(environ, lambda s, _headers, _exc=None: status.append(s)))
        if not status[0].startswith("201"):
            raise SystemExit(f"entry answered {status[0]}")

    for i in range(WARM):
        enter(i)
    start = time.process_time()
    for i in range(count):
        enter(i)
    return time.process_time() - start


def counted(count: int) -> int:
    """Instructions of this script entering ``count`` deals, under callgrind."""
    with tempfile.TemporaryDirectory() as kept:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={kept}/out",
                sys.executable,
                __file__,
                "--entries",
                str(count),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(done.stderr[-2000:])
    return int(found.group(1))


def main() -> None:
    if sys.argv[1:2] == ["--entries"]:  # the process callgrind counts
        entries(int(sys.argv[2]), reuse=True)
        return
    print(f"{machine()}; one process, Django's WSGI handler, no server")
    seconds = entries(ENTRIES, reuse=False)  # the database made afresh, as the API bench's
    print(f"  CPU: {seconds / ENTRIES * 1000:.2f} ms an entry ({ENTRIES} entries)")
    if os.environ.get("BENCH_CALLGRIND", "1") == "0":
        return
    if shutil.which("valgrind") is None:
        print("  instructions: not counted (valgrind is not installed: apt-get install valgrind)")
        return
    cost = (counted(ENTRIES) - counted(0)) / ENTRIES
    print(f"  instructions: {cost / 1e6:.2f} million an entry (callgrind, {ENTRIES} entries)")


if __name__ == "__main__":
    main()
