"""papers doctor finds every kind of problem; --fix repairs only what is safe; papers edit
saves only records that validate."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from papercli.cli.app import app
from papercli.errors import UsageError
from papercli.search.index.paper_index import PaperIndex
from papercli.store.doctor import check, fix
from papercli.store.editing import edit_record


def kinds(problems):
    return sorted((p.kind, p.where) for p in problems)


def test_a_healthy_library(seeded_library):
    PaperIndex(seeded_library).open()
    assert check(seeded_library) == []
    result = CliRunner().invoke(app, ["--library", str(seeded_library.root), "doctor"])
    assert (result.exit_code, result.stdout) == (0, f"{seeded_library.root}: no problems found\n")


def test_every_problem_is_found_and_the_safe_ones_fixed(seeded_library):
    lib = seeded_library
    PaperIndex(lib).open()
    (lib.papers_dir / ".iclr2026-qzo.yaml.x1.tmp").write_text("half a record")
    lib.record_path("iclr2026-qzo").write_text("id: iclr2026-qzo\nyear: soon\n")
    dup = (
        lib.record_path("iclr2026-rrnco")
        .read_text()
        .replace("id: iclr2026-rrnco", "id: iclr2026-vip")
    )
    lib.record_path("iclr2026-rrnco").write_text(dup)
    key = (
        lib.record_path("iclr2026-gmpo")
        .read_text()
        .replace("citekey: gmpo2026", "citekey: vip2026")
    )
    lib.record_path("iclr2026-gmpo").write_text(key)
    (
        lib.sources_dir / next(p.name for p in lib.sources_dir.iterdir() if "abstracts" in p.name)
    ).unlink()
    problems = check(lib)
    assert ("temporary file", "papers/.iclr2026-qzo.yaml.x1.tmp") in kinds(problems)
    assert ("invalid record", "papers/iclr2026-qzo.yaml") in kinds(problems)
    assert ("invalid record", "papers/iclr2026-rrnco.yaml") in kinds(problems)  # id ≠ file name
    assert ("duplicate citation key", "papers/iclr2026-vip.yaml") in kinds(problems)
    # 19 abstracts lose their copy; two of those records (QZO, RRNCO) are invalid now
    assert sum(p.kind == "missing source copy" for p in problems) == 17
    assert any(p.kind == "index" for p in problems)
    by_where = {p.where: p for p in problems}
    assert str(by_where["papers/iclr2026-qzo.yaml"]) == (
        "invalid record: papers/iclr2026-qzo.yaml: line 2: year must be a whole number, not 'soon'"
    )
    done = fix(lib, problems)
    assert "removed papers/.iclr2026-qzo.yaml.x1.tmp" in done
    assert any(d.startswith("rebuilt the index") for d in done)
    left = check(lib)
    assert all(not p.fixable for p in left)
    assert (
        lib.record_path("iclr2026-qzo").read_text() == "id: iclr2026-qzo\nyear: soon\n"
    )  # not touched
    result = CliRunner().invoke(app, ["--library", str(lib.root), "doctor"])
    assert result.exit_code == 4  # (problems remain: fsck's code)


def fake_editor(replacement):
    def run(path):
        path.write_text(replacement(path.read_text("utf-8")), encoding="utf-8")
        return 0

    return run


def test_edit_saves_a_valid_record_as_written(seeded_library):
    index = PaperIndex(seeded_library).open()
    outcome = edit_record(
        seeded_library,
        "iclr2026-qzo",
        fake_editor(lambda t: t.replace("short_name: QZO", "short_name: QZO  # mine")),
    )
    assert outcome == "saved"
    assert "short_name: QZO  # mine" in seeded_library.record_path("iclr2026-qzo").read_text()
    assert index.get("iclr2026-qzo").data["short_name"] == "QZO"  # comments are YAML's
    assert edit_record(seeded_library, "iclr2026-qzo", fake_editor(lambda t: t)) == "unchanged"


def test_edit_refuses_an_invalid_record_and_keeps_the_attempt(seeded_library):
    before = seeded_library.record_path("iclr2026-qzo").read_text()
    with pytest.raises(UsageError) as err:
        edit_record(
            seeded_library,
            "iclr2026-qzo",
            fake_editor(lambda t: t.replace("year: 2026", "year: [")),
        )
    assert seeded_library.record_path("iclr2026-qzo").read_text() == before
    message = str(err.value)
    assert message.startswith("iclr2026-qzo.yaml line 8: did not find expected ',' or ']'")
    assert "; not saved (your edit is in " in message
    kept = Path(message.rsplit("your edit is in ", 1)[1].rstrip(")"))
    assert "year: [" in kept.read_text(encoding="utf-8")
    kept.unlink()


def test_edit_may_try_again(seeded_library):
    attempts = iter(
        [
            lambda t: t.replace("venue: ICLR", "venue: [1"),
            lambda t: t.replace("venue: [1", "venue: ICLR "),
        ]
    )

    def editor(path):
        return fake_editor(next(attempts))(path)

    asked = []
    assert (
        edit_record(seeded_library, "iclr2026-qzo", editor, again=lambda m: asked.append(m) or True)
        == "saved"
    )
    assert len(asked) == 1


def test_edit_does_not_overwrite_a_concurrent_change(seeded_library):
    path = seeded_library.record_path("iclr2026-qzo")

    def editor(scratch):
        path.write_text(path.read_text().replace("year: 2026", "year: 2025"))  # someone else
        scratch.write_text(scratch.read_text().replace("QZO", "QZO2"))
        return 0

    with pytest.raises(UsageError, match="changed on disk while you were editing"):
        edit_record(seeded_library, "iclr2026-qzo", editor)
    assert "year: 2025" in path.read_text()


def test_edit_command_with_a_real_editor_process(seeded_library, monkeypatch):
    monkeypatch.setenv("EDITOR", "sed -i s/short_name:\\ QZO/short_name:\\ QZO-v2/")
    result = CliRunner().invoke(
        app, ["--library", str(seeded_library.root), "edit", "iclr2026-qzo"]
    )
    assert (result.exit_code, result.stdout) == (0, "iclr2026-qzo: saved\n")
    assert "short_name: QZO-v2" in seeded_library.record_path("iclr2026-qzo").read_text()


def test_edit_command_says_an_invalid_edit_once_when_it_cannot_ask(seeded_library, monkeypatch):
    """With no terminal to ask "Edit again?" on, the problem is said once, in the error."""
    monkeypatch.setenv("EDITOR", "sed -i s/^year:\\ 2026/year:\\ twenty/")
    before = seeded_library.record_path("iclr2026-qzo").read_text()
    result = CliRunner().invoke(
        app, ["--library", str(seeded_library.root), "edit", "iclr2026-qzo"]
    )
    lines = result.stderr.splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.stderr
    assert lines[0].startswith(
        "papers: iclr2026-qzo.yaml.year must be a whole number, not 'twenty'; not saved "
        "(your edit is in "
    )
    assert seeded_library.record_path("iclr2026-qzo").read_text() == before
    Path(lines[0].rsplit("your edit is in ", 1)[1].rstrip(")")).unlink()


@pytest.fixture
def scratch_dir(tmp_path, monkeypatch):
    """Where ``edit`` makes its temporary copy (to see what it leaves behind)."""
    folder = tmp_path / "scratch"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_an_editor_that_cannot_run_is_named_and_no_copy_is_left(
    seeded_library, monkeypatch, scratch_dir
):
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "papers-no-such-editor --wait")
    before = seeded_library.record_path("iclr2026-qzo").read_text()
    result = CliRunner().invoke(
        app, ["--library", str(seeded_library.root), "edit", "iclr2026-qzo"]
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "papers: cannot run the editor 'papers-no-such-editor --wait' (No such file or "
        "directory): set $VISUAL or $EDITOR; iclr2026-qzo.yaml is unchanged\n"
    )
    assert seeded_library.record_path("iclr2026-qzo").read_text() == before
    assert list(scratch_dir.iterdir()) == []


def _removes(path):
    path.unlink()
    return 0


def _changes_then_fails(path):
    path.write_text(path.read_text().replace("QZO", "QZO-v2"))
    return 1


@pytest.mark.parametrize(
    ("editor", "message", "kept"),
    [
        (
            _removes,
            "the editor removed the copy it was editing; iclr2026-qzo.yaml is unchanged",
            False,
        ),
        (lambda path: 1, "the editor exited with status 1; iclr2026-qzo.yaml is unchanged", False),
        (
            _changes_then_fails,
            "the editor exited with status 1; iclr2026-qzo.yaml is unchanged; your edit is in ",
            True,
        ),
    ],
    ids=["removes-its-file", "fails", "changes-then-fails"],
)
def test_a_failed_edit_keeps_the_copy_only_when_it_holds_an_edit_and_says_where(
    seeded_library, scratch_dir, editor, message, kept
):
    before = seeded_library.record_path("iclr2026-qzo").read_text()
    with pytest.raises(UsageError) as err:
        edit_record(seeded_library, "iclr2026-qzo", editor)
    left = list(scratch_dir.iterdir())
    assert str(err.value) == message + (str(left[0]) if kept else "")
    assert len(left) == kept
    if kept:
        assert "QZO-v2" in left[0].read_text()
    assert seeded_library.record_path("iclr2026-qzo").read_text() == before


def test_an_edit_saved_or_unchanged_leaves_no_copy(seeded_library, scratch_dir):
    assert edit_record(seeded_library, "iclr2026-qzo", lambda path: 0) == "unchanged"
    edit = fake_editor(lambda t: t.replace("short_name: QZO", "short_name: QZO-v2"))
    assert edit_record(seeded_library, "iclr2026-qzo", edit) == "saved"
    assert list(scratch_dir.iterdir()) == []


def dead_pid() -> int:
    import subprocess

    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_document_copies_no_record_cites_are_listed_and_removed(seeded_library):
    lib = seeded_library
    PaperIndex(lib).open()
    left = lib.pending_dir(dead_pid())  # an ingest killed before its transaction committed
    left.mkdir(parents=True)
    (left / "notes-0123456789ab.txt").write_text("ICLR 2026 论文列表\n\nAn abstract.\n")
    (lib.sources_dir / "old-ba9876543210.txt").write_text("no record cites this copy")
    waiting = lib.pending_dir(os.getpid())  # a live ingest waiting for the lock: not an orphan
    waiting.mkdir()
    (waiting / "mine-000000000000.txt").write_text("pending")
    problems = check(lib)
    assert [str(p) for p in problems] == [
        f"orphaned source copies: sources/.pending/{left.name}: 1 document copy left by an "
        "interrupted ingest (--fix repairs it)",
        "orphaned source copy: sources/old-ba9876543210.txt: no record cites this document "
        "copy (--fix repairs it)",
    ]
    assert fix(lib, problems) == [
        f"removed sources/.pending/{left.name}",
        "removed sources/old-ba9876543210.txt",
    ]
    assert check(lib) == [] and (waiting / "mine-000000000000.txt").exists()


def test_the_next_command_removes_what_a_killed_ingest_left_pending(seeded_library):
    lib = seeded_library
    left = lib.pending_dir(dead_pid())
    left.mkdir(parents=True)
    (left / "notes-0123456789ab.txt").write_text("pending")
    result = CliRunner().invoke(app, ["--library", str(lib.root), "list", "--ids"])
    assert result.exit_code == 0
    assert result.stderr == "papers: removed 1 document copy left by an interrupted ingest\n"
    assert not (lib.root / "sources" / ".pending").exists()


def test_a_directory_named_lock_is_named_by_writers_and_doctor(seeded_library):
    lib = seeded_library
    PaperIndex(lib).open()
    lib.lock_file.unlink(missing_ok=True)
    lib.lock_file.mkdir()
    tag = ["--library", str(lib.root), "tag", "iclr2026-muonbp", "--add", "later"]
    result = CliRunner().invoke(app, tag)
    assert (result.exit_code, result.stderr) == (
        2,
        (
            f"papers: {lib.lock_file} is a directory, not the library's lock file: no command can "
            "write the library until it is removed (papers doctor --fix removes it when empty)\n"
        ),
    )
    assert [str(p) for p in check(lib)] == [
        "lock file: .lock: a directory where the lock file belongs: no command can write the "
        "library (--fix repairs it)"
    ]
    (lib.lock_file / "notes.txt").write_text("someone's")  # not empty: left to its owner
    (problem,) = check(lib)
    assert not problem.fixable and problem.message.endswith(
        "(not empty: look inside, then remove it)"
    )
    (lib.lock_file / "notes.txt").unlink()
    result = CliRunner().invoke(app, ["--library", str(lib.root), "doctor", "--fix"])
    assert (result.exit_code, result.stdout) == (
        1,
        f"fixed: removed the directory .lock\n{lib.root}: repaired; no problems left\n",
    )
    assert CliRunner().invoke(app, tag).exit_code == 0


def _doctor(lib, *args: str):
    return CliRunner().invoke(app, ["--library", str(lib.root), "doctor", *args])


def test_a_damaged_segment_is_repaired_and_said(seeded_library):
    """doctor rebuilt an index whose terms file held random bytes, said "no problems
    found" and exited 0."""
    lib = seeded_library
    PaperIndex(lib).open()
    terms = next(lib.index_dir.glob("MAIN_*.trm"))
    terms.write_bytes(os.urandom(terms.stat().st_size))
    result = _doctor(lib)
    assert (result.exit_code, result.stdout) == (
        1,
        (
            f"repaired: the index had a damaged file ({terms.name} changed since papers wrote "
            f"it): rebuilt it (63 papers)\n{lib.root}: repaired; no problems left\n"
        ),
    )
    assert (_doctor(lib).exit_code, _doctor(lib).stdout) == (0, f"{lib.root}: no problems found\n")


