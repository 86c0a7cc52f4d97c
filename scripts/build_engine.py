"""Compile the rules engine with mypyc: ``make engine`` runs this.

The engine is plain typed Python; mypyc turns each module into a C extension
that Python imports in place of the ``.py`` file (about twice as fast, see
``bench/engine_bench.py``).  The extensions land next to the sources
(``engine/**/*.so``, ignored by git); ``make engine-clean`` removes them and the
pure-Python engine is used again.  ``tests/conftest.py`` refuses to run against
extensions older than their sources.

``engine/__main__.py`` (the command line) and the packages' ``__init__.py``
files stay interpreted: the shared library lives inside the ``engine`` package,
so the package itself must import before any compiled module.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mypyc.build import mypycify
from setuptools import setup

ROOT = Path(__file__).resolve().parents[1]
INTERPRETED = {"__main__.py", "__init__.py"}


def sources() -> list[str]:
    files = sorted(ROOT.glob("engine/*.py")) + sorted(ROOT.glob("engine/games/*.py"))
    return [str(f.relative_to(ROOT)) for f in files if f.name not in INTERPRETED]


def main() -> None:
    build = ROOT / "build" / "mypyc"
    setup(
        name="clubscore-engine",
        packages=[],
        # One shared library for the whole engine, kept inside the package.
        # No config file: pyproject's mypy settings load the Django plugin, which the
        # engine (no Django) neither needs nor may import.
        ext_modules=mypycify(
            # Its own cache: `make test` type-checks the project (`make lint`) meanwhile.
            ["--config-file=", f"--cache-dir={build / 'cache'}", *sources()],
            group_name="engine.native",
            target_dir=str(build / "c"),
        ),
        script_args=["build_ext", "--inplace", "--build-temp", str(build / "temp"), "--quiet"],
    )


if __name__ == "__main__":
    import os

    os.chdir(ROOT)
    sys.exit(main())
