"""Every index state heals or names its cure: each file under .index/ is overwritten with
random bytes, cut in half, given the wrong JSON type or deleted. Each time the next
command either rebuilds (and says so) or exits 2 naming ``papers index --rebuild``, which
then works, and ``doctor`` reports what is left."""

from __future__ import annotations

import random
import shutil
from fnmatch import fnmatch

import pytest

from testing import SOAK, invoke

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


# Every file of an index, a segment's by its kind ("*": the segment's id): a case each,
# so that the cases run side by side.
FILES = [
    "MAIN_*.trm",
    "MAIN_*.pst",
    "MAIN_*._stored.col",
    "MAIN_*._abstract_len.col",
    "MAIN_*._concept_len.col",
    "MAIN_*._name_len.col",
    "MAIN_*._parts_len.col",
    "MAIN_*._summary_len.col",
    "MAIN_*._tag_len.col",
    "MAIN_*._title_len.col",
    "MAIN_*.sortkey.col",
    "MAIN_WRITELOCK",
    "_MAIN_*.toc",
    "concepts.json",
    "glossary.lines",
    "stamps.json",
    "state.json",
    "words.json",
]


@pytest.fixture(scope="module")
def shown(seeded_template):
    """What a search of a healthy index shows."""
    return invoke("--library", str(seeded_template), "search", "muon").stdout


def test_every_file_of_an_index_is_damaged_below(seeded_template):
    names = [p.name for p in (seeded_template / ".index").iterdir() if p.is_file()]
    assert names and all(any(fnmatch(n, kind) for kind in FILES) for n in names), names


# make test damages one length column of the eight (they are read by the same code);
# make soak, which CI runs too, every one.
LENGTHS = [kind for kind in FILES if kind.endswith("_len.col")]
CHOSEN = FILES if SOAK else [kind for kind in FILES if kind not in LENGTHS[1:]]


# make test damages each file in two of the four ways (taking turns, file by file).
@pytest.mark.parametrize("kind", CHOSEN)
def test_each_index_file_damaged_each_way(shown, seeded_template, tmp_path, kind):
    rng = random.Random(7)
    tried = 0
    for mode in MODES if SOAK else MODES[FILES.index(kind) % 2 :: 2]:
        library = tmp_path / mode.replace(" ", "-")
        shutil.copytree(seeded_template, library)
        (path,) = (library / ".index").glob(kind)
        if not damage(path, mode, rng):
            continue
        tried += 1
        case = f"{path.name}, {mode}"
        search = invoke("--library", str(library), "search", "muon")
        if search.exit_code == 0:  # healed on the way (rebuilt, or not needed)
            assert search.stdout == shown, case
            doctor = invoke("--library", str(library), "doctor")
            assert doctor.exit_code == 0, f"{case}: {doctor.stdout}"
            continue
        # Otherwise it names the cure, doctor sees it, and the cure works.
        assert search.exit_code == 2, f"{case}: {search.stderr}"
        assert "papers index --rebuild" in search.stderr, case
        doctor = invoke("--library", str(library), "doctor")
        assert doctor.exit_code == 4 and "index: .index:" in doctor.stdout, case
        rebuild = invoke("--library", str(library), "index", "--rebuild")
        assert rebuild.exit_code == 0, f"{case}: {rebuild.stderr}"
        assert invoke("--library", str(library), "search", "muon").stdout == shown, case
        assert invoke("--library", str(library), "doctor").exit_code == 0, case
    assert tried >= (3 if SOAK else 1)


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
