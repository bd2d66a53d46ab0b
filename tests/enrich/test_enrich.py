"""``papers enrich`` against a local OpenReview (enrich/openreview_server.py) that lists the
63 bundled papers among 2,000 others, as ICLR 2026's accepted papers: matching, what is
filled and what is kept, failures that leave the library as it was, and what exports,
search and show make of it."""

from __future__ import annotations

import functools
import json
import os
import random
import re
import textwrap

import pytest

from enrich.openreview_server import note, unused_port
from papercli.enrich import cache
from papercli.enrich.openreview import fetch_venue
from papercli.enrich.run import enrich
from papercli.errors import OpenReviewError
from papercli.remote.apis import Apis
from papercli.store.library import Library
from testing import PAPERS, papers

ICLR = "ICLR.cc/2026/Conference"
QZO = "iclr2026-qzo"  # untitled: an abstract with LaTeX (18$\times$)
MUON = "iclr2026-convergence-muon-newton-schulz"  # titled, with a Chinese summary only
WORDS = (
    "graph sparse kernel policy reward token latent vision speech robot molecule protein "
    "causal fairness privacy agent planning retrieval memory attention energy spectral "
    "manifold contrastive diffusion video audio tabular clinical weather"
).split()


def authors_of(rid: str) -> list[str]:
    return [f"Ada {rid.split('-')[1].title()}", "Alan Turing", "Grace Hopper"]


def real_title(record) -> str:
    name = record.short_name or record.id
    return record.title or f"{name}: The Published Title of {name}"


def venue_notes(library: Library, n_others: int = 2000) -> list[dict]:
    """The library's ICLR 2026 papers as OpenReview would list them (abstracts wrapped
    differently, titles for the untitled, an English abstract for the digest-only ones),
    shuffled among *n_others* other papers."""
    notes = []
    for path in sorted(library.papers_dir.glob("*.yaml")):
        record = library.load_path(path)
        abstract = record.abstract or f"We study {record.title.lower()} in depth."
        notes.append(
            note(
                f"F{record.id}",
                title=real_title(record),
                authors=authors_of(record.id),
                abstract=textwrap.fill(abstract, 61),
                keywords=["optimization"],
            )
        )
    rng = random.Random(5)
    for i in range(n_others):
        words = rng.sample(WORDS, 12)
        notes.append(
            note(
                f"X{i}",
                title=f"On {words[0]} and {words[1]} {i}",
                abstract=" ".join(words) + f" number {i}.",
            )
        )
    rng.shuffle(notes)
    return notes


@pytest.fixture
def iclr(openreview, seeded_library):
    openreview.add(ICLR, venue_notes(seeded_library))
    return openreview


def run(library, openreview, ids=None, arxiv=None, crossref=None, **kwargs):
    """``papers enrich`` with OpenReview at *openreview*, arXiv and Crossref at theirs (a
    closed port when not given: a test that does not serve them never asks them)."""
    closed = f"http://127.0.0.1:{unused_port()}"
    apis = Apis(
        arxiv=arxiv.url if arxiv else closed,
        crossref=crossref.url if crossref else closed,
        openreview=openreview.url,
    )
    return enrich(library, ids, apis, today=lambda: _day(), **kwargs)


def _day():
    import datetime

    return datetime.date(2026, 12, 1)


def files(library: Library) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(library.papers_dir.glob("*.yaml"))}


