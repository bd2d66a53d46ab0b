"""Search tells the truth: a concept adds papers to the words and never takes one away,
names are found by their parts, and "no paper" is said only when grep agrees."""

from __future__ import annotations

import random
import re

import pytest

from papercli.errors import UsageError
from papercli.search.analysis import word_parts
from papercli.search.index.paper_index import PaperIndex
from papercli.search.questions.search import search
from testing import invoke


@pytest.fixture(scope="module")
def index(seeded_template):
    from papercli.store.library import Library

    return PaperIndex(Library(seeded_template)).open()


def ids(hits) -> set[str]:
    return {h.id for h in hits}


def record_queries(index, n: int, seed: int = 41) -> list[str]:
    """Queries built from the records' own words: one to three English words, or a Chinese
    run of two to four characters, of one record's title, abstract or summary."""
    rng = random.Random(seed)
    texts = []
    for path in sorted(index.library.papers_dir.glob("*.yaml")):
        record = index.library.load(path.stem)
        texts += [t for t in (record.title, record.abstract, record.summary_zh) if t]
    queries = []
    while len(queries) < n:
        text = rng.choice(texts)
        if rng.random() < 0.5:
            words = re.findall(r"[A-Za-z][A-Za-z0-9-]{2,}", text)
            if words:
                start = rng.randrange(len(words))
                queries.append(" ".join(words[start : start + rng.randint(1, 3)]))
        else:
            runs = [r for r in re.findall(r"[\u4e00-\u9fff]{2,}", text)]
            if runs:
                run = rng.choice(runs)
                size = min(len(run), rng.randint(2, 4))
                start = rng.randrange(len(run) - size + 1)
                queries.append(run[start : start + size])
    return queries


def test_the_default_finds_every_paper_exact_finds(index):
    """For queries of a record's own words, the concepts add papers: --exact never finds
    one the default misses (收敛, 梯度下降, 组合优化 found fewer)."""
    missed = {}
    for text in [*record_queries(index, 300), "收敛", "梯度下降", "组合优化", "推理"]:
        try:
            lost = ids(search(index, text, exact=True)) - ids(search(index, text))
        except UsageError:  # (only common words: "with")
            continue
        if lost:
            missed[text] = sorted(lost)
    assert missed == {}


def test_a_literal_match_scores_at_least_its_exact_score(index):
    for text in ("收敛", "combinatorial optimization", "learning rate", "推理"):
        exact = {h.id: h.score for h in search(index, text, exact=True)}
        default = {h.id: h.score for h in search(index, text)}
        assert all(default[rid] >= score - 1e-9 for rid, score in exact.items()), text


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("FooBar", ["Foo", "Bar"]),
        ("GSM8K", ["GSM"]),
        ("Qwen2", ["Qwen"]),
        ("SignSGD", ["Sign", "SGD"]),
        ("BERTScore", ["BERT", "Score"]),
        ("LLMs", []),  # (an abbreviation's plural)
        ("dLLMs", ["LLMs"]),
        ("7B", []),
        ("Muon", []),
    ],
)
def test_a_name_is_split_where_lucenes_word_delimiter_splits_it(word, parts):
    assert word_parts(word) == parts


@pytest.mark.parametrize(
    ("query", "papers"),
    [
        ("Qwen", {"iclr2026-icpo", "iclr2026-scaf-grpo"}),  # Qwen2.5-Math-7B
        ("GSM", {"iclr2026-mlm"}),  # GSM8K
        ("Sign", {"iclr2026-scaling-laws-signsgd-linear-regression"}),  # SignSGD
    ],
)
def test_a_name_is_found_by_its_parts(index, query, papers):
    assert ids(search(index, query)) == papers
    assert ids(search(index, query, exact=True)) == papers


def test_a_part_ranks_below_the_whole_word(seeded_library):
    """Two papers, one writing "Sign" as a word, one only inside SignSGD: the word first."""
    from papercli.store.library import Library

    folder = seeded_library.papers_dir
    template = (folder / "iclr2026-hiso.yaml").read_text("utf-8")
    for rid, title in (
        ("zz-part", "SignSGD converges on quadratics"),
        ("zz-whole", "Sign language translation at scale"),
    ):
        text = template.replace("iclr2026-hiso", rid).replace("hiso2026", rid.replace("-", ""))
        text = re.sub(r"(?m)^title: .*$", f"title: {title}", text)
        (folder / f"{rid}.yaml").write_text(text, "utf-8")
    index = PaperIndex(Library(seeded_library.root)).open()
    listed = [h.id for h in search(index, "Sign")]
    assert listed.index("zz-whole") < listed.index("zz-part")


def test_no_paper_is_said_only_when_a_literal_scan_agrees(seeded_library):
    """Muo is in no paper as a word; four hold it as plain text (Muon, MuonBP): listed."""
    root = str(seeded_library.root)
    result = invoke("--library", root, "search", "Muo", "--ids")
    assert result.exit_code == 0
    assert result.stderr == "papers: no paper has 'Muo' as words; 4 papers hold it as plain text\n"
    assert set(result.stdout.split()) == {
        "iclr2026-muonbp",
        "iclr2026-ef21-muon",
        "iclr2026-convergence-muon-newton-schulz",
        "iclr2026-convergence-analysis-adaptive-optimizers-under",
    }
    export = invoke("--library", root, "export", "Muo", "--format", "json")
    assert export.stdout.count('"id":') == 4
    result = invoke("--library", root, "search", "xyzzyq", "--ids")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "papers: no paper matches 'xyzzyq'\n"


def test_a_clearly_best_correction_is_run(seeded_library):
    result = invoke("--library", str(seeded_library.root), "search", "federatd", "--ids")
    assert result.exit_code == 0
    assert result.stderr == (
        "papers: no paper matches 'federatd'; showing results for 'federated'\n"
    )
    assert result.stdout.split() == [
        h.id for h in search(PaperIndex(seeded_library).open(), "federated")
    ]
