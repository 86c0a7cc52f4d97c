"""The embedded database never answers 500 to simultaneous work (issue 24, 5).

`make demo`'s server (Django's threaded runserver over SQLite, tasks run eagerly in the
web process) is started on a database of its own; 20 phones post the same deal at once,
then 20 corrections of one deal are sent at once.  Every change answered 2xx is stored,
every stored change was answered 2xx, and nothing answers 500."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import EMBEDDED, copy_of_demo, run_manage

pytestmark = [pytest.mark.slow, EMBEDDED]

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = 20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def embedded(_embedded_demo, tmp_path_factory):
    """`make demo`'s server on a copy of its loaded database (deals entered as fast as asked)."""
    demo = copy_of_demo(_embedded_demo[0], tmp_path_factory.mktemp("embedded"))
    env = {**demo, "DEAL_ENTRY_RATE": "10000/min", "LOG_LEVEL": "WARNING"}

    def manage(*args: str) -> str:
        return run_manage(env, *args)

    found = manage(
        "shell",
        "-c",
        (
            "from django.contrib.auth.models import User; from rest_framework.authtoken.models "
            "import Token; from tournaments.models import Match; m = Match.objects.filter(game='napoleon').earliest('pk'); "
            "t, _ = Token.objects.get_or_create(user=User.objects.get(username='scorer')); "
            "print('FOUND', t.key, m.pk, m.deals.count())"
        ),
    )
    found = found[found.index("FOUND") :]
    _found, token, match, deals = found.split()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    yield {"base": base, "token": token, "match": int(match), "deals": int(deals), "manage": manage}
    server.terminate()
    server.wait(10)


def call(embedded, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(
        embedded["base"] + path,
        data=json.dumps(body).encode() if body is not None else None,
        method=method,
        headers={
            "Authorization": f"Token {embedded['token']}",
            "Content-Type": "application/json",
            "Accept-Language": "en",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            return error.code, json.loads(text)
        except ValueError:
            return error.code, {"text": text[:300].decode(errors="replace")}


def at_once(count: int, work) -> list[tuple[int, dict]]:
    start = threading.Barrier(count)
    answers: list[tuple[int, dict]] = [(0, {})] * count

    def run(i: int) -> None:
        start.wait()
        answers[i] = work(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def deal(points: dict[str, int]) -> dict:
    return {
        "declaration": {"player": "gen", "count": 15, "trump": "hearts"},
        "adjutant_cards": ["SA"],
        "adjutants": ["ito"],
        "point_cards": points,
    }


def stored(embedded, query: str) -> str:
    return embedded["manage"]("shell", "-c", query).strip().splitlines()[-1]


def test_twenty_posts_of_one_deal_store_it_once_and_answer_it(embedded):
    number = embedded["deals"] + 1
    body = {"number": number, "record": deal({"gen": 9, "hana": 3, "ito": 7, "jun": 1})}
    answers = at_once(
        CLIENTS, lambda i: call(embedded, "POST", f"/api/matches/{embedded['match']}/deals/", body)
    )
    codes = sorted(code for code, _body in answers)
    assert codes == [201] + [409] * (CLIENTS - 1), [
        (c, b) for c, b in answers if c not in (201, 409)
    ]
    count = stored(
        embedded,
        f"from tournaments.models import Deal; print(Deal.objects.filter(match_id={embedded['match']}, number={number}).count())",
    )
    assert count == "1"


def test_interleaved_corrections_all_answer_and_all_are_kept(embedded):
    _code, deals = call(embedded, "GET", f"/api/matches/{embedded['match']}/deals/")
    target = deals["results"][0]["id"] if "results" in deals else deals[0]["id"]
    before = int(
        stored(
            embedded,
            f"from tournaments.models import DealVersion; print(DealVersion.objects.filter(deal_id={target}).count())",
        )
    )
    # Each a record of its own: a correction to the record the deal has already stores
    # nothing (a retried PUT), so two alike in a row would keep one version.
    records = [
        deal({"gen": i % 10, "hana": 10 - i % 10, "ito": 5 + i // 10, "jun": 5 - i // 10})
        for i in range(CLIENTS)
    ]

    def correct(i: int) -> tuple[int, dict]:
        return call(
            embedded,
            "PUT",
            f"/api/deals/{target}/",
            {"record": records[i], "reason": f"try {i}"},
        )

    answers = at_once(CLIENTS, correct)
    codes = [code for code, _body in answers]
    assert all(code in (200, 503) for code in codes), [
        (c, b) for c, b in answers if c not in (200, 503)
    ]
    for code, body in answers:
        if code == 503:
            assert body["errors"][0]["code"] == "busy"
    after = int(
        stored(
            embedded,
            f"from tournaments.models import DealVersion; print(DealVersion.objects.filter(deal_id={target}).count())",
        )
    )
    assert after - before == codes.count(200)  # every 2xx stored, every stored change a 2xx
    assert codes.count(200) >= CLIENTS // 2, codes
