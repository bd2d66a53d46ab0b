"""Whoosh's internals are reached into from ``papercli.engine`` only, and only on the
release it was written against."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import papercli
from papercli.engine import EngineVersionError, check_version

SRC = Path(papercli.__file__).parent
# Whoosh's public modules, which the rest of papers may use.
PUBLIC = {
    "whoosh",
    "whoosh.query",
    "whoosh.qparser",
    "whoosh.fields",
    "whoosh.analysis",
    "whoosh.lang.porter2",
    "whoosh.reading",  # (TermNotFound)
    "whoosh.writing",  # (CLEAR)
    "whoosh.automata.fsa",
    "whoosh.automata.lev",
}


def _whoosh_uses(path: Path) -> list[str]:
    """What *path* takes from Whoosh that is not public: a private module or name, and
    a private attribute of anything (``searcher._find_unique``) or a swapped class."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("whoosh"):
            module = node.module
            names = [module] if module not in PUBLIC else []
            names += [f"{module}.{a.name}" for a in node.names if a.name.startswith("_")]
            found += names
        elif isinstance(node, ast.Import):
            found += [
                a.name for a in node.names if a.name.startswith("whoosh") and a.name not in PUBLIC
            ]
        elif (
            isinstance(node, ast.Attribute)
            and node.attr == "__class__"
            and isinstance(node.ctx, ast.Store)
        ):
            found.append(f"line {node.lineno}: a class swapped")
    return found


def test_only_the_engine_uses_whooshs_internals():
    outside = {
        str(path.relative_to(SRC)): uses
        for path in sorted(SRC.rglob("*.py"))
        if path.parent.name != "engine" and (uses := _whoosh_uses(path))
    }
    assert outside == {}


def test_the_engine_checks_the_whoosh_release(monkeypatch):
    import whoosh

    check_version()
    monkeypatch.setattr(whoosh, "__version__", (2, 7, 4))
    with pytest.raises(EngineVersionError, match=r"needs whoosh-reloaded 2\.7\.5, found 2\.7\.4"):
        check_version()
