"""Ingest of the real seeds: 45 + 19 entries make 63 papers; re-ingest changes nothing."""

from __future__ import annotations

import filecmp
import os

import pytest

from papercli.errors import DocumentError
from papercli.ingest import ingest
from papercli.store.record import ID_RE
from testing import BUNDLED, DIGEST, SEEDS


def record_files(library):
    return sorted(p.name for p in library.papers_dir.glob("*.yaml"))


def test_seeds_make_63_papers(tmp_library):
    report = ingest(tmp_library, SEEDS)
    assert report.summary() == "2 documents, 64 entries: 63 new, 1 merged, 0 unchanged, 0 warnings"
    assert report.merged == ["iclr2026-rrnco"]
    assert len(record_files(tmp_library)) == 63
    assert report.written == 63


def test_the_summary_counts_in_words_that_agree_with_their_numbers(tmp_path, tmp_library):
    bib = tmp_path / "one.bib"
    bib.write_text("@article{x, title={Foo}}\n", encoding="utf-8")
    report = ingest(tmp_library, [bib])
    assert report.summary() == "1 document, 1 entry: 1 new, 0 merged, 0 unchanged, 0 warnings"


def test_rrnco_record_carries_title_summary_and_abstract(seeded_library):
    record = seeded_library.load("iclr2026-rrnco")
    assert record.title.startswith("RRNCO: Towards Real-World Routing")
    assert record.summary_zh.startswith("提出 RRNCO 架构")
    assert record.abstract.startswith("The practical deployment of Neural Combinatorial")
    assert [(s.name, s.line, s.format) for s in record.sources] == [
        ("iclr2026-optimization-theory-digest.txt", 107, "digest"),
        ("iclr2026-abstracts.txt", 7, "abstracts"),
    ]
    assert record.categories == ["优化/理论"]


def test_every_record_is_valid_ascii_id_with_unique_citekey_and_a_tag(seeded_library):
    records = [seeded_library.load(name[:-5]) for name in record_files(seeded_library)]
    assert all(ID_RE.match(r.id) and r.id.isascii() for r in records)
    keys = [r.citekey for r in records]
    assert len(set(keys)) == 63 and all(k and k.isascii() for k in keys)
    assert [r.id for r in records if not r.tags] == []
    untitled = [r for r in records if r.title is None]
    assert len(untitled) == 18  # 19 abstracts, one of them (RRNCO) matched a titled entry


def test_reingest_changes_nothing(seeded_library):
    before = {p.name: p.stat().st_mtime_ns for p in seeded_library.papers_dir.iterdir()}
    report = ingest(seeded_library, SEEDS)
    assert report.summary() == "2 documents, 64 entries: 0 new, 0 merged, 64 unchanged, 0 warnings"
    assert report.written == 0
    after = {p.name: p.stat().st_mtime_ns for p in seeded_library.papers_dir.iterdir()}
    assert after == before


def test_sources_are_byte_exact_copies(seeded_library):
    copies = sorted(seeded_library.sources_dir.iterdir())
    assert len(copies) == 2
    originals = {p.read_bytes() for p in SEEDS}
    assert {c.read_bytes() for c in copies} == originals


def test_bundled_library_is_reproduced_exactly(tmp_library):
    """data/library is what ingesting the bundled documents gives; parser changes show as diffs."""
    ingest(tmp_library, SEEDS)
    for folder in ("papers", "sources"):
        ours, bundled = tmp_library.root / folder, BUNDLED / folder
        assert sorted(os.listdir(ours)) == sorted(os.listdir(bundled)), folder
        _same, mismatch, errors = filecmp.cmpfiles(ours, bundled, os.listdir(ours), shallow=False)
        assert (mismatch, errors) == ([], []), f"re-ingest differs from data/library/{folder}"


