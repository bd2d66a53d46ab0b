"""Every index state heals or names its cure: each file under .index/ is overwritten with
random bytes, cut in half, given the wrong JSON type or deleted. Each time the next
command either rebuilds (and says so) or exits 2 naming ``papers index --rebuild``;
``doctor`` reports what is left; ``papers index --rebuild`` always works."""

from __future__ import annotations

import random
import shutil

import pytest

from testing import invoke

MODES = ("random bytes", "cut in half", "deleted", "wrong JSON type")


def damage(path, mode: str, rng: random.Random) -> bool:
    """Damage *path*; False when the mode does not apply to it."""
    if mode == "random bytes":
        path.write_bytes(rng.randbytes(max(64, path.stat().st_size)))
    elif mode == "cut in half":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif mode == "deleted":
        path.unlink()
    elif path.suffix == ".json":
        path.write_text(rng.choice(["[]", "null", '"x"', "42", "{}"]))
    else:
        return False
    return True


@pytest.fixture(scope="module")
def indexed(seeded_template):
    """The files of a healthy index, and what a search shows."""
    files = sorted(p.name for p in (seeded_template / ".index").iterdir() if p.is_file())
    shown = invoke("--library", str(seeded_template), "search", "muon").stdout
    return files, shown


def test_each_index_file_damaged_each_way(indexed, seeded_template, tmp_path):
    files, shown = indexed
    rng = random.Random(7)
    tried = 0
    for name in files:
        for mode in MODES:
            library = tmp_path / f"{name}-{mode}".replace(" ", "-")
            shutil.copytree(seeded_template, library)
            if not damage(library / ".index" / name, mode, rng):
                continue
            tried += 1
            case = f"{name}, {mode}"
            search = invoke("--library", str(library), "search", "muon")
            if search.exit_code == 0:  # healed on the way (rebuilt, or not needed)
                assert search.stdout == shown, case
                doctor = invoke("--library", str(library), "doctor")
                assert doctor.exit_code == 0, f"{case}: {doctor.stdout}"
            else:  # names the cure; doctor sees it
                assert search.exit_code == 2, f"{case}: {search.stderr}"
                assert "papers index --rebuild" in search.stderr, case
                doctor = invoke("--library", str(library), "doctor")
                assert doctor.exit_code == 4 and "index: .index:" in doctor.stdout, case
            rebuild = invoke("--library", str(library), "index", "--rebuild")
            assert rebuild.exit_code == 0, f"{case}: {rebuild.stderr}"
            assert invoke("--library", str(library), "search", "muon").stdout == shown, case
            assert invoke("--library", str(library), "doctor").exit_code == 0, case
    assert tried >= 3 * len(files)


def test_a_rebuilt_index_says_so(seeded_template, tmp_path):
    library = tmp_path / "lib"
    shutil.copytree(seeded_template, library)
    (library / ".index" / "state.json").write_text("[]")
    result = invoke("--library", str(library), "list", "--ids")
    assert result.exit_code == 0 and len(result.stdout.split()) == 63
    assert result.stderr == (
        "papers: the index had a damaged state file (state.json): rebuilt it (63 papers)\n"
    )


def test_a_library_without_an_index_is_told_it_was_built_not_that_it_was_damaged(bundled_copy):
    """A library cloned from git, or copied without its index (``make run`` on a fresh
    clone): the index is built, and the line says so, not that something was unreadable."""
    result = invoke("--library", str(bundled_copy), "list", "--ids")
    assert result.exit_code == 0 and len(result.stdout.split()) == 63
    assert result.stderr == "papers: the library had no index: built it (63 papers)\n"
    again = invoke("--library", str(bundled_copy), "list", "--ids")
    assert (again.exit_code, again.stderr) == (0, "")
