"""``papers add`` end to end (Typer's runner, this process) against the local arXiv,
Crossref and OpenReview stand-ins: ids in every form, the published version, titles, papers
already in the library, and failures that leave the library as it was."""

from __future__ import annotations

import datetime
import json
import os

import pytest

from add.services import paper, work
from enrich.openreview_server import note
from papercli.store.library import Library
from testing import invoke

TODAY = datetime.date.today().isoformat()
MUON = "iclr2026-convergence-muon-newton-schulz"  # a digest paper: title, no authors
QZO = "iclr2026-qzo"  # an abstract-list paper: abstract, no title


@pytest.fixture(autouse=True)
def no_pause(monkeypatch):
    """arXiv's 3 s between requests, shrunk: these tests ask it several times."""
    monkeypatch.setattr("papercli.remote.arxiv.INTERVAL", 0.0)


@pytest.fixture
def services(arxiv_api, crossref_api, openreview):
    from types import SimpleNamespace

    env = {
        "PAPERS_ARXIV_API": arxiv_api.url,
        "PAPERS_CROSSREF_API": crossref_api.url,
        "PAPERS_OPENREVIEW_API": openreview.url,
    }
    return SimpleNamespace(arxiv=arxiv_api, crossref=crossref_api, forums=openreview, env=env)


def add(library, services, *args, stdin=None):
    root = library.root if isinstance(library, Library) else library
    return invoke("--library", str(root), "add", *args, env=services.env, stdin=stdin)


def everything(root) -> dict[str, bytes]:
    """Every file of the library (index included)."""
    out = {}
    for folder, _dirs, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                out[os.path.relpath(path, root)] = handle.read()
    return out


def records(root) -> dict[str, dict]:
    library = Library(root)
    return {
        p.stem: library.load_path(p).to_dict() for p in sorted(library.papers_dir.glob("*.yaml"))
    }


# --- ids in every form ---------------------------------------------------------------------