def test_a_damaged_state_file_is_repaired_and_said(seeded_library):
    lib = seeded_library
    PaperIndex(lib).open()
    (lib.index_dir / "state.json").write_text('{"version": 3', "utf-8")
    result = _doctor(lib)
    assert (result.exit_code, result.stdout) == (
        1,
        (
            "repaired: the index had a damaged state file (state.json): rebuilt it (63 papers)\n"
            f"{lib.root}: repaired; no problems left\n"
        ),
    )


def test_what_a_killed_writer_left_in_the_index_is_found_and_removed(seeded_library):
    lib = seeded_library
    PaperIndex(lib).open()
    folder = lib.index_dir / "MAIN.4242.0badf00d.tmp"
    folder.mkdir()
    (folder / "0badf00d.1.postings").write_bytes(b"half a run")
    (lib.index_dir / "MAIN_deadsegment0001.pst").write_bytes(b"half a segment")
    result = _doctor(lib)
    message = "left by a write that was killed or failed (--fix repairs it)"
    assert (result.exit_code, result.stdout) == (
        4,
        (
            f"index leftover: .index/MAIN.4242.0badf00d.tmp: {message}\n"
            f"index leftover: .index/MAIN_deadsegment0001.pst: {message}\n"
        ),
    )
    result = _doctor(lib, "--fix")
    assert (result.exit_code, result.stdout) == (
        1,
        (
            "fixed: removed .index/MAIN.4242.0badf00d.tmp\n"
            "fixed: removed .index/MAIN_deadsegment0001.pst\n"
            f"{lib.root}: repaired; no problems left\n"
        ),
    )
    assert not folder.exists()
    assert _doctor(lib).exit_code == 0


