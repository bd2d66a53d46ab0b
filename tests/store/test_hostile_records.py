"""A bad record costs only itself: YAML bombs, deep nesting, truncation, and a re-ingest
over a broken record."""

from __future__ import annotations

import resource
import shutil
import subprocess

import pytest

from papercli.errors import RecordError
from papercli.store.library import Library
from papercli.store.yamlio import load_yaml
from testing import BUNDLED, PAPERS, SEEDS, papers

# Nine lists of nine, each made of the one before: 9^9 items once aliases expand (hundreds
# of MB as Python objects, and far more as the text of an error message or of JSON).
LEVELS = [f"&l{i} [{', '.join([f'*l{i - 1}' if i else 'x'] * 9)}]" for i in range(9)]
BOMB = "".join(f"l{i}: {level}\n" for i, level in enumerate(LEVELS))
IN_YEAR = f"year: [{', '.join(LEVELS)}]\n"  # a value of the wrong type, said in a message
IN_CONFLICTS = "conflicts:\n" + "".join(  # values papers keeps as they are
    f"- {{field: title, value: {level}, source: 'x.txt:1'}}\n" for level in LEVELS
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (BOMB, "r.yaml line 1: YAML anchors and aliases (&, *) are not allowed here"),
        ("id: x\nyear: &y 2026\nother: *y\n", "r.yaml line 2: YAML anchors and aliases"),
        ("a: " + "[" * 40 + "1" + "]" * 40 + "\n", "r.yaml line 1: nested or repeated beyond"),
        ("a: " + "[" * 50_000 + "]" * 50_000 + "\n", "r.yaml line 1: exceeded maximum nesting"),
    ],
)
def test_yaml_that_could_explode_is_refused_with_its_line(text, message):
    with pytest.raises(RecordError) as err:
        load_yaml(text, "r.yaml")
    assert str(err.value).startswith(message)


def test_a_record_larger_than_any_real_one_is_refused():
    with pytest.raises(RecordError, match=r"r.yaml: 16,777,218 characters, more than 16,777,216"):
        load_yaml("a: " + "x" * (2**24 - 2) + "\n", "r.yaml")


def limited_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # 2 GiB: a bomb cannot hide


@pytest.fixture
def bombed(tmp_path):
    """The bundled library with YAML bombs in two hand-edited records."""
    library = tmp_path / "lib"
    shutil.copytree(BUNDLED, library, ignore=shutil.ignore_patterns(".index", ".lock"))
    year = library / "papers" / "iclr2026-qzo.yaml"
    year.write_text(year.read_text("utf-8").replace("year: 2026\n", IN_YEAR), "utf-8")
    conflicts = library / "papers" / "iclr2026-muonbp.yaml"
    conflicts.write_text(conflicts.read_text("utf-8") + IN_CONFLICTS, "utf-8")
    return library


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["search", "muon"],
        ["list"],
        ["show", "iclr2026-rrnco"],
        ["export", "--format", "json"],
        ["retag"],
        ["similar", "iclr2026-ef21-muon"],
    ],
)
def test_a_yaml_bomb_costs_only_its_own_record(bombed, args):
    result = subprocess.run(
        [str(PAPERS), "--library", str(bombed), *args],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limited_memory,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout and "Traceback" not in result.stderr
    for name in (
        "iclr2026-qzo.yaml line 6: YAML anchors",
        "iclr2026-muonbp.yaml line 41: YAML anchors",
    ):
        assert name in result.stderr  # each bomb named with its file and line


@pytest.mark.slow
def test_doctor_names_each_bomb(bombed):
    result = subprocess.run(
        [str(PAPERS), "--library", str(bombed), "doctor"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limited_memory,
    )
    assert result.returncode == 4  # (problems remain)
    assert "invalid record: papers/iclr2026-qzo.yaml: line 6: YAML anchors" in result.stdout
    assert "invalid record: papers/iclr2026-muonbp.yaml: line 41: YAML anchors" in result.stdout


def test_a_record_cut_in_half_never_validates(tmp_path):
    """Provenance comes last in a record: a cut record loses its sources and is flagged."""
    folder = tmp_path / "lib" / "papers"
    shutil.copytree(BUNDLED / "papers", folder)
    library = Library(tmp_path / "lib")
    for path in sorted(folder.glob("*.yaml")):
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2].decode("utf-8", "ignore").encode("utf-8"))
        with pytest.raises(RecordError):
            library.load_path(path)


def test_re_ingesting_over_a_broken_record_makes_no_duplicate(tmp_path):
    library = tmp_path / "lib"
    shutil.copytree(BUNDLED, library, ignore=shutil.ignore_patterns(".index", ".lock"))
    cut = library / "papers" / "iclr2026-muonbp.yaml"
    cut.write_text(cut.read_text("utf-8")[:400], "utf-8")
    before = {p.name for p in (library / "papers").iterdir()}
    result = papers("--library", str(library), "ingest", *map(str, SEEDS))
    assert {p.name for p in (library / "papers").iterdir()} == before  # no iclr2026-muonbp-2
    assert "0 new" in result.stdout and "1 warning" in result.stdout
    assert (
        f"{SEEDS[1]}:37: skipped: papers/iclr2026-muonbp.yaml would hold this paper but does "
        "not validate (line 16: found unexpected end of stream)" in result.stderr
    )
    assert "fix it (papers edit iclr2026-muonbp) and ingest again" in result.stderr