def test_ids_in_every_form_become_records(services, tmp_path):
    services.arxiv.add(
        paper("2501.00001", title="First Paper on Sparse Kernels", version=2),
        paper("2502.00002", title="Second Paper on Graph Policies", version=3),
        paper("2503.00003", title="Third Paper on Reward Tokens"),
        paper("2504.00004", title="Fourth Paper on Latent Vision"),
        paper("cs/0112017", title="An Old Paper on Parsing", published="2001-12-15T00:00:00Z"),
    )
    services.crossref.add(
        work("10.1000/a", title="A Journal Paper", container="Nature", year=2015),
        work("10.1000/b", title="Another Journal Paper", container="Science", year=2016),
        work(
            "10.1109/c",
            title="A Conference Paper",
            type="proceedings-article",
            container="Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition",
            year=2017,
        ),
    )
    services.forums.add(
        "ICLR.cc/2026/Conference",
        [
            note("Fa1b2c3d4", title="Bare Forum Paper", abstract="About a bare forum."),
            note("Fz9y8x7w6", title="Forum Link Paper", abstract="About a forum link."),
            note("Fp1q2r3s4", title="PDF Link Paper", abstract="About a PDF link."),
        ],
    )
    lib = tmp_path / "lib"
    result = add(
        lib,
        services,
        "2501.00001",
        "arXiv:2502.00002v2",
        "https://arxiv.org/abs/2503.00003",
        "https://arxiv.org/pdf/2504.00004v1",
        "cs/0112017",
        "Fa1b2c3d4",
        "https://openreview.net/forum?id=Fz9y8x7w6",
        "https://openreview.net/pdf?id=Fp1q2r3s4",
        "10.1000/a",
        "doi:10.1000/b",
        "https://doi.org/10.1109/c",
    )
    assert (result.exit_code, result.stderr) == (0, "papers: 11 papers: 11 added\n")
    assert result.stdout.splitlines() == [
        "added\tarxiv2025-first-paper-sparse-kernels\tarXiv\t2025\tFirst Paper on Sparse Kernels",
        "added\tarxiv2025-second-paper-graph-policies\tarXiv\t2025\tSecond Paper on Graph Policies",
        "added\tarxiv2025-third-paper-reward-tokens\tarXiv\t2025\tThird Paper on Reward Tokens",
        "added\tarxiv2025-fourth-paper-latent-vision\tarXiv\t2025\tFourth Paper on Latent Vision",
        "added\tarxiv2001-old-paper-parsing\tarXiv\t2001\tAn Old Paper on Parsing",
        "added\ticlr2026-bare-forum-paper\tICLR\t2026\tBare Forum Paper",
        "added\ticlr2026-forum-link-paper\tICLR\t2026\tForum Link Paper",
        "added\ticlr2026-pdf-link-paper\tICLR\t2026\tPDF Link Paper",
        "added\tnature2015-journal-paper\tNature\t2015\tA Journal Paper",
        "added\tscience2016-another-journal-paper\tScience\t2016\tAnother Journal Paper",
        "added\tcvpr2017-conference-paper\tCVPR\t2017\tA Conference Paper",
    ]
    assert services.arxiv.queries() == [  # one request for every arXiv id
        {
            "id_list": "2501.00001,2502.00002v2,2503.00003,2504.00004v1,cs/0112017",
            "max_results": "5",
        }
    ]
    saved = records(lib)
    first = saved["arxiv2025-first-paper-sparse-kernels"]
    assert first["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert first["abstract"] == "The abstract of First Paper on Sparse Kernels."
    assert first["urls"] == ["https://arxiv.org/abs/2501.00001", "https://arxiv.org/pdf/2501.00001"]
    assert first["sources"] == [
        {
            "document": "arxiv:2501.00001v2",
            "name": "arXiv",
            "line": 0,
            "format": "arxiv",
            "fields": ["title", "authors", "abstract", "urls"],
            "fetched": TODAY,
        }
    ]
    assert (
        saved["arxiv2025-second-paper-graph-policies"]["sources"][0]["document"]
        == "arxiv:2502.00002v2"
    )
    forum = saved["iclr2026-bare-forum-paper"]
    assert forum["urls"] == [
        "https://openreview.net/forum?id=Fa1b2c3d4",
        "https://openreview.net/pdf/Fa1b2c3d4.pdf",
    ]
    assert forum["sources"][0]["document"] == "openreview:Fa1b2c3d4"
    doi = saved["cvpr2017-conference-paper"]
    assert (doi["kind"], doi["urls"], doi["sources"][0]["document"]) == (
        "inproceedings",
        ["https://doi.org/10.1109/c"],
        "crossref:10.1109/c",
    )
    again = add(lib, services, "https://arxiv.org/abs/2501.00001v1", "10.1000/A")
    assert (
        again.stdout.splitlines()[1]
        == "unchanged\tnature2015-journal-paper\tNature\t2015\tA Journal Paper"
    )
    assert len(records(lib)) == 11  # one paper, one record


def test_the_published_version_wins(services, tmp_path):
    from papercli.enrich import cache

    services.arxiv.add(
        paper("2401.00001", title="Preprint With a DOI", doi="10.1000/pub"),
        paper("2401.00002", title="Preprint With a Journal Reference", journal_ref="ICML 2024"),
        paper("2401.00003", title="Preprint OpenReview Accepted"),
        paper("2401.00004", title="Preprint Nowhere Else"),
    )
    services.crossref.add(
        work("10.1000/pub", title="Preprint with a DOI", container="Journal of Examples", year=2025)
    )
    lib = Library(tmp_path / "lib")
    raw = [
        note(
            "Facc",
            title="Preprint OpenReview Accepted",
            venueid="NeurIPS.cc/2024/Conference",
            venue="NeurIPS 2024 poster",
        )
    ]
    cache.save(lib, cache.VenueList("NeurIPS.cc/2024/Conference", "x", "2026-11-30", raw))
    result = add(lib, services, "2401.00001", "2401.00002", "2401.00003", "2401.00004")
    assert result.stdout.splitlines() == [
        "added\tje2025-preprint-doi\tJournal of Examples\t2025\tPreprint With a DOI",
        "added\ticml2024-preprint-journal-reference\tICML\t2024\tPreprint With a Journal Reference",
        "added\tneurips2024-preprint-openreview-accepted\tNeurIPS\t2024\tPreprint OpenReview Accepted",
        "added\tarxiv2025-preprint-nowhere-else\tarXiv\t2025\tPreprint Nowhere Else",
    ]
    saved = records(lib.root)
    doi = saved["je2025-preprint-doi"]
    assert (doi["kind"], doi["urls"]) == (
        "article",
        [
            "https://arxiv.org/abs/2401.00001",
            "https://arxiv.org/pdf/2401.00001",
            "https://doi.org/10.1000/pub",
        ],
    )
    assert [s["document"] for s in doi["sources"]] == ["arxiv:2401.00001v1", "crossref:10.1000/pub"]
    accepted = saved["neurips2024-preprint-openreview-accepted"]
    assert [(s["document"], s["fetched"]) for s in accepted["sources"]] == [
        ("arxiv:2401.00003v1", TODAY),
        ("openreview:Facc", "2026-11-30"),
    ]
    assert accepted["urls"][-2:] == [
        "https://openreview.net/forum?id=Facc",
        "https://openreview.net/pdf/Facc.pdf",
    ]


# --- titles ---------------------------------------------------------------------------------


def test_a_title_with_one_clear_match(services, tmp_path):
    services.arxiv.add(
        paper(
            "1412.6980",
            title="Adam: A Method for Stochastic Optimization",
            authors=["Diederik P. Kingma", "Jimmy Ba"],
            journal_ref="ICLR 2015",
        ),
        paper("1706.03762", title="Attention Is All You Need"),
    )
    services.crossref.add(
        work(
            "10.1000/other",
            title="Stochastic Optimization in Practice",
            authors=[("Grace", "Hopper")],
        )
    )
    result = add(
        tmp_path / "lib",
        services,
        "Kingma, D. P., & Ba, J. (2015). Adam: A method for stochastic optimization. ICLR.",
    )
    assert (result.exit_code, result.stdout) == (
        0,
        "added\ticlr2015-adam\tICLR\t2015\tAdam: A Method for Stochastic Optimization\n",
    )
    assert services.arxiv.queries() == [
        {
            "search_query": "ti:adam AND ti:method AND ti:stochastic AND ti:optimization",
            "max_results": "5",
        }
    ]
    assert services.crossref.requests[0].query["query.bibliographic"].startswith("Kingma, D. P.")
    exact = add(tmp_path / "lib", services, "attention is all you need")
    assert (
        exact.stdout
        == "added\tarxiv2025-attention-all-you-need\tarXiv\t2025\tAttention Is All You Need\n"
    )


def near_tie(services):
    services.arxiv.add(
        paper(
            "1412.6980",
            title="Adam: A Method for Stochastic Optimization",
            authors=["Diederik P. Kingma", "Jimmy Ba"],
        ),
        paper(
            "2000.00002",
            title="Stochastic Optimization With Adam Revisited",
            authors=["Grace Hopper"],
            published="2020-01-01T00:00:00Z",
        ),
    )
    services.crossref.add(
        work(
            "10.1000/sgd",
            title="Stochastic Optimization: Adam and Friends",
            authors=[("Alan", "Turing")],
            container="Journal of Examples",
            year=2021,
        )
    )


def test_a_near_tie_on_a_pipe_lists_the_candidates_and_writes_nothing(services, seeded_library):
    near_tie(services)
    services.arxiv.add(paper("2501.00001", title="A Clear Paper"))
    before = everything(seeded_library.root)
    result = add(seeded_library, services, "2501.00001", "adam stochastic optimization")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "adam stochastic optimization\t1\t1.000\tarXiv\tarXiv\t2025\tAdam: A Method for Stochastic Optimization\tDiederik P. Kingma; Jimmy Ba\thttps://arxiv.org/abs/1412.6980",
        "adam stochastic optimization\t2\t1.000\tarXiv\tarXiv\t2020\tStochastic Optimization With Adam Revisited\tGrace Hopper\thttps://arxiv.org/abs/2000.00002",
        "adam stochastic optimization\t3\t1.000\tCrossref\tJournal of Examples\t2021\tStochastic Optimization: Adam and Friends\tAlan Turing\thttps://doi.org/10.1000/sgd",
    ]
    assert result.stderr == (
        "papers: 'adam stochastic optimization': 3 papers could be meant (on standard output); "
        "add one by its id or link, or run papers add on a terminal to choose\n"
    )
    assert everything(seeded_library.root) == before  # not even the clear paper
    as_json = add(seeded_library, services, "adam stochastic optimization", "--json")
    assert as_json.exit_code == 1
    assert [c["link"] for c in json.loads(as_json.stdout)[0]["candidates"]] == [
        "https://arxiv.org/abs/1412.6980",
        "https://arxiv.org/abs/2000.00002",
        "https://doi.org/10.1000/sgd",
    ]


