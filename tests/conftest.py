"""Shared fixtures: the real seed documents, temporary libraries, an isolated environment."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from papercli.store.library import Library

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
DIGEST = DATA / "iclr2026-optimization-theory-digest.txt"
ABSTRACTS = DATA / "iclr2026-abstracts.txt"
SEEDS = [DIGEST, ABSTRACTS]  # the order the bundled library was ingested in
BUNDLED = DATA / "library"


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory, monkeypatch):
    """No test reads or writes the real user's config or data folders."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.delenv("PAPERS_LIBRARY", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")


@pytest.fixture(scope="session")
def digest():
    """The bundled digest page, parsed."""
    from papercli.parsers import parse_file

    return parse_file(DIGEST)[0]


@pytest.fixture(scope="session")
def abstracts():
    """The bundled abstract list, parsed."""
    from papercli.parsers import parse_file

    return parse_file(ABSTRACTS)[0]


@pytest.fixture
def tmp_library(tmp_path) -> Library:
    """An empty library in a temporary folder."""
    return Library(tmp_path / "library")


@pytest.fixture(scope="session")
def _seeded_template(tmp_path_factory) -> Path:
    """The seeds ingested once per session; tests get their own copy."""
    from papercli.ingest import ingest

    root = tmp_path_factory.mktemp("seeded") / "library"
    ingest(Library(root), SEEDS)
    return root


@pytest.fixture
def seeded_library(_seeded_template, tmp_path) -> Library:
    """A library holding the two seed documents (63 papers), index included."""
    root = tmp_path / "seeded"
    shutil.copytree(_seeded_template, root)
    return Library(root)
