"""The compiled engine (``make engine``) is the one the suite checks.

``make test`` builds the engine first (``engine/.compiled`` marks the build):
every engine module but the command line and the package files must then come
from a mypyc extension, so that what production runs is what the tests ran.
After ``make engine-clean`` the same tests check the pure-Python engine.
"""

import importlib
import os
import time
from pathlib import Path

import pytest

from tests.conftest import ENGINE, stale_engine_extensions

MODULES = sorted(
    ".".join(path.relative_to(ENGINE.parent).with_suffix("").parts)
    for path in ENGINE.rglob("*.py")
    if path.name not in {"__init__.py", "__main__.py"}
)


@pytest.mark.parametrize("name", MODULES)
def test_every_engine_module_runs_compiled_after_make_engine(name):
    compiled = (ENGINE / ".compiled").exists()
    module = importlib.import_module(name)
    assert Path(module.__file__).suffix == (".so" if compiled else ".py")


def test_sources_newer_than_the_build_are_reported(tmp_path, monkeypatch):
    engine = tmp_path / "engine"
    engine.mkdir()
    monkeypatch.setattr("tests.conftest.ENGINE", engine)
    source = engine / "cards.py"
    source.write_text("")
    assert stale_engine_extensions() == []  # nothing compiled: the sources run
    (engine / "cards.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    assert stale_engine_extensions() == ["engine/cards.py"]  # compiled, but no build stamp
    stamp = engine / ".compiled"
    stamp.write_text("")
    later = time.time() + 10
    os.utime(source, (later, later))
    assert stale_engine_extensions() == ["engine/cards.py"]  # edited after the build
    os.utime(stamp, (later + 1, later + 1))
    assert stale_engine_extensions() == []
