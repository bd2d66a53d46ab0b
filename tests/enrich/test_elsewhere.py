"""``papers enrich`` for papers OpenReview does not list (CVPR, AAAI, preprints, an ICLR
paper its list lacks), asked of the local arXiv and Crossref stand-ins (add/services.py):
links, titles and abstracts, near ties, what is kept in the library's cache, and failures
that leave the library as it was."""

from __future__ import annotations

import datetime
import json
import os
import re
from types import SimpleNamespace

import pytest

from add.services import paper, work
from enrich.openreview_server import note
from papercli.enrich.run import enrich
from papercli.errors import ServiceError
from papercli.ingest import ingest
from papercli.remote.apis import Apis
from papercli.search.index.paper_index import PaperIndex
from papercli.store.library import Library
from stand_in import unused_port
from testing import papers

DAY = "2026-12-01"
RESNET = "cvpr2016-deep-residual-learning-image-recognition"
SPARSE = "arxiv2025-sparse-kernels-graph-policies"
LATENT = "arxiv2025-latent-vision-memory"
TABULAR = "aaai2024-tabular-reward-tokens-clinical-planning"
QZO = "iclr2026-qzo"  # untitled: an abstract only
MUON = "iclr2026-convergence-muon-newton-schulz"  # a title only
ICLR = "ICLR.cc/2026/Conference"
BIB = """
@inproceedings{he2016deep,
  title = {Deep Residual Learning for Image Recognition},
  booktitle = {Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (CVPR)},
  year = {2016},
}
@article{lovelace2025sparse,
  title = {Sparse Kernels for Graph Policies},
  journal = {arXiv preprint arXiv:2501.00001},
  year = {2025},
}
@article{turing2025latent,
  title = {Latent Vision Memory},
  journal = {arXiv preprint arXiv:2502.00002},
  year = {2025},
}
@inproceedings{hopper2024tabular,
  title = {Tabular Reward Tokens for Clinical Planning},
  booktitle = {Proceedings of the AAAI Conference on Artificial Intelligence},
  year = {2024},
}
"""
RESNET_ABSTRACT = (
    "Deeper neural networks are more difficult to train. We present a residual learning "
    "framework to ease the training of networks that are substantially deeper."
)
HE = ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"]


@pytest.fixture(autouse=True)
def no_pause(monkeypatch):
    """arXiv's 3 s between requests, shrunk: these tests ask it several times."""
    monkeypatch.setattr("papercli.remote.arxiv.INTERVAL", 0.0)


@pytest.fixture
def library(tmp_path) -> Library:
    """Four papers of venues OpenReview does not list, from a BibTeX file: no authors, no
    abstracts; two preprints link their arXiv ids."""
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, "utf-8")
    library = Library(tmp_path / "lib")
    ingest(library, [bib])
    return library


@pytest.fixture
def services(arxiv_api, crossref_api, openreview):
    arxiv_api.add(
        paper(
            "1512.03385",
            title="Deep Residual Learning for Image Recognition",
            authors=HE,
            summary=RESNET_ABSTRACT,
        ),
        paper(
            "2501.00001",
            title="Sparse Kernels for Graph Policies",
            summary="We learn graph policies with sparse kernels.",
            doi="10.1000/sparse",
        ),
    )
    crossref_api.add(
        work(
            "10.1109/CVPR.2016.90",
            title="Deep Residual Learning for Image Recognition",
            authors=[tuple(name.split()) for name in HE],
            container="2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
            year=2016,
            type="proceedings-article",
        ),
        work("10.1000/sparse", title="Sparse Kernels for Graph Policies", year=2025),
    )
    apis = Apis(arxiv=arxiv_api.url, crossref=crossref_api.url, openreview=openreview.url)
    env = {
        **os.environ,
        "PAPERS_ARXIV_API": arxiv_api.url,
        "PAPERS_CROSSREF_API": crossref_api.url,
        "PAPERS_OPENREVIEW_API": openreview.url,
    }
    return SimpleNamespace(
        arxiv=arxiv_api, crossref=crossref_api, openreview=openreview, apis=apis, env=env
    )


