"""Concepts named only in passing (search/aside.py): the roles a mention plays, the concepts
each bundled paper names so, and the papers a query holds back."""

from __future__ import annotations

import pytest
from whoosh import query

from papercli.search import aside
from papercli.search.index import PaperIndex
from papercli.search.query import search
from testing import invoke

LLM = {  # the papers judged to be about LLMs (tests/data/judged.yaml)
    "iclr2026-alignment-large-language-models-llms",
    "iclr2026-cold-steer",
    "iclr2026-gmpo",
    "iclr2026-qzo",
    "iclr2026-scaf-grpo",
    "iclr2026-nabla-reasoner",
    "iclr2026-mass",
    "iclr2026-icpo",
    "iclr2026-mlm",
    "iclr2026-modern-language-models-generate-chain",
    "iclr2026-vip",
    "iclr2026-ni-sampling",
}
# the four that name one only as a workload, a baseline or an item of a list
LLM_IN_PASSING = ["iclr2026-attent", "iclr2026-frontierco", "iclr2026-mt-dao", "iclr2026-muonbp"]


@pytest.fixture(scope="module")
def index(seeded_template):
    from papercli.store.library import Library

    return PaperIndex(Library(seeded_template)).open()


def place(text: str, word: str) -> tuple[str, int, int]:
    start = text.index(word)
    return text, start, start + len(word)


@pytest.mark.parametrize(
    ("role", "text", "word", "expected"),
    [
        ("list", "涵盖 8 类组合优化问题（TSP、MIS、CVRP 等）的基准", "CVRP", True),
        ("list", "架构（全连接、卷积、注意力）中", "注意力", True),
        ("list", "large language models (LLMs) are", "LLMs", False),  # (an abbreviation)
        ("list", "over baselines (SGD, Adam, Muon) by", "Adam", True),
        ("baseline", "improvement over Adam/AdamW for training", "Adam", True),
        ("baseline", "超越了精心调优的 AdamW 基线", "AdamW", True),
        ("baseline", "Muon 比向量对应物 SGD-M 少", "SGD-M", True),
        ("baseline", "We propose a variant of Adam for", "Adam", False),
        ("experiment", "实验在 OPT-350M 微调中实现加速", "微调", True),
        ("experiment", "提出一种微调方法", "微调", False),
        ("result", "LLM微调省时13.01%，精度不降", "LLM", True),
        ("result", "让 LLM 在推理时生成合成数据", "LLM", False),
        ("workload", "在语言模型预训练中消除了差距", "语言模型", True),
        ("workload", "for language model training.", "language model", True),
        ("workload", "language models generate traces", "language model", False),
    ],
)
def test_each_role_reads_the_words_around_a_mention(role, text, word, expected):
    assert aside.ROLES[role](*place(text, word)) is expected


def test_a_mention_in_the_title_is_never_passing():
    text = "LLM微调省时13.01%"
    in_summary = [("summary_zh", *place(text, "LLM"))]
    assert aside.passing(in_summary)
    assert not aside.passing([*in_summary, ("title", "LLM Reasoning", 0, 3)])
    assert not aside.passing([])


def test_the_papers_that_name_llms_only_in_passing(index):
    """Read when indexed: ICPO names LLMs only in its result (and is kept by the query: its
    other concepts fit); QZO, whose summary's last clause is a result too, has "LLMs" in
    its title."""
    with index.searcher() as searcher:
        docs = searcher.docs_for_query(query.Term("aside", "llm"))
        found = sorted(searcher.stored_fields(d)["id"] for d in docs)
    assert found == sorted([*LLM_IN_PASSING, "iclr2026-icpo"])


@pytest.mark.parametrize("text", ["大语言模型", "large language model", "大模型", "LLM"])
def test_a_query_holds_back_the_papers_that_name_its_concept_only_in_passing(index, text):
    """In either language; the paper held back is the same. --passing lists them all."""
    held: list[str] = []
    assert {hit.id for hit in search(index, text, held=held)} == LLM
    assert held == LLM_IN_PASSING
    everything = search(index, text, passing=True)  # (where they rank, and marked)
    assert {hit.id for hit in everything} == LLM | set(LLM_IN_PASSING)
    marked = {h.id for h in everything if (h.snippet or "").startswith("only in passing · ")}
    assert sorted(marked) == LLM_IN_PASSING


