"""The bad-input corpus (tests/data/bad): one exact message and exit code per case, nothing
touched on refusal; and hostile text that stays inert everywhere it is shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from papercli.cli.app import app
from testing import DIGEST, TEST_DATA

BAD = TEST_DATA / "bad"
CASES = yaml.safe_load((BAD / "cases.yaml").read_text("utf-8"))


def materialise(name: str, tmp_path: Path) -> Path:
    """The path for a case: a committed file, or one made here (too big or odd to commit)."""
    if name == "directory/":
        return tmp_path
    if name == "missing.txt":
        return tmp_path / "missing.txt"
    if name == "huge.txt":
        path = tmp_path / name
        with open(path, "wb") as handle:
            handle.truncate(100 * 2**20)  # sparse: costs no disk
        return path
    if name == "long-line.txt":
        path = tmp_path / name
        path.write_text("ICLR 2026 论文列表\n\n" + "word " * (2 * 2**20) + "\n", encoding="utf-8")
        return path
    return BAD / name


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_case(name, tmp_path):
    case = CASES[name]
    path = materialise(name, tmp_path)
    library = tmp_path / "library"
    result = CliRunner().invoke(app, ["--library", str(library), "ingest", str(path)])
    assert result.exit_code == case["exit"]
    assert result.stderr == case.get("stderr", "").replace("{path}", str(path))
    if "stdout" in case:
        assert result.stdout == case["stdout"]
    else:
        assert result.stdout == ""
        assert not (library / "papers").exists()  # refused: the library is untouched


def test_refusal_leaves_an_existing_library_exactly_as_it_was(seeded_library):
    def snapshot():
        return {
            p.relative_to(seeded_library.root): p.read_bytes()
            for p in seeded_library.root.rglob("*")
            if p.is_file() and ".index" not in p.parts and p.name != ".lock"
        }

    before = snapshot()
    result = CliRunner().invoke(
        app,
        ["--library", str(seeded_library.root), "ingest", str(DIGEST), str(BAD / "binary.png")],
    )
    assert result.exit_code == 2
    assert snapshot() == before


# --- hostile text ------------------------------------------------------------------------


@pytest.fixture
def hostile_library(tmp_path):
    lib = tmp_path / "lib"
    result = CliRunner().invoke(
        app, ["--library", str(lib), "ingest", str(BAD / "hostile-digest.txt")]
    )
    assert result.exit_code == 0
    return lib


def run(lib, *args, **env):
    runner = CliRunner(env={"NO_COLOR": None, "COLUMNS": "160", **env})
    return runner.invoke(app, ["--library", str(lib), *args], color=bool(env))


def test_ids_and_files_from_hostile_titles_are_safe(hostile_library):
    names = sorted(p.name for p in (hostile_library / "papers").iterdir())
    assert names == [
        "iclr2026-etc-passwd.yaml",
        "iclr2026-key-value.yaml",
        "iclr2026-mask-attention-yes-null-python.yaml",
        "iclr2026-nablapix.yaml",
    ]
    assert [p.name for p in (hostile_library / "sources").iterdir()] == [
        "hostile-digest-" + p.name.split("-")[-1] for p in (hostile_library / "sources").iterdir()
    ]


def test_records_keep_hostile_text_exactly(hostile_library):
    record = yaml.safe_load(
        (hostile_library / "papers" / "iclr2026-mask-attention-yes-null-python.yaml").read_text(
            "utf-8"
        )
    )
    assert (
        record["title"]
        == "[mask] Attention: yes, null, !!python/object/apply:os.system ['rm'] | a {b} %c @misc{x,"
    )
    assert "\x1b[31mRED\x1b[0m" in record["summary_zh"] and "\x07" in record["summary_zh"]
    assert record["categories"] == ["[bold red]Alert[/]"]


def test_terminal_output_shows_markup_as_text_and_no_escape_codes(hostile_library):
    result = run(
        hostile_library, "show", "iclr2026-mask-attention-yes-null-python", FORCE_COLOR="1"
    )
    assert result.exit_code == 0
    screen = result.stdout
    assert "[mask] Attention" in screen and "[bold red]Alert[/]" in screen  # not styled away
    assert "\x1b[31m" not in screen and "\x07" not in screen  # the data's own codes: gone
    assert "\\x07" in screen  # the bell shown visibly
    plain = run(hostile_library, "show", "iclr2026-mask-attention-yes-null-python").stdout
    assert "\x1b" not in plain and "\\x07" in plain


def test_search_finds_words_next_to_escape_codes(hostile_library):
    result = run(hostile_library, "search", "RED", "--json")
    [hit] = json.loads(result.stdout)
    assert hit["id"] == "iclr2026-mask-attention-yes-null-python"
    assert "\x1b[31mRED" in hit["summary_zh"]  # JSON carries the record as it is
    assert hit["snippet"].startswith("提出 RED 方法")


def test_exports_of_hostile_text_parse(hostile_library):
    bib = run(hostile_library, "export", "-f", "bibtex").stdout
    import pybtex.errors
    from pybtex.database import parse_string

    pybtex.errors.set_strict_mode(True)
    assert len(parse_string(bib, "bibtex").entries) == 4
    md = run(hostile_library, "export", "-f", "markdown").stdout
    table = [line for line in md.splitlines() if line.startswith("| ")]
    assert all(line.count(" | ") == 4 for line in table)  # pipes escaped: 5 cells a row
    csl = json.loads(run(hostile_library, "export", "-f", "csl-json").stdout)
    assert len(csl) == 4


def test_paths_in_ids_are_refused(hostile_library):
    for bad in ("../papers/x", "a/b", "..", "x\x00y"):
        result = run(hostile_library, "show", bad)
        assert result.exit_code == 2 and result.stderr.startswith("papers: ")
