"""The documents build into a site (mkdocs.yml: MkDocs with its i18n plugin) with no broken
link, no missing anchor and no page left out of the navigation, in English and Japanese;
and the README's links lead to files that exist."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        cwd=config.parent,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_documents_build_with_every_link_whole_in_both_languages(tmp_path):
    done = build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr[-3000:]
    scorer = (tmp_path / "site" / "ja" / "guides" / "scorer" / "index.html").read_text("utf-8")
    assert "記録係の手引き" in scorer
    english = (tmp_path / "site" / "guides" / "scorer" / "index.html").read_text("utf-8")
    assert "The scorer's guide" in english and "記録係" not in english
    # a page with no Japanese version is the English one in the Japanese site
    assert "Entering a deal through the API" in (
        tmp_path / "site" / "ja" / "api" / "index.html"
    ).read_text("utf-8")


def test_a_broken_link_fails_the_build(tmp_path):
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    page = tmp_path / "docs" / "guides" / "player.ja.md"
    page.write_text(page.read_text("utf-8") + "\n[幹事](secretary.md#no-such-part)\n", "utf-8")
    done = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0 and "no-such-part" in done.stderr


def test_the_readme_links_to_files_that_exist():
    readme = (ROOT / "README.md").read_text("utf-8")
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    local = [t for t in targets if "://" not in t]
    assert local, "the README links to the documents"
    assert [t for t in local if not (ROOT / t).exists()] == []