def test_a_limit_lists_as_many_papers_and_still_counts_every_one_held_back(index):
    """The held-back papers' places are filled by the next ones, and those ranked below the
    limit are counted too (with 5 of the 12, the line said 1 more paper)."""
    held: list[str] = []
    hits = search(index, "大语言模型", limit=5, held=held)
    assert [hit.id for hit in hits] == [hit.id for hit in search(index, "大语言模型")][:5]
    assert held == LLM_IN_PASSING


def test_nothing_is_held_back_by_exact_or_where_every_paper_would_be(index):
    """--exact finds every paper that writes the words. A query all of whose papers name it
    in passing lists them: there is nothing better (FrontierCO's "LLM Agent", in a list)."""
    held: list[str] = []
    assert {hit.id for hit in search(index, "LLM", exact=True, held=held)} >= {
        "iclr2026-attent",
        "iclr2026-frontierco",
    }
    assert held == []
    assert [hit.id for hit in search(index, "LLM agent", held=held)] == ["iclr2026-frontierco"]
    assert held == []


def test_the_cli_says_how_many_are_held_back_and_how_to_list_them(seeded_library):
    root = str(seeded_library.root)
    result = invoke("--library", root, "search", "大语言模型", "--ids")
    assert result.exit_code == 0
    assert set(result.stdout.split()) == LLM
    assert result.stderr == (
        "papers: 4 more papers name '大语言模型' only in passing: --passing lists them\n"
    )
    five = invoke("--library", root, "search", "大语言模型", "--ids", "-n", "5")  # (a listing
    assert len(five.stdout.split()) == 5  # that stops at its limit: counted all the same)
    assert five.stderr == result.stderr
    result = invoke("--library", root, "search", "大语言模型", "--ids", "--passing")
    assert (result.exit_code, result.stderr) == (0, "")
    assert set(result.stdout.split()) == LLM | set(LLM_IN_PASSING)


def test_records_reindexed_in_place_count_once(seeded_library):
    """A record re-indexed in place leaves its old version in its segment, deleted, until
    the segments merge (a large library's first segment seldom does): the fit counts each
    paper once. Whoosh's posting lists leave the deleted versions out, but its document
    frequencies count them: without ``fit``'s correction for them, the fits moved and the
    search lost LLM papers."""
    from papercli.search.schema import document
    from papercli.store.library import Library

    index = PaperIndex(Library(seeded_library.root)).open()
    writer = index.ix.writer()
    for path in sorted(seeded_library.papers_dir.glob("*.yaml")):
        rid = path.stem
        record = seeded_library.load(rid)
        stamp = seeded_library.stamp(rid)
        writer.update_document(**document(record, stamp, None, *index.concepts(record)))
    writer.commit(merge=False)
    with index.searcher() as searcher:
        assert searcher.reader().has_deletions()
    held: list[str] = []
    assert {hit.id for hit in search(index, "大语言模型", held=held)} == LLM
    assert held == LLM_IN_PASSING


def test_an_export_by_query_holds_back_what_search_does(seeded_library):
    """papers export QUERY writes what papers search QUERY lists (it wrote all 16), and says
    so; --passing exports them too. An id list or a tag is exported as it is."""
    import json

    root = str(seeded_library.root)
    result = invoke("--library", root, "export", "大语言模型", "--format", "json")
    assert {paper["id"] for paper in json.loads(result.stdout)} == LLM
    assert result.stderr == (
        "papers: 4 more papers name '大语言模型' only in passing: --passing exports them\n"
    )
    result = invoke("--library", root, "export", "大语言模型", "--format", "json", "--passing")
    assert {paper["id"] for paper in json.loads(result.stdout)} == LLM | set(LLM_IN_PASSING)
    assert result.stderr == ""
    ids = "\n".join(LLM_IN_PASSING) + "\n"
    result = invoke("--library", root, "export", "-", "--format", "json", stdin=ids)
    assert [paper["id"] for paper in json.loads(result.stdout)] == LLM_IN_PASSING