def test_an_index_write_that_did_not_finish_is_named_by_the_next_command(seeded_library):
    """After a failed ingest the next search said the index "was made with another
    glossary or taxonomy", and rebuilt it."""
    from testing import invoke

    lib = seeded_library
    PaperIndex(lib).open()
    record = lib.record_path("iclr2026-muonbp")
    record.write_text(record.read_text("utf-8").replace("tags:\n", "tags:\n- later\n", 1))
    os.rename(record, record.with_suffix(".tmp"))  # (a rename: the folder's stamp changes)
    os.rename(record.with_suffix(".tmp"), record)
    (lib.index_dir / "writing.json").write_text('{"pid": 1, "since": 0}')  # (killed)
    result = invoke("--library", str(lib.root), "list", "--tag", "later", "--ids")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "iclr2026-muonbp\n",
        (
            "papers: the last write to the index did not finish: brought it up to date (0 added, "
            "1 updated, 0 removed)\n"
        ),
    )
    assert not (lib.index_dir / "writing.json").exists()
    (lib.index_dir / "writing.json").write_text('{"pid": 1, "since": 0}')
    (lib.index_dir / "state.json").unlink()
    result = invoke("--library", str(lib.root), "list", "--ids")
    assert result.stderr == (
        "papers: the index was left unfinished by a command that was killed or failed: "
        "rebuilt it (63 papers)\n"
    )


def test_an_index_of_another_schema_says_which(seeded_library):
    from papercli.search.index import state
    from papercli.search.index.schema import SCHEMA_VERSION
    from testing import invoke

    lib = seeded_library
    PaperIndex(lib).open()
    saved = state.read(lib.index_dir, "state.json")
    state.write(lib.index_dir, "state.json", {**saved, "version": SCHEMA_VERSION - 1})
    result = invoke("--library", str(lib.root), "list", "--ids")
    assert result.stderr == (
        f"papers: the index was made for index schema {SCHEMA_VERSION - 1} (this papers uses "
        f"{SCHEMA_VERSION}): rebuilt it (63 papers)\n"
    )
