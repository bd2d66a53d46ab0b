"""A library one cannot write (a read-only mount, another user's shared folder, a cp -a
copy) is still searched: on its own index while that is up to date, else on an index of
its records kept in the user's cache folder, with one warning."""

from __future__ import annotations

import subprocess

import pytest

from testing import invoke, papers


@pytest.fixture
def read_only(seeded_library, tmp_path):
    """*seeded_library*, seen through a read-only bind mount (root only; skipped with the
    reason otherwise). Yields (the writable original, the read-only view)."""
    invoke("--library", str(seeded_library.root), "list")  # its index up to date
    view = tmp_path / "read-only"
    view.mkdir()
    for step in (
        ["mount", "--bind", str(seeded_library.root), str(view)],
        ["mount", "-o", "remount,ro,bind", str(view)],
    ):
        result = subprocess.run(step, capture_output=True, text=True)
        if result.returncode != 0:
            subprocess.run(["umount", str(view)], capture_output=True)
            pytest.skip(f"cannot make a read-only mount here: {result.stderr.strip()}")
    yield seeded_library.root, view
    subprocess.run(["umount", "-l", str(view)], capture_output=True)


def test_an_up_to_date_index_is_searched_as_it_is(read_only):
    _original, view = read_only
    result = invoke("--library", str(view), "search", "muon", "--ids")
    assert result.exit_code == 0 and len(result.stdout.split()) == 4
    assert result.stderr == ""


def test_a_stale_index_is_replaced_by_one_in_the_cache(read_only):
    original, view = read_only
    path = original / "papers" / "iclr2026-rrnco.yaml"  # replaced behind the read-only view,
    changed = path.with_name("new.tmp")  # as an editor or git would
    changed.write_text(path.read_text("utf-8").replace("short_name: RRNCO", "short_name: Zanzibar"))
    changed.replace(path)
    for _attempt in range(2):  # the second time the cached index is reused
        result = invoke("--library", str(view), "search", "zanzibar", "--ids")
        assert (result.exit_code, result.stdout) == (0, "iclr2026-rrnco\n")
        assert len(result.stderr.splitlines()) == 1
        assert result.stderr.startswith(f"papers: warning: the library at {view} is read-only")
    assert not (view / ".lock").exists() or (original / ".lock").exists()


def test_writing_to_a_read_only_library_is_one_line(read_only):
    _original, view = read_only
    result = papers("--library", str(view), "tag", "iclr2026-qzo", "--add", "x", check=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1 and "Read-only file system" in result.stderr
