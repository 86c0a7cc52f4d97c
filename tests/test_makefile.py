"""The README's commands on a bare machine: no two package installs at once.

`make test` once ran the services and the browser's packages as parallel jobs, each with
an `apt-get install` of its own; on a machine that had neither, the second died on dpkg's
lock. These tests read what `make` would run (`make -n -B`, nothing is run) and hold that
every parallel step holds at most one command that installs Debian packages, and that the
packages are installed before the services that need them start.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TARGETS = ("test", "check", "demo", "docs", "fuzz", "bench", "services", "packages")
INSTALLS = re.compile(r"\bapt-get\b[^\n#]*\binstall\b|\bapt\s+install\b|\bdpkg\s+-i\b")
SUB_MAKE = re.compile(r"^make\b.*\s-j\s*\d*\s")


def dry_run(*targets: str) -> list[str]:
    """The commands `make` would run for ``targets`` if everything were out of date."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-B", *targets],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.splitlines()


def installs(command: str) -> bool:
    """Whether ``command`` installs packages, itself or through a script of the project's."""
    if INSTALLS.search(command):
        return True
    for word in command.split("#", 1)[0].split():
        script = ROOT / word
        if word.endswith(".sh") and script.is_file():
            body = "\n".join(line.split("#", 1)[0] for line in script.read_text().splitlines())
            if INSTALLS.search(body):
                return True
    return False


def parallel_steps(target: str) -> list[list[str]]:
    """The targets each `$(MAKE) -jN …` line of ``target``'s recipe runs at once."""
    steps = []
    for line in dry_run(target):
        if SUB_MAKE.match(line):
            words = line.split()[1:]
            steps.append([w for w in words if not w.startswith("-") and "=" not in w])
    return steps


@pytest.mark.parametrize("target", TARGETS)
def test_no_two_jobs_that_run_at_once_both_install_packages(target):
    for step in parallel_steps(target):
        installers = [job for job in step if any(installs(c) for c in dry_run(job))]
        assert len(installers) <= 1, f"make {target}: {installers} install packages at once"


@pytest.mark.parametrize("target", ["test", "check", "fuzz", "bench"])
def test_the_packages_are_installed_before_the_services_start(target):
    commands = dry_run(target)
    first_start = next(i for i, c in enumerate(commands) if "scripts/services.sh" in c)
    assert any(installs(c) for c in commands[:first_start]), f"make {target}"


def test_only_the_packages_script_installs_packages():
    scripts = [
        p for p in (ROOT / "scripts").glob("*.sh") if installs(f"bash {p.relative_to(ROOT)}")
    ]
    assert [p.name for p in scripts] == ["debian-packages.sh"]
    makefile = (ROOT / "Makefile").read_text()
    assert not INSTALLS.search(makefile)


def test_the_check_finds_two_installers_in_one_parallel_step():
    """The check itself: the shape `make test` once had is caught."""
    assert installs("bash scripts/debian-packages.sh services")
    assert not installs("bash scripts/services.sh 54329 63799")
    assert installs("apt-get -o DPkg::Lock::Timeout=1 install -y redis-server")
    assert SUB_MAKE.match("make --no-print-directory -j4 engine lint services browser-deps")
