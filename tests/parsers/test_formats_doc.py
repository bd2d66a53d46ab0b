"""docs/formats.md is what the parsers read: every ``example`` block ingests, giving exactly
the papers listed here, and every ``refused`` block is refused with the line the page
shows under it."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from papercli.cli.app import app
from papercli.errors import DocumentError
from papercli.parsers import ParseWarning, parse_bytes
from testing import ROOT

PAGE = (ROOT / "docs" / "formats.md").read_text("utf-8")
BLOCKS = re.findall(r"^```([^\n]*)\n(.*?)^```$", PAGE, re.M | re.S)
EXAMPLES = [body for info, body in BLOCKS if info.endswith(" example")]
REFUSED = [
    (body, BLOCKS[i + 1][1])  # the block, and the console block under it
    for i, (info, body) in enumerate(BLOCKS)
    if info.endswith(" refused")
]

MUON = "Convergence of Muon with Newton-Schulz"
MUON_ZH = "首次为实际使用的 Muon 优化器提供非凸收敛保证。"
RRNCO = "RRNCO: Towards Real-World Routing with Neural Combinatorial Optimization"
RRNCO_ZH = "提出 RRNCO 架构，显著缩小了神经组合优化从仿真到真实世界部署的差距。"
RRNCO_ABSTRACT = (
    "The practical deployment of Neural Combinatorial Optimization (NCO) for Vehicle "
    "Routing Problems (VRPs) is hindered by a critical sim-to-real gap. We introduce RRNCO, "
    "a novel architecture specifically designed to address these complexities."
)
EF21 = (
    "Recent optimizers like Muon, Scion, and Gluon have pushed the frontier of large-scale "
    "deep learning by exploiting layer-wise linear minimization oracles over non-Euclidean "
    "norm balls. We introduce EF21-Muon, the first communication-efficient, non-Euclidean "
    "LMO-based optimizer with rigorous convergence guarantees."
)
LLR = (
    "Recent neural solvers have demonstrated promising performance in learning to solve "
    "routing problems. This paper explores a novel lifelong learning paradigm for neural VRP "
    "solvers, where multiple tasks with diverse distributions and scales arise sequentially "
    "over time."
)
ZH = "优化/理论"
LINK = "https://github.com/ai4co/reald-nco"

# Per example, in page order: its format, and per paper (line, title, short name, venue,
# year, categories, summary_zh, abstract, urls).
EXPECTED = [
    (
        "digest",
        [
            (2, MUON, None, "ICLR", 2026, [], MUON_ZH, None, []),
            (5, RRNCO, "RRNCO", "ICLR", 2026, [], RRNCO_ZH, None, []),
        ],
    ),
    (
        "digest",
        [
            (
                5,
                "Celo2: Towards Learned Optimization Free Lunch",
                "Celo2",
                "ICLR",
                2026,
                [ZH],
                "提出 Celo2——一个仅用 4.5 GPU 小时元训练的学习型优化器。",
                None,
                [],
            ),
            (
                8,
                "Adaptive Rollout Allocation for Online RL with Verifiable Rewards (VIP)",
                "VIP",
                "ICLR",
                2026,
                [ZH],
                "提出 VIP，通过高斯过程预测每个 prompt 的成功概率。",
                None,
                [],
            ),
        ],
    ),
    (
        "digest",
        [(1, RRNCO, "RRNCO", None, None, [], f"{RRNCO_ZH}详见 {LINK} 。", None, [LINK])],
    ),
    ("abstracts", [(3, None, "EF21-Muon", "ICLR", 2026, [], None, EF21, [])]),
    (
        "abstracts",
        [
            (3, RRNCO, "RRNCO", "ICLR", 2026, [], None, RRNCO_ABSTRACT, []),
            (8, None, None, "ICLR", 2026, [], None, LLR, []),
        ],
    ),
    ("bibtex", [(1, RRNCO, "RRNCO", "ICLR", 2026, [], None, None, [])]),
    ("records", [(2, RRNCO, None, "ICLR", 2026, [], None, None, [])]),
    ("records", [(1, MUON, None, "ICLR", 2026, [], MUON_ZH, None, [])]),
]


def test_the_page_has_an_example_of_every_format_and_each_is_checked():
    assert len(EXAMPLES) == len(EXPECTED)
    assert {fmt for fmt, _ in EXPECTED} == {"digest", "abstracts", "bibtex", "records"}
    assert len(REFUSED) == 4


HEADERLESS = (
    "no header line names the venue and year (the page's first lines missing?): "
    "its papers are matched to the library by title"
)


def headerless(expected) -> bool:
    """A digest example with no venue line: the one warning the page says it gives."""
    fmt, papers = expected
    return fmt == "digest" and all(p[3] is None for p in papers)


@pytest.mark.parametrize(("text", "expected"), zip(EXAMPLES, EXPECTED, strict=True))
def test_each_example_gives_exactly_its_papers(text, expected):
    doc = parse_bytes(text.encode("utf-8"), "example")
    fields = ("line", "title", "short_name", "venue", "year", "categories", "summary_zh")
    papers = [(*(getattr(e, f) for f in fields), e.abstract, e.urls) for e in doc.entries]
    warned = [ParseWarning(1, HEADERLESS)] if headerless(expected) else []
    assert (doc.format, papers, doc.warnings) == (*expected, warned)


@pytest.mark.parametrize(("text", "expected"), zip(EXAMPLES, EXPECTED, strict=True))
def test_each_example_ingests_as_the_page_says(text, expected, tmp_path):
    path = tmp_path / "example.txt"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["--library", str(tmp_path / "lib"), "ingest", str(path)])
    n, warned = len(expected[1]), headerless(expected)
    entries = f"{n} {'entry' if n == 1 else 'entries'}"
    assert (result.exit_code, result.stderr, result.stdout) == (
        0,
        f"papers: warning: {path}:1: {HEADERLESS}\n" if warned else "",
        f"ingested 1 document, {entries}: {n} new, 0 merged, 0 unchanged, "
        f"{int(warned)} warning{'' if warned else 's'}\n",
    )


@pytest.mark.parametrize(("text", "console"), REFUSED)
def test_each_near_miss_is_refused_with_the_line_shown(text, console, tmp_path, monkeypatch):
    command, shown = console.split("\n", 1)
    name = command.removeprefix("$ papers ingest ")
    with pytest.raises(DocumentError) as err:
        parse_bytes(text.encode("utf-8"), name)
    assert f"papers: {err.value}\n" == shown
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["--library", "lib", "ingest", name])
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", shown)
    assert not (tmp_path / "lib" / "papers").exists()


def test_the_readme_quotes_the_refusal_this_page_shows():
    [notes] = [shown for _, shown in REFUSED if shown.startswith("$ papers ingest notes.txt\n")]
    readme = (ROOT / "README.md").read_text("utf-8")
    assert f"```\n{notes}```" in readme
    assert "[docs/formats.md](docs/formats.md)" in readme
