"""``papers remove`` and ``papers merge`` (issue 45): one transaction each, aliases that
still name a merged paper, and a library ``doctor`` finds whole afterwards."""

from __future__ import annotations

import yaml
from typer.testing import CliRunner

from papercli.cli.app import app
from testing import SEEDS
from tmux import Terminal


def _runner(library):
    runner = CliRunner()

    def invoke(*args, stdin=None):
        return runner.invoke(app, ["--library", str(library.root), *args], input=stdin)

    return invoke


def _ids(library) -> list[str]:
    return sorted(p.stem for p in library.papers_dir.glob("*.yaml"))


def test_remove_asks_and_off_a_terminal_needs_yes(seeded_library):
    run = _runner(seeded_library)
    before = _ids(seeded_library)
    refused = run("remove", "VIP")
    assert (refused.exit_code, refused.stdout) == (2, "")
    assert refused.stderr == (
        "papers: remove asks before removing and no one can answer here: add --yes\n"
    )
    assert _ids(seeded_library) == before


def test_remove_takes_any_name_of_the_paper_and_leaves_a_whole_library(seeded_library):
    run = _runner(seeded_library)
    removed = run("remove", "VIP", "--yes")
    assert (removed.exit_code, removed.stdout) == (
        0,
        "removed iclr2026-vip  Adaptive Rollout Allocation for Online RL with Verifiable "
        "Rewards (VIP)\n",
    )
    assert "iclr2026-vip" not in _ids(seeded_library) and len(_ids(seeded_library)) == 62
    assert run("search", "rollout", "allocation", "--ids").stdout.split() == []
    assert run("show", "vip").exit_code == 2  # (not the removed paper's lingering id term)
    doctor = run("doctor")
    assert (doctor.exit_code, doctor.stdout.splitlines()[-1]) == (
        0,
        f"{seeded_library.root}: no problems found",
    )


def test_removing_a_documents_last_paper_removes_its_copy(seeded_library, tmp_path):
    run = _runner(seeded_library)
    refs = tmp_path / "refs.bib"
    refs.write_text("@article{k, title={Zephyr Sparse Attention}, year={2025}}\n", "utf-8")
    assert run("ingest", str(refs)).exit_code == 0
    copies = sorted(p.name for p in seeded_library.sources_dir.iterdir())
    copy = next(c for c in copies if c.startswith("refs-"))
    removed = run("remove", "k", "--yes")
    assert removed.exit_code == 0
    assert removed.stdout.splitlines()[-1] == f"removed sources/{copy}: no paper cites it any more"
    assert sorted(p.name for p in seeded_library.sources_dir.iterdir()) == sorted(
        set(copies) - {copy}
    )
    assert run("doctor").exit_code == 0


def test_merge_folds_b_into_a_and_b_still_names_it(seeded_library):
    run = _runner(seeded_library)
    merged = run("merge", "MuonBP", "EF21-Muon")
    assert (merged.exit_code, merged.stdout) == (
        0,
        "merged iclr2026-ef21-muon into iclr2026-muonbp\n"
        "kept 2 differing values as conflicts: papers show iclr2026-muonbp lists them\n"
        "iclr2026-ef21-muon now names iclr2026-muonbp\n"
        "ef21muon2026 now names iclr2026-muonbp\n",
    )
    assert "iclr2026-ef21-muon" not in _ids(seeded_library)
    record = yaml.safe_load((seeded_library.papers_dir / "iclr2026-muonbp.yaml").read_text())
    assert record["aliases"] == ["iclr2026-ef21-muon", "ef21muon2026"]
    assert [(c["field"], c["source"]) for c in record["conflicts"]] == [
        ("short_name", "record iclr2026-ef21-muon"),
        ("abstract", "record iclr2026-ef21-muon"),
    ]
    assert len(record["sources"]) == 2
    for name in ("iclr2026-ef21-muon", "ef21muon2026", "ef21-muon"):  # id, key, part of id
        shown = run("show", name)
        assert shown.exit_code == 0 and "id: iclr2026-muonbp\n" in shown.stdout, name
    assert "merged from: iclr2026-ef21-muon, ef21muon2026\n" in run("show", "muonbp").stdout
    tagged = run("tag", "iclr2026-ef21-muon", "--add", "reading-list")
    assert tagged.exit_code == 0 and tagged.stdout.startswith("iclr2026-muonbp: ")
    again = run("ingest", *map(str, SEEDS))  # the merged entry's document, once more
    assert again.exit_code == 0 and "0 new, 0 merged, 64 unchanged" in again.stdout
    assert "iclr2026-ef21-muon" not in _ids(seeded_library)
    assert run("doctor").exit_code == 0


def test_merge_notes_a_differing_venue_and_refuses_one_paper(seeded_library):
    run = _runner(seeded_library)
    same = run("merge", "muonbp", "iclr2026-muonbp")
    assert (same.exit_code, same.stderr) == (
        2,
        "papers: iclr2026-muonbp is one paper: give two different papers to merge\n",
    )
    path = seeded_library.papers_dir / "iclr2026-vip.yaml"
    path.write_text(path.read_text("utf-8").replace("year: 2026", "year: 2025"), "utf-8")
    assert run("merge", "muonbp", "vip").exit_code == 0
    record = yaml.safe_load((seeded_library.papers_dir / "iclr2026-muonbp.yaml").read_text())
    assert {"field": "year", "value": 2025, "source": "record iclr2026-vip"} in record["conflicts"]


def test_doctor_names_an_alias_another_record_took(seeded_library):
    run = _runner(seeded_library)
    assert run("merge", "muonbp", "ef21-muon").exit_code == 0
    kept = (seeded_library.papers_dir / "iclr2026-vip.yaml").read_text("utf-8")
    (seeded_library.papers_dir / "iclr2026-ef21-muon.yaml").write_text(
        kept.replace("id: iclr2026-vip", "id: iclr2026-ef21-muon").replace(
            "citekey: vip2026", "citekey: vipcopy2026"
        ),
        "utf-8",
    )
    doctor = run("doctor")
    assert doctor.exit_code == 4
    assert (
        "alias in use: papers/iclr2026-muonbp.yaml: iclr2026-ef21-muon, the id or key of a "
        "paper merged into this one, is also in papers/iclr2026-ef21-muon.yaml"
    ) in doctor.stdout.splitlines()


def test_remove_asks_on_a_terminal(seeded_library, tmp_path):
    env = {"PAPERS_LIBRARY": str(seeded_library.root)}
    with Terminal(80, 24, tmp_path, env) as term:
        term.start("papers remove vip qzo")
        screen = term.wait_for(lambda s: "[y/N]" in s, 30)
        shown = screen.splitlines()
        start = next(i for i, line in enumerate(shown) if line.startswith("  iclr2026-"))
        assert shown[start : start + 3] == [
            "  iclr2026-vip  Adaptive Rollout Allocation for Online RL with Verifiable Rew…",
            "  iclr2026-qzo  QZO — As the size of large language models grows exponentiall…",
            "Remove these 2 papers? [y/N]",
        ]
        term.type("n")
        term.wait_for(lambda s: "nothing removed" in s, 10)
    assert "iclr2026-vip" in _ids(seeded_library)