def test_a_title_no_service_knows(services, tmp_path):
    result = add(tmp_path / "lib", services, "zzqq unheard of words")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "papers: no paper found for 'zzqq unheard of words' on arXiv, on Crossref or in the "
        "OpenReview lists papers enrich downloaded; nothing was added\n"
    )
    assert not (tmp_path / "lib").exists()


def test_a_bare_word_no_forum_has_is_looked_up_as_a_title(services, tmp_path):
    services.arxiv.add(paper("1904.09675", title="BERTScore"))
    result = add(tmp_path / "lib", services, "BERTScore")
    assert result.stdout == "added\tarxiv2025-bertscore\tarXiv\t2025\tBERTScore\n"
    assert [r.query for r in services.forums.requests] == [{"id": "BERTScore"}]


# --- papers already in the library -----------------------------------------------------------


def test_a_digest_paper_added_from_arxiv_gains_authors_and_links(services, seeded_library):
    services.arxiv.add(
        paper(
            "2503.11111",
            title="Convergence of Muon with Newton-Schulz",
            authors=["Ada Muon", "Alan Turing"],
            summary="We prove that Muon converges.",
        ),
    )
    before = seeded_library.load(MUON)
    result = add(seeded_library, services, "2503.11111")
    assert (result.exit_code, result.stdout) == (
        0,
        f"merged\t{MUON}\tICLR\t2026\tConvergence of Muon with Newton-Schulz\n",
    )
    after = seeded_library.load(MUON)
    assert (after.authors, after.abstract, after.venue, after.year) == (
        ["Ada Muon", "Alan Turing"],
        "We prove that Muon converges.",
        "ICLR",
        2026,
    )
    assert after.urls == ["https://arxiv.org/abs/2503.11111", "https://arxiv.org/pdf/2503.11111"]
    assert after.summary_zh == before.summary_zh and after.citekey == before.citekey
    assert [s.document for s in after.sources][-1] == "arxiv:2503.11111v1"
    assert len(list(seeded_library.papers_dir.glob("*.yaml"))) == 63  # no duplicate
    found = invoke("--library", str(seeded_library.root), "search", "arxiv.org/abs/2503.11111")
    assert found.stdout.split("\t")[0] == MUON  # the index has the new links
    again = add(seeded_library, services, "2503.11111v1")
    assert (
        again.stdout == f"unchanged\t{MUON}\tICLR\t2026\tConvergence of Muon with Newton-Schulz\n"
    )


