"""Concepts named only in passing (search/concepts/passing.py): the roles a mention plays, the concepts
each bundled paper names so, and where a query lists those papers."""

from __future__ import annotations

import pytest
from whoosh import query

from papercli.search.concepts import passing as aside
from papercli.search.index.paper_index import PaperIndex
from papercli.search.questions.search import search
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
        ("experiment", "Experiments on models, e.g. Qwen2.5, fine-tune fast", "Qwen2.5", True),
        ("result", "LLM微调省时13.01%，精度不降", "LLM", True),
        ("result", "让 LLM 在推理时生成合成数据", "LLM", False),
        ("result", "Accuracy rises by 2.7% vs. Adam here", "Adam", True),  # (vs. ends none)
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


def test_a_tagged_concept_is_never_named_in_passing(index):
    """The four papers that name LLMs only as a workload, a baseline or an item of a list
    carry the llm tag: about LLMs by their tags, they name LLMs in passing for no query.
    The broader "language model" they still name only in passing."""
    with index.searcher() as searcher:

        def aside_of(cid: str) -> list[str]:
            docs = searcher.docs_for_query(query.Term("aside", cid))
            return sorted(searcher.stored_fields(d)["id"] for d in docs)

        assert aside_of("llm") == []
        assert aside_of("language-model") == sorted([*LLM_IN_PASSING, "iclr2026-icpo"])
    for rid in LLM_IN_PASSING:
        assert "llm" in index.get(rid).data["tags"]


@pytest.mark.parametrize("text", ["大语言模型", "large language model", "大模型", "LLM"])
def test_a_query_lists_every_paper_tagged_with_its_concept(index, text):
    """In either language: ``list --tag llm`` and ``search LLM`` agree (4 of the 16 were
    held back), and none is marked."""
    hits = search(index, text)
    assert {hit.id for hit in hits} >= LLM | set(LLM_IN_PASSING)
    assert not any(hit.passing for hit in hits)


SGD = [  # the papers about SGD, then those naming it only in passing, as listed
    "iclr2026-scaling-laws-signsgd-linear-regression",
    "iclr2026-sgd-er",
    "iclr2026-consider-sgd-type-optimization-infinite",
]
SGD_IN_PASSING = [
    "iclr2026-non-asymptotic-analysis-efficiency-conformalized",
    "iclr2026-optimizer-choice-matters-emergence-neural",
    "iclr2026-convergence-muon-newton-schulz",
]


@pytest.mark.parametrize("text", ["SGD", "随机梯度下降"])
def test_papers_naming_the_concept_in_passing_are_listed_last_and_marked(index, text):
    hits = search(index, text)
    assert {h.id for h in hits[:3]} == set(SGD)
    assert {h.id for h in hits[3:]} == set(SGD_IN_PASSING)
    assert [h.passing for h in hits] == [False] * 3 + [True] * 3
    assert all(h.snippet.startswith("only in passing · ") for h in hits[3:])
    assert [h.id for h in search(index, text, limit=4)] == [h.id for h in hits[:4]]
    assert [h.id for h in search(index, text, passing=False)] == [h.id for h in hits[:3]]


def test_exact_names_no_concept_and_marks_nothing(index):
    """--exact asks for the words alone: no concept, so no mention is passing."""
    hits = search(index, "SGD", exact=True)
    assert {h.id for h in hits} == set(SGD + SGD_IN_PASSING)
    assert not any(h.passing for h in hits)


def test_the_cli_lists_them_and_leaves_them_out_when_asked(seeded_library):
    root = str(seeded_library.root)
    result = invoke("--library", root, "search", "SGD", "--ids")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.split()[3:] == [h for h in result.stdout.split() if h in SGD_IN_PASSING]
    assert set(result.stdout.split()) == set(SGD + SGD_IN_PASSING)
    result = invoke("--library", root, "search", "SGD", "--ids", "--no-passing")
    assert (result.exit_code, result.stderr) == (0, "")
    assert set(result.stdout.split()) == set(SGD)
    setting = invoke("--library", root, "search", "SGD", "--ids", env={"PAPERS_PASSING": "false"})
    assert setting.stdout == result.stdout
    flag = invoke(
        "--library", root, "search", "SGD", "--ids", "--passing", env={"PAPERS_PASSING": "no"}
    )
    assert set(flag.stdout.split()) == set(SGD + SGD_IN_PASSING)


def test_records_reindexed_in_place_list_the_same(seeded_library):
    """A record re-indexed in place leaves its old version in its segment, deleted, until
    the segments merge: the listing is the same."""
    from papercli.search.index.schema import document
    from papercli.store.library import Library

    index = PaperIndex(Library(seeded_library.root)).open()
    before = [(h.id, h.passing) for h in search(index, "SGD")]
    writer = index.ix.writer()
    for path in sorted(seeded_library.papers_dir.glob("*.yaml")):
        rid = path.stem
        record = seeded_library.load(rid)
        stamp = seeded_library.stamp(rid)
        writer.update_document(**document(record, stamp, None, *index.concepts(record)))
    writer.commit(merge=False)
    with index.searcher() as searcher:
        assert searcher.reader().has_deletions()
    assert [(h.id, h.passing) for h in search(index, "SGD")] == before


def test_an_export_by_query_exports_what_search_lists(seeded_library):
    """papers export QUERY writes what papers search QUERY lists; --no-passing leaves out
    the same papers. An id list is exported as it is."""
    import json

    root = str(seeded_library.root)
    result = invoke("--library", root, "export", "SGD", "--format", "json")
    assert {paper["id"] for paper in json.loads(result.stdout)} == set(SGD + SGD_IN_PASSING)
    assert result.stderr == ""
    result = invoke("--library", root, "export", "SGD", "--format", "json", "--no-passing")
    assert {paper["id"] for paper in json.loads(result.stdout)} == set(SGD)
    ids = "\n".join(SGD_IN_PASSING) + "\n"
    result = invoke("--library", root, "export", "-", "--format", "json", stdin=ids)
    assert [paper["id"] for paper in json.loads(result.stdout)] == sorted(SGD_IN_PASSING)
