"""What the benchmarks share: a database of their own on the project's PostgreSQL
(``make services``), the Django set-up, a server and a worker as subprocesses."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:54329")
BROKER = os.environ.get("BENCH_BROKER", "redis://127.0.0.1:63799/1")


def environment(database: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": f"{PG}/{database}",
        "CELERY_BROKER_URL": BROKER,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "DEBUG": "0",
        "HTTPS": "0",  # plain HTTP on loopback: no TLS proxy in front
        "SECRET_KEY": "bench-only",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEAL_ENTRY_RATE": "1000000/min",
        "LOG_LEVEL": "WARNING",
        "PYTHONWARNINGS": "ignore",  # no collectstatic, root in a container: known, not news
        **extra,
    }


def fresh_database(name: str) -> dict[str, str]:
    """Drop and create ``name``, migrate it; the environment that points at it."""
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    env = environment(name)
    manage("migrate", "-v0", env=env)
    return env


def manage(*args: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [str(BIN / "python"), "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def server(env: dict[str, str], workers: int) -> Iterator[str]:
    """gunicorn serving the project on loopback; yields its base URL."""
    port = free_port()
    proc = subprocess.Popen(
        [
            str(BIN / "gunicorn"),
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{base}/healthz", timeout=1).read()
                break
            time.sleep(0.05)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def purge(env: dict[str, str]) -> None:
    """Drop queued tasks (an earlier benchmark's, for a database that is gone)."""
    subprocess.run(
        [str(BIN / "celery"), "-A", "config", "purge", "-f"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        check=False,
    )


@contextlib.contextmanager
def worker(env: dict[str, str], concurrency: int = 1) -> Iterator[None]:
    purge(env)
    proc = subprocess.Popen(
        [
            str(BIN / "celery"),
            "-A",
            "config",
            "worker",
            "--concurrency",
            str(concurrency),
            "--loglevel",
            "WARNING",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    try:
        time.sleep(3)  # the worker connects to the broker
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def machine() -> str:
    """The machine as a benchmark's first line says it: its processor, cores, Python, its
    speed (:func:`records_per_second`), which every figure in docs/benchmarks.md names,
    since shared machines differ by twice and more, and the load others put on it."""
    cpu = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    busy = load()  # before the measurement, which loads a core itself
    return (
        f"{cpu}, {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
        f"machine speed {records_per_second():,.0f} full-play records/s; {busy}"
    )


def load() -> str:
    """The load average of the last minute (``uptime``'s first figure), as said."""
    with contextlib.suppress(OSError, AttributeError):
        return f"load {os.getloadavg()[0]:.2f}"
    return "load unknown"


def records_per_second(n: int = 2_000) -> float:
    """The machine's speed as ``bench/engine_bench.py`` measures it (its first figure: the
    same 2,000 full-play 6-player Rettler records checked a second by the engine), best of
    three (a few seconds)."""
    sys.path.insert(0, str(ROOT))
    import random

    import engine
    from engine.games.simulate import random_full_deal

    rng = random.Random(7)
    players = ["A", "B", "C", "D", "E", "F"]
    records = [random_full_deal(engine.GAMES["rettler"], players, rng) for _ in range(n)]
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for record in records:
            engine.check(record)
        best = min(best, time.perf_counter() - start)
    return n / best