def test_a_preprint_published_elsewhere_is_still_the_digest_paper(services, seeded_library):
    """Its journal reference names another venue; as a preprint of the same title it is
    the same paper (the merge rule's third case), not a second record."""
    services.arxiv.add(
        paper(
            "2503.11111", title="Convergence of Muon with Newton-Schulz", journal_ref="NeurIPS 2025"
        )
    )
    result = add(seeded_library, services, "2503.11111")
    assert result.stdout == f"merged\t{MUON}\tICLR\t2026\tConvergence of Muon with Newton-Schulz\n"
    assert len(list(seeded_library.papers_dir.glob("*.yaml"))) == 63


def test_an_untitled_paper_is_found_by_its_abstract_and_a_different_value_kept(
    services, seeded_library
):
    record = seeded_library.load(QZO)
    services.crossref.add(
        work(
            "10.1000/qzo",
            title="QZO: Quantized Zeroth-Order Fine-Tuning",
            container="ICLR",
            year=2026,
            abstract=record.abstract.replace("\n", " "),
        )
    )
    result = add(seeded_library, services, "10.1000/qzo", "--tag", "Reading List")
    assert result.stdout == f"merged\t{QZO}\tICLR\t2026\tQZO: Quantized Zeroth-Order Fine-Tuning\n"
    after = seeded_library.load(QZO)
    assert after.title == "QZO: Quantized Zeroth-Order Fine-Tuning" and after.conflicts == []
    assert "reading-list" in after.tags and after.tag_edits == {"added": ["reading-list"]}
    services.crossref.add(
        work("10.1000/qzo", title="Another Title for QZO", container="ICLR", year=2026)
    )
    services.arxiv.add(
        paper(
            "2502.22222",
            title="QZO: Quantized Zeroth-Order Fine-Tuning",
            doi="10.1000/qzo",
            summary=record.abstract,
        )
    )
    result = add(seeded_library, services, "2502.22222")
    after = seeded_library.load(QZO)
    assert after.title == "QZO: Quantized Zeroth-Order Fine-Tuning"  # kept; the other noted
    assert after.conflicts == [
        {"field": "title", "value": "Another Title for QZO", "source": "crossref:10.1000/qzo"}
    ]


def test_a_dry_run_writes_nothing_and_json_shows_the_records(services, seeded_library, tmp_path):
    services.arxiv.add(paper("2501.00001", title="A Clear Paper"))
    invoke("--library", str(seeded_library.root), "index")  # (a copied library's index catches up)
    before = everything(seeded_library.root)
    result = add(seeded_library, services, "2501.00001", "--dry-run", "--json")
    assert result.exit_code == 0 and everything(seeded_library.root) == before
    [shown] = json.loads(result.stdout)
    assert (shown["item"], shown["action"], shown["id"], shown["title"]) == (
        "2501.00001",
        "new",
        "arxiv2025-clear-paper",
        "A Clear Paper",
    )
    assert result.stderr == "papers: 1 paper: 1 added (dry run: nothing written)\n"
    fresh = add(tmp_path / "none", services, "2501.00001", "--dry-run")
    assert (
        fresh.stdout.startswith("added\tarxiv2025-clear-paper") and not (tmp_path / "none").exists()
    )