def run(library, services, ids=None, **kwargs):
    return enrich(library, ids, services.apis, today=lambda: datetime.date(2026, 12, 1), **kwargs)


def everything(library: Library) -> dict[str, bytes]:
    """Every file of the library (records, index, caches)."""
    out = {}
    for folder, _dirs, names in os.walk(library.root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                out[os.path.relpath(path, library.root)] = handle.read()
    return out


def crossref_asked(server) -> list[tuple[str, str | None]]:
    return [(r.path, r.query.get("query.bibliographic")) for r in server.requests]


def untitled_elsewhere(library: Library) -> None:
    """QZO (an abstract, no title) at AAAI, a venue OpenReview does not list."""
    path = library.record_path(QZO)
    path.write_text(path.read_text("utf-8").replace("venue: ICLR", "venue: AAAI"), "utf-8")
    PaperIndex(library).open()  # (the index takes the edit in)


# --- what is asked, and what it fills --------------------------------------------------------


def test_a_title_with_one_clear_match(library, services):
    report = run(library, services, [RESNET])
    assert services.arxiv.queries() == [
        {
            "search_query": "ti:deep AND ti:residual AND ti:learning AND ti:image AND ti:recognition",
            "max_results": "5",
        }
    ]
    assert crossref_asked(services.crossref) == [
        ("/works", "Deep Residual Learning for Image Recognition CVPR 2016")
    ]
    assert services.openreview.requests == []  # (CVPR is not an OpenReview venue)
    (outcome,) = report.outcomes
    assert [(look.service, look.match.how) for look in outcome.lookups] == [
        ("arXiv", "title"),
        ("Crossref", "title"),
    ]
    assert [(c.field, c.action, c.source) for c in outcome.changes] == [
        ("authors", "fill", "arxiv:1512.03385v1"),
        ("abstract", "fill", "arxiv:1512.03385v1"),
        ("urls", "add", "arxiv:1512.03385v1"),
        ("urls", "add", "crossref:10.1109/CVPR.2016.90"),
    ]
    record = library.load(RESNET)
    assert (record.authors, record.abstract) == (HE, RESNET_ABSTRACT)
    assert record.urls == [
        "https://arxiv.org/abs/1512.03385",
        "https://arxiv.org/pdf/1512.03385",
        "https://doi.org/10.1109/CVPR.2016.90",
    ]
    assert [(s.document, s.name, s.format, s.fields, s.fetched) for s in record.sources[1:]] == [
        ("arxiv:1512.03385v1", "arXiv", "arxiv", ["authors", "abstract", "urls"], DAY),
        ("crossref:10.1109/CVPR.2016.90", "Crossref", "crossref", ["urls"], DAY),
    ]
    assert (record.venue, record.year, record.conflicts) == ("CVPR", 2016, [])
    assert report.written == [RESNET]


def test_arxiv_ids_of_the_links_are_asked_together(library, services):
    report = run(library, services, [SPARSE, LATENT])
    assert services.arxiv.queries() == [{"id_list": "2501.00001,2502.00002", "max_results": "2"}]
    # the DOI arXiv's paper names, asked of Crossref; the other has neither DOI nor match
    assert crossref_asked(services.crossref) == [
        ("/works/10.1000/sparse", None),
        ("/works", "Latent Vision Memory 2025"),
    ]
    sparse, latent = report.outcomes
    assert [(look.service, look.match.how) for look in sparse.lookups] == [
        ("arXiv", "link"),
        ("Crossref", "link"),
    ]
    assert library.load(SPARSE).urls == [
        "https://arxiv.org/abs/2501.00001",
        "https://arxiv.org/pdf/2501.00001",
        "https://doi.org/10.1000/sparse",
    ]
    assert latent.changes == []
    assert latent.reason == "arXiv has no paper 2502.00002; Crossref: no work matches"


def test_an_untitled_paper_is_asked_by_its_abstracts_words(seeded_library, services):
    untitled_elsewhere(seeded_library)
    qzo = seeded_library.load(QZO)
    plain = qzo.abstract.replace("18$\\times$", "18×")  # (arXiv's, without the LaTeX)
    services.arxiv.add(
        paper("2506.12345", title="Quantized Zeroth-order Optimization", summary=plain),
        paper("2506.99999", title="Another Zeroth-order Paper", summary="Optimization alone."),
    )
    report = run(seeded_library, services, [QZO])
    assert services.arxiv.queries() == [
        {
            "search_query": "abs:exponentially AND abs:gpu AND abs:optimization AND "
            "abs:approximates AND abs:qzo AND abs:llms",
            "max_results": "5",
        }
    ]
    # Crossref is asked by the title arXiv gave
    assert crossref_asked(services.crossref) == [
        ("/works", "Quantized Zeroth-order Optimization AAAI 2026")
    ]
    lookups = report.outcomes[0].lookups
    assert [(look.service, look.match.how, look.reason) for look in lookups] == [
        ("arXiv", "abstract", None),
        ("Crossref", "none", "Crossref: no work matches"),
    ]
    record = seeded_library.load(QZO)
    assert (record.title, record.abstract) == ("Quantized Zeroth-order Optimization", qzo.abstract)
    assert record.sources[-1].document == "arxiv:2506.12345v1"


def test_an_untitled_paper_arxiv_does_not_find_is_not_asked_of_crossref(seeded_library, services):
    untitled_elsewhere(seeded_library)
    report = run(seeded_library, services, [QZO])
    assert report.outcomes[0].reason == (
        "arXiv: no paper matches; Crossref: no title to search by (it does not search abstracts)"
    )
    assert services.crossref.requests == []


def test_a_paper_openreviews_list_lacks_is_asked_elsewhere(seeded_library, services):
    services.openreview.add(ICLR, [note("Fx", title="Unrelated", abstract="Protein folding.")])
    services.arxiv.add(
        paper("2510.00007", title="Convergence of Muon with Newton-Schulz", authors=["Ada Muon"])
    )
    outcome = run(seeded_library, services, [MUON]).outcomes[0]
    assert [(look.service, look.match.how) for look in outcome.lookups] == [
        ("OpenReview", "none"),
        ("arXiv", "title"),
        ("Crossref", "none"),
    ]
    assert outcome.reason is None
    assert outcome.as_dict()["filled_by"] == ["arXiv"]
    assert seeded_library.load(MUON).authors == ["Ada Muon"]


def test_a_near_tie_is_reported_and_left_alone(library, services):
    services.arxiv.add(
        paper("2403.00001", title="Tabular Reward Tokens for Clinical Planning Agents"),
        paper("2403.00002", title="Tabular Reward Tokens for Clinical Planning at Scale"),
    )
    before = everything(library)
    report = run(library, services, [TABULAR], dry_run=True)
    (outcome,) = report.outcomes
    assert outcome.lookups[0].match.how == "ambiguous" and outcome.changes == []
    assert outcome.reason == (
        "could be arxiv:2403.00002v1 or arxiv:2403.00001v1 (scores 1.00 and 1.00); left alone; "
        "Crossref: no work matches"
    )
    run(library, services, [TABULAR])
    assert {k: v for k, v in everything(library).items() if not k.startswith(".cache")} == before


def test_a_value_the_record_holds_is_kept_and_the_other_noted(library, services):
    path = library.record_path(RESNET)
    path.write_text(
        path.read_text("utf-8").replace("abstract: null", "abstract: My own notes."), "utf-8"
    )
    run(library, services, [RESNET])
    record = library.load(RESNET)
    assert record.abstract == "My own notes."
    assert record.conflicts == [
        {"field": "abstract", "value": RESNET_ABSTRACT, "source": "arxiv:1512.03385v1"}
    ]


# --- the cache -------------------------------------------------------------------------------


def test_a_second_run_asks_nothing_and_changes_nothing(library, services):
    first = run(library, services)
    assert first.written == [SPARSE, RESNET]
    assert first.asked == {"arXiv": (3, []), "Crossref": (3, [])}
    # (and each paper a search brought, as the answer to asking for its id or DOI)
    assert sorted(p.parent.name for p in (library.root / ".cache").rglob("*.json")) == (
        ["arxiv"] * 5 + ["crossref"] * 5
    )
    asked = len(services.arxiv.requests), len(services.crossref.requests)
    before = everything(library)
    again = run(library, services)
    assert (len(services.arxiv.requests), len(services.crossref.requests)) == asked
    assert again.asked == {"arXiv": (0, [DAY] * 4), "Crossref": (0, [DAY] * 4)}
    assert (again.written, again.changed) == ([], [])
    assert everything(library) == before


def test_refresh_asks_again(library, services):
    run(library, services, [RESNET])
    report = run(library, services, [RESNET], refresh=True)
    assert report.asked == {"arXiv": (1, []), "Crossref": (1, [])}
    assert len(services.arxiv.queries()) == 2 and report.written == []


def test_a_dry_run_keeps_nothing(library, services):
    before = everything(library)
    report = run(library, services, dry_run=True)
    assert len(report.changed) == 2 and everything(library) == before


def test_a_damaged_answer_is_asked_again(library, services):
    run(library, services, [RESNET])
    for kept in (library.root / ".cache" / "arxiv").glob("*.json"):
        kept.write_text('{"question": "id 1512.03385", "papers": ["<entry>"', "utf-8")
    report = run(library, services, [RESNET])
    assert report.asked["arXiv"] == (1, [])
    assert services.arxiv.queries()[-1] == {"id_list": "1512.03385", "max_results": "1"}


# --- failures leave the library as it was -------------------------------------------------------


def _fails_cleanly(library, services, message, **kwargs):
    before = everything(library)
    with pytest.raises(ServiceError) as caught:
        run(library, services, **kwargs)
    assert re.fullmatch(message, str(caught.value)), str(caught.value)
    assert everything(library) == before


def test_a_429_is_waited_out(library, services):
    services.arxiv.rate_limit(times=1, retry_after="0")
    report = run(library, services, [RESNET])
    assert report.written == [RESNET] and len(services.arxiv.requests) == 2


def test_a_429_beyond_patience(library, services):
    services.arxiv.rate_limit(times=1, retry_after="600")
    url = re.escape(services.arxiv.url)
    _fails_cleanly(
        library,
        services,
        rf"arXiv \({url}\) is rate-limiting requests \(HTTP 429\) and asks to wait 600 s, "
        r"more than 60 s; try again later",
    )


def test_a_timeout(library, services, monkeypatch):
    monkeypatch.setattr("papercli.remote.service.TIMEOUT", 0.3)
    services.crossref.stall(2.0)
    url = re.escape(services.crossref.url)
    _fails_cleanly(
        library,
        services,
        rf"Crossref \({url}\) did not answer within 0\.3 s for query\.bibliographic; "
        "try again later",
        ids=[RESNET],
    )


def test_malformed_xml(library, services):
    services.arxiv.respond("<feed><entry>")
    _fails_cleanly(
        library,
        services,
        rf"arXiv \({re.escape(services.arxiv.url)}\): malformed reply for "
        r"2502\.00002, 2501\.00001: not XML \(.*\)",
    )


def test_malformed_json(library, services):
    services.crossref.respond('{"status": "ok", "message-type": "work-list", "message": {')
    _fails_cleanly(
        library,
        services,
        rf"Crossref \({re.escape(services.crossref.url)}\): malformed reply for "
        r"query\.bibliographic: not JSON \(.*\)",
        ids=[RESNET],
    )


def test_offline(library, services):
    services.apis.arxiv = f"http://127.0.0.1:{unused_port()}"
    _fails_cleanly(
        library,
        services,
        r"cannot reach arXiv \(http://127\.0\.0\.1:\d+\): .*",
    )


# --- the command ----------------------------------------------------------------------------


def test_the_command_says_where_each_paper_was_found(library, services):
    lib = ["--library", str(library.root)]
    done = papers(*lib, "enrich", "--all", env=services.env)
    assert done.stdout.splitlines() == [
        f"{SPARSE}\tauthors\tfill\tAda Lovelace; Alan Turing",
        f"{SPARSE}\tabstract\tfill\tWe learn graph policies with sparse kernels.",
        f"{SPARSE}\turls\tadd\thttps://arxiv.org/pdf/2501.00001; https://doi.org/10.1000/sparse",
        f"{RESNET}\tauthors\tfill\tKaiming He; Xiangyu Zhang; Shaoqing Ren; Jian Sun",
        f"{RESNET}\tabstract\tfill\t{RESNET_ABSTRACT}",
        f"{RESNET}\turls\tadd\thttps://arxiv.org/abs/1512.03385; https://arxiv.org/pdf/1512.03385",
        f"{RESNET}\turls\tadd\thttps://doi.org/10.1109/CVPR.2016.90",
    ]
    assert done.stderr.splitlines() == [
        "papers: arXiv: 3 requests",
        "papers: Crossref: 3 requests",
        "papers: 4 papers: 1 by link, 1 by title (arXiv); 1 by link, 1 by title (Crossref); "
        "changed 2",
        f"papers: {TABULAR}: arXiv: no paper matches; Crossref: no work matches",
        f"papers: {LATENT}: arXiv has no paper 2502.00002; Crossref: no work matches",
        f"papers: {SPARSE}: found on arXiv by its arXiv id, on Crossref by its DOI",
        f"papers: {RESNET}: found on arXiv by its title, on Crossref by its title",
    ]
    again = papers(*lib, "enrich", RESNET, "--json", env=services.env)
    (shown,) = json.loads(again.stdout)
    today = datetime.date.today().isoformat()
    assert (shown["match"], shown["filled_by"], shown["changes"]) == ("link", [], [])
    assert shown["lookups"] == [
        {
            "service": "arXiv",
            "match": "link",
            "paper": "arxiv:1512.03385v1",
            "fetched": today,
            "reason": None,
        },
        {
            "service": "Crossref",
            "match": "link",
            "paper": "crossref:10.1109/CVPR.2016.90",
            "fetched": today,
            "reason": None,
        },
    ]
    assert again.stderr.splitlines()[:2] == [
        f"papers: arXiv: 1 answer cached (fetched {today})",
        f"papers: Crossref: 1 answer cached (fetched {today})",
    ]


def test_the_command_fails_in_one_line(library, services):
    env = {**services.env, "PAPERS_CROSSREF_API": f"http://127.0.0.1:{unused_port()}"}
    result = papers("--library", str(library.root), "enrich", RESNET, env=env, check=False)
    assert result.returncode == 2
    assert re.fullmatch(
        r"papers: cannot reach Crossref \(http://127\.0\.0\.1:\d+\): .*\n", result.stderr
    )


@pytest.mark.slow
def test_the_readme_shows_what_papers_enrich_prints(tmp_path, services):
    """The README's example of papers of other venues, run as it is shown: on a copy of the
    bundled library whose ICLR papers OpenReview's stand-in lists among 5,300 others, a
    pipe, against the stand-ins above (the README's day is the day it was run)."""
    import shutil
    import subprocess

    from enrich.test_enrich import venue_notes
    from testing import BUNDLED, PAPERS, ROOT

    section = (ROOT / "README.md").read_text("utf-8").split("### Fill in titles", 1)[1]
    block = re.findall(r"```\n(.*?)```", section.split("\n## ", 1)[0], re.S)[1]
    shown_day = re.search(r"fetched (\d{4}-\d\d-\d\d)\)", block).group(1)
    library = tmp_path / "library"
    shutil.copytree(BUNDLED, library, ignore=shutil.ignore_patterns(".index", ".lock"))
    services.openreview.add(ICLR, venue_notes(Library(library), 5300))
    (tmp_path / "refs.bib").write_text(
        BIB.replace(
            BIB[BIB.index("@article{turing") : BIB.index("@inproceedings{hopper")], ""
        ).lstrip(),
        "utf-8",
    )
    environ = {k: v for k, v in services.env.items() if k != "COLUMNS"}
    environ.update(
        PAPERS_LIBRARY=str(library), PATH=f"{PAPERS.parent}{os.pathsep}{environ['PATH']}"
    )
    subprocess.run(
        "papers enrich --all",
        shell=True,
        env=environ,
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    today = datetime.date.today().isoformat()
    for step in block.split("$ ")[1:]:
        command, shown = step.split("\n", 1)
        result = subprocess.run(
            command, shell=True, capture_output=True, text=True, env=environ, cwd=tmp_path
        )
        assert (result.stderr + result.stdout).replace(today, shown_day) == shown, command