def everything(library: Library) -> dict[str, tuple[bytes, int]]:
    """Every file of the library (index and cache included), with its mtime."""
    out = {}
    for folder, _dirs, names in os.walk(library.root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                out[os.path.relpath(path, library.root)] = (
                    handle.read(),
                    os.stat(path).st_mtime_ns,
                )
    return out


# --- matching and what is filled in ----------------------------------------------------------


def test_enrich_all_fills_every_paper_from_its_match(iclr, seeded_library):
    report = run(seeded_library, iclr)
    assert iclr.offsets(ICLR) == [0, 1000, 2000]  # 2,063 notes, paged
    assert (report.count("abstract"), report.count("title"), report.count("fuzzy")) == (19, 44, 0)
    assert len(report.written) == 63 and report.downloaded == [ICLR]
    for rid in report.written:
        record = seeded_library.load(rid)
        assert record.authors == authors_of(rid)
        assert record.title and not record.title_is_derived
        assert record.urls[-2:] == [
            f"https://openreview.net/forum?id=F{rid}",
            f"https://openreview.net/pdf/F{rid}.pdf",
        ]
        assert record.keywords == ["optimization"]
        source = record.sources[-1]
        assert (source.document, source.format, source.fetched) == (
            f"openreview:F{rid}",
            "openreview",
            "2026-12-01",
        )
        assert set(source.fields) >= {"authors", "urls", "keywords"}
    qzo = seeded_library.load(QZO)
    assert qzo.title == "QZO: The Published Title of QZO"
    assert qzo.sources[-1].fields == ["title", "authors", "urls", "keywords"]
    muon = seeded_library.load(MUON)  # matched by its title; its abstract was missing
    assert muon.abstract.startswith("We study convergence of muon")
    assert muon.conflicts == []


def test_an_abstract_that_differs_only_in_wrapping_and_latex_matches(openreview, seeded_library):
    record = seeded_library.load(QZO)
    assert "18$\\times$" in record.abstract
    plain = record.abstract.replace("18$\\times$", "18×").replace(". ", ".\n  ")
    openreview.add(
        ICLR,
        [
            note("Fq", title="Quantized Zeroth-order Optimization", abstract=plain),
            note("Fx", title="Something else", abstract="Another abstract."),
        ],
    )
    report = run(seeded_library, openreview, [QZO])
    assert [(o.id, o.match.how, o.match.paper.forum) for o in report.outcomes] == [
        (QZO, "abstract", "Fq")
    ]
    assert seeded_library.load(QZO).title == "Quantized Zeroth-order Optimization"


def test_a_title_only_match(openreview, seeded_library):
    title = seeded_library.load(MUON).title
    openreview.add(ICLR, [note("Fm", title=title.upper().replace(" ", "  "), abstract="Other.")])
    report = run(seeded_library, openreview, [MUON])
    assert report.outcomes[0].match.how == "title"
    assert seeded_library.load(MUON).authors == ["Ada Lovelace", "Alan Turing"]


def _reworded(abstract: str) -> str:
    """The abstract with its first and last sentences rewritten: no longer equal."""
    sentences = abstract.split(". ")
    return ". ".join(["In this work we look at memory.", *sentences[1:-1], "Code is public."])


def test_a_fuzzy_match_needs_a_clear_margin(openreview, seeded_library):
    record = seeded_library.load(QZO)
    openreview.add(
        ICLR,
        [
            note("Fq", abstract=_reworded(record.abstract)),
            note("Fz", abstract="Zeroth-order optimization for large language models."),
        ],
    )
    outcome = run(seeded_library, openreview, [QZO]).outcomes[0]
    assert (outcome.match.how, outcome.match.paper.forum) == ("fuzzy", "Fq")
    assert (outcome.match.score, outcome.match.runner_score) == (
        0.707,
        0.039,
    )  # ACCEPT 0.6, MARGIN 0.15


def test_a_near_tie_is_reported_and_left_alone(openreview, seeded_library):
    record = seeded_library.load(QZO)
    before = files(seeded_library)
    openreview.add(
        ICLR,
        [
            note("Fa", abstract=_reworded(record.abstract)),
            note("Fb", abstract=_reworded(record.abstract) + " Appendix."),
        ],
    )
    outcome = run(seeded_library, openreview, [QZO]).outcomes[0]
    assert outcome.match.how == "ambiguous" and outcome.changes == []
    assert re.fullmatch(
        r"could be openreview:F[ab] or openreview:F[ab] \(scores 0\.\d\d and "
        r"0\.\d\d\); left alone",
        outcome.reason,
    )
    assert files(seeded_library) == before


def test_a_paper_not_on_the_list_is_reported(openreview, arxiv_api, crossref_api, seeded_library):
    openreview.add(ICLR, [note("Fx", title="Unrelated", abstract="Protein folding with graphs.")])
    report = run(seeded_library, openreview, [QZO], arxiv=arxiv_api, crossref=crossref_api)
    outcome = report.outcomes[0]
    assert (outcome.match.how, outcome.reason) == (
        "none",
        "not among the venue's accepted papers; arXiv: no paper matches; "
        "Crossref: no title to search by (it does not search abstracts)",
    )


# --- never overwriting ------------------------------------------------------------------------


def test_a_title_the_user_edited_is_kept_and_the_other_noted(iclr, seeded_library):
    path = seeded_library.record_path(QZO)
    path.write_text(
        path.read_text("utf-8").replace("title: null", "title: My own title for QZO"), "utf-8"
    )
    report = run(seeded_library, iclr, [QZO])
    record = seeded_library.load(QZO)
    assert record.title == "My own title for QZO"
    assert [(c.field, c.action) for c in report.outcomes[0].changes] == [
        ("title", "conflict"),
        ("authors", "fill"),
        ("urls", "add"),
        ("keywords", "add"),
    ]
    assert record.conflicts == [
        {
            "field": "title",
            "value": "QZO: The Published Title of QZO",
            "source": "openreview:Ficlr2026-qzo",
        }
    ]
    shown = papers("--library", str(seeded_library.root), "show", QZO).stdout
    assert (
        "disagrees: title: kept the value from the record; openreview:Ficlr2026-qzo says "
        "'QZO: The Published Title of QZO'"
    ) in shown


def test_authors_written_another_way_are_the_same_authors(openreview, seeded_library):
    path = seeded_library.record_path(QZO)
    path.write_text(
        path.read_text("utf-8").replace(
            "title: null", "title: null\nauthors:\n- Lovelace, Ada\n- Turing, Alan"
        ),
        "utf-8",
    )
    openreview.add(ICLR, [note("Fq", abstract=seeded_library.load(QZO).abstract)])
    changes = run(seeded_library, openreview, [QZO]).outcomes[0].changes
    assert [c.field for c in changes] == ["title", "urls"]  # no authors conflict


def test_running_again_changes_nothing_and_reads_the_cache(iclr, seeded_library):
    run(seeded_library, iclr)
    requests = len(iclr.requests)
    before = everything(seeded_library)
    report = run(seeded_library, iclr)
    assert (report.written, report.downloaded, len(iclr.requests)) == ([], [], requests)
    assert report.changed == []
    assert everything(seeded_library) == before
    assert cache.load(seeded_library, ICLR).fetched == "2026-12-01"


def test_refresh_downloads_again(iclr, seeded_library):
    run(seeded_library, iclr, [QZO])
    report = run(seeded_library, iclr, [QZO], refresh=True)
    assert report.downloaded == [ICLR] and iclr.offsets() == [0, 1000, 2000] * 2


def test_dry_run_writes_nothing(iclr, seeded_library):
    before = everything(seeded_library)
    report = run(seeded_library, iclr, dry_run=True)
    assert len(report.changed) == 63 and report.written == []
    assert everything(seeded_library) == before


# --- failures leave the library as it was -----------------------------------------------------


def _fails_cleanly(library, openreview, error, message, **kwargs):
    before = everything(library)
    with pytest.raises(error) as caught:
        run(library, openreview, **kwargs)
    assert re.search(message, str(caught.value)), str(caught.value)
    assert everything(library) == before


def test_a_timeout(iclr, seeded_library):
    iclr.stall(2.0)
    fetch = functools.partial(fetch_venue, timeout=0.3)
    _fails_cleanly(
        seeded_library, iclr, OpenReviewError, r"did not answer within 0\.3 s", fetch=fetch
    )


def test_malformed_json(iclr, seeded_library):
    iclr.respond('{"notes": [')
    _fails_cleanly(seeded_library, iclr, OpenReviewError, "malformed reply for ICLR.cc/2026")


def test_offline(seeded_library):
    class Nowhere:
        url = f"http://127.0.0.1:{unused_port()}"

    _fails_cleanly(seeded_library, Nowhere, OpenReviewError, "cannot reach http://127.0.0.1")


def test_a_rate_limit_then_success(iclr, seeded_library):
    iclr.rate_limit(times=2, retry_after="0")
    report = run(seeded_library, iclr, [QZO])
    assert report.written == [QZO] and iclr.offsets() == [0, 0, 0, 1000, 2000]


def test_a_venue_openreview_lists_nothing_for_is_asked_elsewhere(
    openreview, arxiv_api, crossref_api, seeded_library
):
    report = run(seeded_library, openreview, [MUON], arxiv=arxiv_api, crossref=crossref_api)
    assert report.outcomes[0].reason == (
        f"OpenReview lists no accepted papers for {ICLR}; arXiv: no paper matches; "
        "Crossref: no work matches"
    )
    assert (report.lists[ICLR].raw, len(arxiv_api.requests), len(crossref_api.requests)) == (
        [],
        1,
        1,
    )


# --- the command, exports, search and show ----------------------------------------------------


def test_the_command_end_to_end(iclr, seeded_library):
    lib = ["--library", str(seeded_library.root)]
    env = {**os.environ, "PAPERS_OPENREVIEW_API": iclr.url}
    dry = papers(*lib, "enrich", QZO, "--dry-run", env=env)
    assert dry.stdout.splitlines() == [
        f"{QZO}\ttitle\tfill\tQZO: The Published Title of QZO",
        f"{QZO}\tauthors\tfill\tAda Qzo; Alan Turing; Grace Hopper",
        f"{QZO}\turls\tadd\thttps://openreview.net/forum?id=F{QZO}; https://openreview.net/pdf/F{QZO}.pdf",
        f"{QZO}\tkeywords\tadd\toptimization",
    ]
    assert dry.stderr.splitlines()[-1] == (
        "papers: 1 paper: 1 by abstract (OpenReview); would change 1 (dry run)"
    )
    done = papers(*lib, "enrich", "--all", "--json", env=env)
    assert len([o for o in json.loads(done.stdout) if o["changes"]]) == 63
    assert done.stderr.splitlines()[-1] == (
        "papers: 63 papers: 19 by abstract, 44 by title (OpenReview); changed 63"
    )
    found = papers(*lib, "search", "author:Qzo", "--ids").stdout
    assert found == f"{QZO}\n"
    shown = papers(*lib, "show", QZO).stdout
    assert "authors: Ada Qzo; Alan Turing; Grace Hopper" in shown
    assert (
        f"source: openreview:F{QZO} (fetched {_today()}) (openreview: title, authors, urls, keywords)"
        in shown
    )
    bib = papers(*lib, "export", "--id", QZO, "--format", "bibtex").stdout
    assert "author = {Ada Qzo and Alan Turing and Grace Hopper}" in bib
    assert "title = {{QZO:} {The} {Published} {Title} of {QZO}}" in bib
    assert f"url = {{https://openreview.net/forum?id=F{QZO}}}" in bib
    assert "note" not in bib  # neither a derived title nor unknown authors now
    markdown = papers(*lib, "export", "--id", QZO, "--format", "markdown").stdout
    assert "Ada Qzo; Alan Turing; Grace Hopper" in markdown
    csl = json.loads(papers(*lib, "export", "--id", QZO, "--format", "csl-json").stdout)
    assert csl[0]["author"] == [
        {"literal": "Ada Qzo"},
        {"literal": "Alan Turing"},
        {"literal": "Grace Hopper"},
    ]
    assert papers(*lib, "doctor").stdout.endswith(": no problems found\n")  # (no copy to look for)
    again = papers(*lib, "enrich", "--all", env=env)  # (all have the abstract now)
    assert again.stderr.splitlines()[-1] == (
        "papers: 63 papers: 63 by abstract (OpenReview); changed 0"
    )


def _today():
    import datetime

    return datetime.date.today().isoformat()


def test_the_command_fails_in_one_line(seeded_library):
    env = {**os.environ, "PAPERS_OPENREVIEW_API": f"http://127.0.0.1:{unused_port()}"}
    result = papers("--library", str(seeded_library.root), "enrich", "--all", env=env, check=False)
    assert result.returncode == 2
    assert re.fullmatch(r"papers: cannot reach http://127\.0\.0\.1:\d+: .*\n", result.stderr)
    usage = papers("--library", str(seeded_library.root), "enrich", check=False)
    assert (usage.returncode, usage.stderr) == (
        2,
        "papers: name the papers to enrich, or --all (not both)\n",
    )
    assert PAPERS.exists()


def test_the_server_is_a_setting(iclr, seeded_library, tmp_path):
    """The config file names the server; the environment variable overrides it."""
    config = tmp_path / "config.yaml"
    config.write_text(f"openreview_api: {iclr.url}/\n")
    lib = ["--library", str(seeded_library.root)]
    env = {**os.environ, "PAPERS_CONFIG": str(config)}
    env.pop("PAPERS_OPENREVIEW_API", None)
    assert papers(*lib, "enrich", QZO, "--dry-run", env=env).stdout.startswith(f"{QZO}\ttitle")
    shown = papers(*lib, "config", env=env).stdout
    assert re.search(rf"openreview_api\s+{re.escape(iclr.url)}\s+file", shown), shown
    elsewhere = {**env, "PAPERS_OPENREVIEW_API": f"http://127.0.0.1:{unused_port()}"}
    result = papers(*lib, "enrich", QZO, "--dry-run", env=elsewhere, check=False)
    assert result.returncode == 2 and "cannot reach" in result.stderr


def test_the_download_reports_its_progress(iclr, seeded_library):
    import contextlib

    seen = []

    @contextlib.contextmanager
    def progress(total, what):
        seen.append((total, what))
        yield lambda n=1: seen.append(n)

    run(seeded_library, iclr, [QZO], progress=progress)
    assert seen == [(2063, f"downloading {ICLR}"), 1000, 1000, 63]


def test_a_damaged_cache_is_downloaded_again(iclr, seeded_library):
    run(seeded_library, iclr, [QZO], dry_run=False)
    cached = cache.path(seeded_library, ICLR)
    cached.write_text('{"venueid": "ICLR.cc/2026/Conference", "notes": [{"id": 1}]', "utf-8")
    report = run(seeded_library, iclr, [MUON])
    assert report.downloaded == [ICLR] and iclr.offsets() == [0, 1000, 2000] * 2
    assert cache.load(seeded_library, ICLR).fetched == "2026-12-01"


def test_two_records_of_one_paper_are_reported(openreview, seeded_library):
    """A digest's titled record and an abstract list's untitled one that the merge rule kept
    apart both match the same accepted paper: enrich says so."""
    qzo = seeded_library.load(QZO)
    twin = (
        seeded_library.record_path(QZO)
        .read_text("utf-8")
        .replace("id: iclr2026-qzo", "id: iclr2026-qzo-twin")
        .replace("citekey: qzo2026", "citekey: qzo2026b")
    )
    seeded_library.record_path("iclr2026-qzo-twin").write_text(twin, "utf-8")
    openreview.add(ICLR, [note("Fq", title="QZO", abstract=qzo.abstract)])
    lib = ["--library", str(seeded_library.root)]
    env = {**os.environ, "PAPERS_OPENREVIEW_API": openreview.url}
    result = papers(*lib, "enrich", QZO, "iclr2026-qzo-twin", "--dry-run", env=env)
    assert result.stderr.splitlines()[-1] == (
        "papers: iclr2026-qzo, iclr2026-qzo-twin: all are openreview:Fq, one paper in several "
        "records (papers keeps them; merge them by hand)"
    )
    assert result.stderr.splitlines()[0] == (
        "papers: ICLR.cc/2026/Conference: 1 accepted paper (downloaded 2026-12-01)".replace(
            "2026-12-01", _today()
        )
    )
