"""User tags survive re-ingest and retagging; removed automatic tags stay removed."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from papercli.cli.app import app
from papercli.errors import UsageError
from papercli.ingest import ingest
from papercli.store.record import Record
from papercli.tags.tagging import apply_tags, edit, edit_tags, normalise_tag, retag
from papercli.tags.taxonomy import load_taxonomy, user_taxonomy_path
from testing import SEEDS


def test_edit_rules():
    record = Record(id="x", tags=["llm", "muon"])
    assert edit(record, add=["reading-list"], remove=["llm"])
    assert record.tags == ["muon", "reading-list"]
    assert record.tag_edits == {"added": ["reading-list"], "removed": ["llm"]}
    assert edit(record, remove=["reading-list"])  # a user tag simply goes away
    assert record.tag_edits == {"removed": ["llm"]}
    assert edit(record, add=["llm"])  # adding back a removed auto tag undoes the removal
    assert record.tags == ["llm", "muon"] and record.tag_edits == {"added": ["llm"]}
    assert not edit(record, remove=["not-there"])


def test_apply_tags_respects_edits():
    record = Record(id="x", tag_edits={"added": ["mine"], "removed": ["llm"]})
    assert apply_tags(record, {"llm", "muon"})
    assert record.tags == ["mine", "muon"]
    assert not apply_tags(record, {"llm", "muon"})


def test_normalise_tag():
    taxonomy = load_taxonomy()
    assert normalise_tag("联邦学习", taxonomy) == "federated-learning"
    assert normalise_tag("Federated Learning", taxonomy) == "federated-learning"
    assert normalise_tag("Reading List", taxonomy) == "reading-list"
    with pytest.raises(UsageError, match="is not a tag"):
        normalise_tag("../etc", taxonomy)


def test_user_tags_survive_reingest_and_retag(seeded_library, tmp_path):
    [(record, changed, _absent)] = edit_tags(
        seeded_library, ["iclr2026-muonbp"], add=["reading-list"], remove=["llm"]
    )
    assert changed and "llm" not in record.tags and "reading-list" in record.tags

    # the same documents again, and a page that repeats MuonBP's abstract: merged, edits kept
    page2 = tmp_path / "page2.txt"
    abstract = seeded_library.load("iclr2026-muonbp").abstract
    page2.write_text(f"ICLR 2026 论文列表\n\n{abstract}\n", encoding="utf-8")
    ingest(seeded_library, [*SEEDS, page2])
    again = seeded_library.load("iclr2026-muonbp")
    assert "reading-list" in again.tags and "llm" not in again.tags
    assert len(again.sources) == 2

    # a user taxonomy that no longer knows muon, but knows llm: retag keeps the user's say
    path = user_taxonomy_path()
    os.makedirs(path.parent, exist_ok=True)
    path.write_text(
        "version: 1\ntags:\n  llm:\n    en: [language model]\n    zh: [语言模型]\n"
        "  optimizer:\n    en: [optimizer]\n    zh: [优化器]\n",
        encoding="utf-8",
    )
    report = retag(seeded_library, load_taxonomy())
    assert report.papers == 63 and report.skipped == []
    final = seeded_library.load("iclr2026-muonbp")
    assert final.tags == ["optimizer", "reading-list"]  # muon gone, llm still removed
    assert final.tag_edits == {"added": ["reading-list"], "removed": ["llm"]}


def test_tag_command(seeded_library):
    runner = CliRunner()
    lib = ["--library", str(seeded_library.root)]
    result = runner.invoke(app, [*lib, "tag", "iclr2026-qzo", "--add", "量化", "--add", "mine"])
    assert result.exit_code == 0
    assert result.stdout.startswith("iclr2026-qzo: ") and "mine" in result.stdout
    listed = runner.invoke(app, [*lib, "list", "--tag", "mine"])
    assert [line.split("\t")[0] for line in listed.stdout.splitlines()] == ["iclr2026-qzo"]
    bad = runner.invoke(app, [*lib, "tag", "iclr2026-qzo", "iclr2026-nope", "--add", "x"])
    assert (bad.exit_code, bad.stderr) == (
        2,
        "papers: no paper with id, short name, citation key, link or title 'iclr2026-nope'\n",
    )
    assert "x" not in seeded_library.load("iclr2026-qzo").tags  # all or nothing
    none = runner.invoke(app, [*lib, "tag", "iclr2026-qzo"])
    assert none.stderr == "papers: say what to do: --add TAG and/or --remove TAG\n"
    plus = runner.invoke(app, [*lib, "tag", "iclr2026-qzo", "+reading-list"])
    assert (plus.exit_code, plus.stderr) == (
        2,
        "papers: '+reading-list' is not a paper id: add the tag with --add reading-list\n",
    )


def test_tags_command_shows_aliases(seeded_library):
    result = CliRunner().invoke(app, ["--library", str(seeded_library.root), "tags", "--aliases"])
    rows = {line.split("\t")[0]: line.split("\t") for line in result.stdout.splitlines()}
    assert "联邦学习" in rows["federated-learning"][2]
    assert rows["federated-learning"][1] == "5"
