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

The shared library is written as one C file per module (mypyc's ``multi_file``),
compiled by one gcc per core at once: setuptools compiles an extension's files one
after another, so :func:`compile_in_parallel` hands them to a pool instead, as gRPC's
and Pillow's builds do.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import MethodType
from typing import Any

from mypyc.build import mypycify
from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parents[1]
INTERPRETED = {"__main__.py", "__init__.py"}


def sources() -> list[str]:
    files = sorted(ROOT.glob("engine/*.py")) + sorted(ROOT.glob("engine/games/*.py"))
    return [str(f.relative_to(ROOT)) for f in files if f.name not in INTERPRETED]


def compile_in_parallel(
    self: Any,
    sources: list[str],
    output_dir: str | None = None,
    macros: list | None = None,
    include_dirs: list[str] | None = None,
    debug: bool = False,
    extra_preargs: list[str] | None = None,
    extra_postargs: list[str] | None = None,
    depends: list[str] | None = None,
) -> list[str]:
    """``CCompiler.compile`` with each source file compiled in a thread of a pool (gcc
    runs in a process of its own): the same objects, one file per core at a time."""
    macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
        output_dir, macros, include_dirs, sources, depends, extra_postargs
    )
    cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

    def one(obj: str) -> None:
        if obj in build:
            src, ext = build[obj]
            self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        list(pool.map(one, objects))  # list(): an error in any file is raised here
    return objects


class ParallelBuildExt(build_ext):
    """``build_ext`` whose compiler compiles an extension's files in parallel."""

    def build_extensions(self) -> None:
        self.compiler.compile = MethodType(compile_in_parallel, self.compiler)
        super().build_extensions()


def main() -> None:
    build = ROOT / "build" / "mypyc"
    extensions = mypycify(
        # Its own cache: `make test` type-checks the project (`make lint`) meanwhile.
        # No config file: pyproject's mypy settings load the Django plugin, which the
        # engine (no Django) neither needs nor may import.
        ["--config-file=", f"--cache-dir={build / 'cache'}", *sources()],
        # One shared library for the whole engine, kept inside the package.
        group_name="engine.native",
        target_dir=str(build / "c"),
        multi_file=True,
    )
    for extension in extensions:  # the group's headers are written in a folder of its own
        extension.include_dirs.append(str(build / "c" / "engine"))
    setup(
        name="clubscore-engine",
        packages=[],
        ext_modules=extensions,
        cmdclass={"build_ext": ParallelBuildExt},
        script_args=["build_ext", "--inplace", "--build-temp", str(build / "temp"), "--quiet"],
    )


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