def test_one_bad_document_leaves_the_library_untouched(seeded_library, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\x00\x01binary")
    before = sorted(p.name for p in seeded_library.root.rglob("*"))
    with pytest.raises(DocumentError, match=r"bad\.txt: looks like a binary file"):
        ingest(seeded_library, [DIGEST, bad])
    assert sorted(p.name for p in seeded_library.root.rglob("*")) == before


def test_a_bad_document_leaves_a_new_library_absent(tmp_path):
    from papercli.store.library import Library

    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\x00\x01binary")
    library = Library(tmp_path / "new" / "library")
    with pytest.raises(DocumentError, match=r"bad\.txt: looks like a binary file"):
        ingest(library, [DIGEST, bad])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt"]


def ctrl_c_while_saving(monkeypatch) -> None:
    """Ctrl-C as the first record is tagged for saving (after merging, with the index open)."""
    import papercli.ingest.pipeline as ingest_module

    def interrupted(record, taxonomy):
        raise KeyboardInterrupt

    monkeypatch.setattr(ingest_module, "auto_tags", interrupted)


def test_an_ingest_interrupted_while_saving_leaves_a_new_library_absent(tmp_path, monkeypatch):
    """Ctrl-C while a first ingest saves: its index had been made and its lock file taken;
    neither stays, and neither does the library's folder."""
    from papercli.store.library import Library

    ctrl_c_while_saving(monkeypatch)
    library = Library(tmp_path / "new" / "library")
    with pytest.raises(KeyboardInterrupt):
        ingest(library, SEEDS)
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_ingest_leaves_an_existing_library_as_it_was(tmp_library, monkeypatch):
    """The same interruption in a library that was there keeps its index and lock file."""
    ingest(tmp_library, [DIGEST])
    before = sorted(p.relative_to(tmp_library.root) for p in tmp_library.root.rglob("*"))
    ctrl_c_while_saving(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        ingest(tmp_library, SEEDS)
    after = sorted(p.relative_to(tmp_library.root) for p in tmp_library.root.rglob("*"))
    assert after == before and (tmp_library.root / ".lock").exists()


def test_each_document_is_copied_once_parsed_not_held_until_the_last(tmp_library, monkeypatch):
    """A document's bytes are staged (its copy written, pending) before the next is read:
    holding every document's bytes until the last was parsed (80 MB at 100,000 papers)
    left the ingest process ~50 MiB larger to its end."""
    import papercli.ingest.pipeline as ingest_module

    pending_when_read = []
    parse_file = ingest_module.parse_file

    def watched(path):
        folder = tmp_library.pending_dir()
        pending_when_read.append(len(list(folder.iterdir())) if folder.is_dir() else 0)
        return parse_file(path)

    monkeypatch.setattr(ingest_module, "parse_file", watched)
    report = ingest(tmp_library, SEEDS)
    assert pending_when_read == [0, 1] and len(report.new) == 63
    assert not tmp_library.pending_dir().exists()


@pytest.mark.parametrize("keep", [16 << 20, 0, SEEDS[0].stat().st_size])
def test_a_small_ingest_keeps_what_it_made_in_memory_a_large_one_does_not(
    tmp_path, monkeypatch, keep
):
    """Documents within KEEP_PARSED bytes keep their entries from the first parse, and their
    records are parked as objects (parsing again and parking as JSON cost ~1 s of a
    10,000-paper ingest); past it they are parsed again while merging and their records
    parked on disk, so neither is held all at once. The records are the same either way."""
    import papercli.ingest.pipeline as ingest_module
    from papercli.store.library import Library

    parsed_again, parked_in_memory = [], []
    parse_bytes, parked = ingest_module.parse_bytes, ingest_module.Parked

    def counted(data, name):
        parsed_again.append(name)
        return parse_bytes(data, name)

    def watched(in_memory=False):
        parked_in_memory.append(in_memory)
        return parked(in_memory)

    monkeypatch.setattr(ingest_module, "parse_bytes", counted)
    monkeypatch.setattr(ingest_module, "Parked", watched)
    monkeypatch.setattr(ingest_module, "KEEP_PARSED", keep)
    library = Library(tmp_path / "library")
    report = ingest(library, SEEDS)
    small = keep >= sum(p.stat().st_size for p in SEEDS)  # (the last case: the first fits)
    assert parsed_again == ([] if small else [str(p) for p in SEEDS])
    assert parked_in_memory == [small]
    assert len(report.new) == 63 and report.merged == ["iclr2026-rrnco"]
    ours, bundled = library.papers_dir, BUNDLED / "papers"
    _same, mismatch, errors = filecmp.cmpfiles(ours, bundled, os.listdir(bundled), shallow=False)
    assert (mismatch, errors) == ([], [])


def test_warnings_name_file_and_line(tmp_library, tmp_path):
    doc = tmp_path / "cut.txt"
    doc.write_bytes(DIGEST.read_bytes()[: DIGEST.read_bytes().index(b"- When to Restart?") + 30])
    report = ingest(tmp_library, [doc])
    assert len(report.new) == 44
    assert report.warnings == [
        f"{doc}:137: last entry 'When to Restart? Exploring E' "
        "has no summary: document cut short? skipped",
        f"{doc}:1: the page declares 45 papers but 44 entries were found",
    ]


# --- one record per paper across documents: each merge case with a negative twin -------------


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_cross_listed_entry_merges_and_its_twin_stays_separate(seeded_library, tmp_path):
    page = write(
        tmp_path,
        "llm-page.txt",
        "🧠 LLM¶\n🔬 ICLR2026 · 3 篇论文解读\n"
        "- convergence of  MUON with Newton–Schulz\n-\n另一页上的摘要，说法不同。\n"
        "- Convergence of Adam with Newton-Schulz\n-\n这是另一篇论文。\n"
        "- RRNCO: Towards Real-World Routing with Neural Combinatorial Optimization\n-\n"
        "提出 RRNCO 架构，通过自适应节点嵌入（ANE）和神经自适应偏置（NAB）两大创新。\n",
    )
    report = ingest(seeded_library, [page])
    assert report.new == ["iclr2026-convergence-adam-newton-schulz"]
    assert report.merged == ["iclr2026-convergence-muon-newton-schulz", "iclr2026-rrnco"]
    muon = seeded_library.load("iclr2026-convergence-muon-newton-schulz")
    assert muon.title == "Convergence of Muon with Newton-Schulz"  # the first spelling stays
    assert muon.categories == ["优化/理论", "LLM"]
    assert muon.conflicts == [
        {"field": "summary_zh", "value": "另一页上的摘要，说法不同。", "source": "llm-page.txt:3"},
    ]
    assert seeded_library.load("iclr2026-rrnco").categories == ["优化/理论", "LLM"]


def test_conflict_is_shown_with_both_sources(seeded_library, tmp_path):
    page = write(
        tmp_path,
        "llm-page.txt",
        "🧠 LLM¶\n🔬 ICLR2026 · 1 篇论文解读\n- Convergence of Muon with Newton-Schulz\n-\n不同的摘要。\n",
    )
    ingest(seeded_library, [page])
    from typer.testing import CliRunner

    from papercli.cli.app import app

    result = CliRunner().invoke(
        app,
        ["--library", str(seeded_library.root), "show", "iclr2026-convergence-muon-newton-schulz"],
    )
    assert (
        "disagrees: summary_zh: kept the value from iclr2026-optimization-theory-digest.txt:26; "
        "llm-page.txt:3 says '不同的摘要。'"
    ) in result.stdout.splitlines()


def test_repeated_abstract_on_the_next_page_merges_and_an_edited_one_does_not(
    seeded_library, tmp_path
):
    qzo = seeded_library.load("iclr2026-qzo").abstract
    words = qzo.split(" ")
    rewrapped = "\n".join(" ".join(words[i : i + 11]) for i in range(0, len(words), 11))
    edited = qzo.replace("more than 18$\\times$", "more than 19$\\times$")
    page = write(tmp_path, "page2.txt", f"ICLR 2026 论文列表\n\n{rewrapped}\n\n{edited}\n")
    report = ingest(seeded_library, [page])
    assert report.merged == ["iclr2026-qzo"]
    assert report.new == ["iclr2026-qzo-2"]  # same method name, different text: kept apart
    assert [s.name for s in seeded_library.load("iclr2026-qzo").sources] == [
        "iclr2026-abstracts.txt",
        "page2.txt",
    ]


def test_same_short_name_different_paper_stays_separate(seeded_library, tmp_path):
    page = write(
        tmp_path,
        "other.txt",
        "ICLR 2026 论文列表\n\nProtein structure prediction remains difficult for orphan "
        "sequences without homologues. We introduce RRNCO, a recurrent network for protein "
        "folding that predicts contact maps from a single sequence and beats strong baselines "
        "on CASP benchmarks while using a fraction of the compute of alignment-based methods.\n",
    )
    report = ingest(seeded_library, [page])
    assert report.new == ["iclr2026-rrnco-2"] and report.merged == []
    assert seeded_library.load("iclr2026-rrnco-2").citekey == "rrnco2026a"


def test_records_of_finished_documents_are_parked_and_come_back_whole(
    tmp_library, digest, abstracts
):
    """Between documents a Batch holds records as JSON, not objects; the RRNCO entry of the
    second seed brings the first seed's record back to life and merges into it."""
    from papercli.ingest import Batch, IngestReport, Parked
    from papercli.search.index.paper_index import PaperIndex
    from papercli.store.record import Source

    index = PaperIndex(tmp_library).open()
    report = IngestReport()
    with index.ix.searcher() as searcher:
        batch = Batch(tmp_library, index, searcher, Parked())
        for doc, name in ((digest, "digest.txt"), (abstracts, "abstracts.txt")):
            for entry in doc.entries:
                source = Source(f"sources/{name}", name, entry.line, doc.format, entry.fields())
                batch.add(entry, source, report)
            batch.park()
            assert batch.records == {}  # no live objects left between documents
        assert len(batch.parked) == 63
        on_disk = os.fstat(batch.parked._file.fileno()).st_size  # (parked in a file)
        assert on_disk > 63 * 500 and "iclr2026-rrnco" in batch.parked
        rrnco = batch.take("iclr2026-rrnco")
        assert "iclr2026-rrnco" not in batch.parked
    assert report.merged == ["iclr2026-rrnco"] and len(report.new) == 63
    assert rrnco.title and rrnco.summary_zh and rrnco.abstract  # both sources' fields
    assert [s.name for s in rrnco.sources] == ["digest.txt", "abstracts.txt"]


def test_only_keys_the_index_holds_are_remembered(seeded_library, tmp_path):
    """An ingest remembers what the index said about an identity key it holds (a title
    repeated 50,000 times is looked up once), but not the keys of new papers, which the
    index does not hold: their empty answers grew with the ingest."""
    from papercli.ingest import Batch, IngestReport, Parked
    from papercli.parsers import parse_file
    from papercli.search.index.paper_index import PaperIndex
    from papercli.store.merge import entry_keys
    from papercli.store.record import Source

    page = tmp_path / "page.txt"
    page.write_text(
        "Cat¶\nICLR2026 · 2 篇论文解读\n\n"
        "- A Paper Nobody Has Seen Before\n-\n新的摘要。\n\n"
        "- RRNCO: Towards Real-World Routing with Neural Combinatorial Optimization\n"
        "-\n又一个摘要。\n",
        "utf-8",
    )
    doc, _data = parse_file(page)
    index = PaperIndex(seeded_library).open()
    report = IngestReport()
    with index.ix.searcher() as searcher:
        batch = Batch(seeded_library, index, searcher, Parked())
        for entry in doc.entries:
            batch.add(
                entry,
                Source("sources/page.txt", "page.txt", entry.line, doc.format, entry.fields()),
                report,
            )
        new_keys, known_keys = (set(entry_keys(e)) for e in doc.entries)
    assert report.merged == ["iclr2026-rrnco"] and len(report.new) == 1
    assert not new_keys & set(batch.lookups)
    assert batch.lookups and all(batch.lookups.values())
    assert set(batch.lookups) <= known_keys


def test_what_finding_a_paper_needed_is_let_go_before_indexing(tmp_library, monkeypatch):
    """While the records are saved and indexed (when the indexing processes are at their
    largest), the ingest process no longer holds the identity keys' owners, the index's
    answers or the citekeys taken; finding a paper needed them, saving does not. The keys
    it held were their hashes, not their text."""
    import papercli.ingest.pipeline as ingest_module
    from papercli.search.index.paper_index import PaperIndex

    batches, held = [], []

    class Watched(ingest_module.Batch):
        def __init__(self, *args) -> None:
            super().__init__(*args)
            batches.append(self)

        def remember(self, record, touched=False) -> None:
            super().remember(record, touched)
            held.append(all(isinstance(k, int) for k in self.owner))

    writer = PaperIndex.writer

    def watched_writer(index, *args, **kwargs):
        (batch,) = batches
        assert (batch.owner, batch.lookups, batch.keyed, batch.indexed_keys) == ({}, {}, {}, set())
        return writer(index, *args, **kwargs)

    monkeypatch.setattr(ingest_module, "Batch", Watched)
    monkeypatch.setattr(PaperIndex, "writer", watched_writer)
    report = ingest(tmp_library, SEEDS)
    assert len(report.new) == 63 and report.merged == ["iclr2026-rrnco"]
    assert held and all(held)


def one_title(n: int, folder) -> object:
    """A digest page listing the same title *n* times, each with its own summary."""
    lines = ["Cat¶", f"ICLR2026 · {n} 篇论文解读", ""]
    for i in range(n):
        lines += ["- The Same Title Every Time", "-", f"第{i}个摘要，内容不同。", ""]
    path = folder / f"same-{n}.txt"
    path.write_text("\n".join(lines), "utf-8")
    return path


def calls_to_ingest(library, path) -> int:
    """Python function calls an ingest makes: work, counted the same on any machine."""
    import cProfile
    import pstats

    profile = cProfile.Profile()
    profile.runcall(ingest, library, [path])
    return pstats.Stats(profile).total_calls


def test_one_title_listed_many_times_is_linear_work(tmp_path):
    """50,000 entries of one title took 151-280 s to ingest and 533 s to re-ingest: each
    merge scanned every source and conflict kept so far, and every entry read the one
    stored record again. Now four times the entries cost about four times the calls."""
    from papercli.store.library import Library

    work = {}
    for n in (1000, 4000):
        library = Library(tmp_path / f"lib{n}")
        path = one_title(n, tmp_path)
        first = calls_to_ingest(library, path)
        again = calls_to_ingest(library, path)
        assert len(library.load("iclr2026-same-title-every-time").sources) == n
        work[n] = (first, again)
    assert work[4000][0] / work[1000][0] < 4.6, work  # quadratic would be ~16
    assert work[4000][1] / work[1000][1] < 4.6, work


def test_a_deleted_record_ingested_again_gets_its_citation_key_back(seeded_library):
    """The index's list of keys keeps a deleted paper's key until its segment is merged."""
    from papercli.search.index.paper_index import PaperIndex

    PaperIndex(seeded_library).open()
    seeded_library.record_path("iclr2026-muonbp").unlink()
    ingest(seeded_library, SEEDS)  # (its index forgets the paper first)
    assert seeded_library.load("iclr2026-muonbp").citekey == "muonbp2026"


def _bib(folder, text):
    folder.mkdir(exist_ok=True)
    (folder / "refs.bib").write_text(text, encoding="utf-8")
    return folder / "refs.bib"


TYPO = "@article{smith2020muon, title={Muon for Jounrals}, author={Smith, Jane}, year=2020,\n  journal={JMLR}}\n"
OTHER = "@article{other, title={Another Paper}, year=2021, journal={JMLR}}\n"


def test_a_bibtex_file_edited_and_ingested_again_revises_its_papers(tmp_path, tmp_library):
    """A typo fixed in refs.bib corrects the paper, instead of adding a second one; the
    entries left alone stay as they were, hand edits of their records included."""
    ingest(tmp_library, [_bib(tmp_path / "a", TYPO + OTHER)])
    path = tmp_library.record_path("jmlr2021-another-paper")
    path.write_text(
        path.read_text("utf-8").replace(
            "title: Another Paper", "title: Another Paper, Fixed by Hand"
        ),
        "utf-8",
    )
    fixed = TYPO.replace("Jounrals", "Journals").replace("Smith, Jane", "Smith, Jane and Roe, R")
    report = ingest(tmp_library, [_bib(tmp_path / "a", "% fixed\n" + fixed + OTHER)])
    assert (
        report.summary()
        == "1 document, 2 entries: 0 new, 0 merged, 1 revised, 1 unchanged, 0 warnings"
    )
    assert record_files(tmp_library) == [
        "jmlr2020-muon-jounrals.yaml",
        "jmlr2021-another-paper.yaml",
    ]
    record = tmp_library.load("jmlr2020-muon-jounrals")  # (an id is never changed)
    assert (record.title, record.authors, record.conflicts) == (
        "Muon for Journals",
        ["Smith, Jane", "Roe, R"],
        [],
    )
    assert [(s.name, s.line) for s in record.sources] == [("refs.bib", 2)]
    assert tmp_library.load("jmlr2021-another-paper").title == "Another Paper, Fixed by Hand"
    again = ingest(tmp_library, [_bib(tmp_path / "a", "% fixed\n" + fixed + OTHER)])
    assert (again.revised, again.unchanged, again.written) == ([], 2, 0)


def test_another_projects_refs_bib_with_the_same_key_is_another_paper(tmp_path, tmp_library):
    ingest(tmp_library, [_bib(tmp_path / "a", TYPO)])
    clash = "@article{smith2020muon, title={Sparse Attention at Scale}, author={Smith, Jane},\n  year=2020, journal={JMLR}}\n"
    report = ingest(tmp_library, [_bib(tmp_path / "b", clash)])
    assert (len(report.new), report.revised) == (1, [])
    assert tmp_library.load("jmlr2020-muon-jounrals").title == "Muon for Jounrals"
    assert tmp_library.load(report.new[0]).citekey == "sparseattention2020"  # (keys are unique)


def test_a_digest_page_copied_without_its_header_merges_by_title_and_says_so(
    seeded_library, tmp_path
):
    """Issue 45: the page's papers are those of the library, not venue-less duplicates."""
    page = tmp_path / "copied.txt"
    lines = DIGEST.read_text("utf-8").splitlines()
    page.write_text("\n".join(lines[4:13]) + "\n", encoding="utf-8")  # three entries, no header
    report = ingest(seeded_library, [page])
    assert report.summary() == "1 document, 3 entries: 0 new, 3 merged, 0 unchanged, 1 warning"
    assert report.merged == [
        "iclr2026-convergence-analysis-adaptive-optimizers-under",
        "iclr2026-vip",
        "iclr2026-celo2",
    ]
    assert report.warnings == [
        f"{page}:1: no header line names the venue and year (the page's first lines "
        "missing?): its papers are matched to the library by title"
    ]
    assert len(record_files(seeded_library)) == 63