# --- failures ---------------------------------------------------------------------------------


def test_a_429_is_waited_out(services, tmp_path):
    services.arxiv.add(paper("2501.00001", title="A Clear Paper"))
    services.arxiv.rate_limit(times=1, retry_after="0")
    result = add(tmp_path / "lib", services, "2501.00001")
    assert result.exit_code == 0 and len(services.arxiv.requests) == 2


@pytest.mark.parametrize(
    ("item", "script", "message"),
    [
        (
            "2501.00001",
            lambda s: s.arxiv.rate_limit(retry_after="3600"),
            "arXiv ({arxiv}) is rate-limiting requests (HTTP 429) and asks to wait 3600 s, more than 60 s; try again later",
        ),
        (
            "2501.00001",
            lambda s: s.arxiv.stall(3.0),
            "arXiv ({arxiv}) did not answer within 0.3 s for 2501.00001; try again later",
        ),
        (
            "2501.00001",
            lambda s: s.arxiv.respond("<feed><entry>"),
            "arXiv ({arxiv}): malformed reply for 2501.00001: not XML (no element found: line 1, column 13)",
        ),
        (
            "10.1000/x",
            lambda s: s.crossref.respond("{oops"),
            "Crossref ({crossref}): malformed reply for DOI 10.1000/x: not JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))",
        ),
        (
            "Fa1b2c3d4",
            lambda s: s.forums.respond({"notes": "none"}),
            "OpenReview ({forums}): malformed reply for note Fa1b2c3d4: notes is text, not a list",
        ),
        (
            "2501.00001",
            lambda s: s.env.update(PAPERS_ARXIV_API=s.closed),
            "cannot reach arXiv ({closed}): [Errno 111] Connection refused",
        ),
        ("2501.99999", lambda s: None, "arXiv has no paper 2501.99999"),
        ("10.1000/none", lambda s: None, "Crossref has no work with the DOI 10.1000/none"),
        ("openreview:Nothing12", lambda s: None, "OpenReview has no forum Nothing12"),
    ],
)
def test_a_failure_is_one_line_and_changes_nothing(
    services, seeded_library, monkeypatch, item, script, message
):
    from stand_in import unused_port

    monkeypatch.setattr("papercli.remote.service.TIMEOUT", 0.3)
    services.arxiv.add(paper("2501.00001", title="A Clear Paper"))
    services.crossref.add(work("10.1000/x"))
    services.forums.add("ICLR.cc/2026/Conference", [note("Fa1b2c3d4")])
    services.closed = f"http://127.0.0.1:{unused_port()}"
    script(services)
    before = everything(seeded_library.root)
    result = add(seeded_library, services, "2501.00001", item)
    urls = {
        "arxiv": services.arxiv.url,
        "crossref": services.crossref.url,
        "forums": services.forums.url,
        "closed": services.closed,
    }
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        f"papers: {message.format(**urls)}\n",
    )
    assert everything(seeded_library.root) == before


def test_a_failed_add_makes_no_library(tmp_path):
    result = invoke("--library", str(tmp_path / "lib"), "add", "2501.00001")
    assert result.exit_code == 2 and result.stderr.startswith("papers: cannot reach arXiv (")
    assert not (tmp_path / "lib").exists()


def test_service_text_is_inert(services, tmp_path):
    """Escapes are removed, markup stays text, an invisible control shows as a code."""
    title = "[bold red]Loud[/] \x1b[31mRed\x1b[0m Title\u202e"
    services.crossref.add(work("10.1000/x", title=title, authors=[("Ada\x07", "Lovelace")]))
    lib = tmp_path / "lib"
    result = add(lib, services, "10.1000/x")
    assert result.stdout == (
        "added\tje2025-bold-red-loud-red-title\tJournal of Examples\t2025\t"
        "[bold red]Loud[/] Red Title<U+202E>\n"
    )
    saved = records(lib)["je2025-bold-red-loud-red-title"]
    assert (saved["title"], saved["authors"]) == (
        "[bold red]Loud[/] Red Title\u202e",
        ["Ada Lovelace"],
    )
