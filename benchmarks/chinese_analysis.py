"""Which analyzer finds what a researcher types? Recall and false hits on the bundled library.

    .venv/bin/python benchmarks/chinese_analysis.py            # ours vs Whoosh's default
    /path/with/jieba/python benchmarks/chinese_analysis.py     # adds jieba's ChineseAnalyzer

For each query, the expected papers are those whose title, short name, abstract or summary
contains the query text verbatim (case-insensitive; whole words for English). Each analyzer
indexes the same text in a RAM index, and the query is parsed with the same analyzer.
It also times, in fresh processes, importing and running each analyzer once: the share of
a cold `papers search` that the analysis itself costs.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

QUERIES = [
    "联邦学习",
    "量化",
    "优化器",
    "推理",
    "收敛",
    "强化学习",
    "梯度下降",
    "器",
    "GRPO风格",
    "GSM8K",
    "Newton-Schulz",
    "EF21-Muon",
    "federated learning",
    "muon",
]


def records():
    import yaml

    from papercli.text.latex import latex_to_text

    for path in sorted((ROOT / "data" / "library" / "papers").glob("*.yaml")):
        r = yaml.safe_load(path.read_text("utf-8"))
        text = " ".join(
            filter(
                None,
                [
                    r["title"],
                    r["short_name"],
                    latex_to_text(r["abstract"] or ""),
                    latex_to_text(r["summary_zh"] or ""),
                ],
            )
        )
        yield r["id"], text


def expected(docs, query):
    pattern = re.escape(query)
    if query.isascii():
        pattern = rf"(?<![A-Za-z0-9]){pattern}(?![A-Za-z0-9])"
    return {rid for rid, text in docs if re.search(pattern, text, re.IGNORECASE)}


def analyzers():
    from whoosh.analysis import StandardAnalyzer

    from papercli.search.analysis import bilingual_analyzer

    out = {"whoosh default": StandardAnalyzer(), "ours (bigrams+unigrams)": bilingual_analyzer()}
    try:
        from jieba.analyse import ChineseAnalyzer

        out["jieba ChineseAnalyzer"] = ChineseAnalyzer()
    except ImportError:
        pass
    return out


def found(analyzer, docs, query):
    from whoosh import fields, qparser
    from whoosh.filedb.filestore import RamStorage

    schema = fields.Schema(id=fields.ID(stored=True), text=fields.TEXT(analyzer=analyzer))
    schema["text"].multitoken_query = "phrase"
    ix = RamStorage().create_index(schema)
    with ix.writer() as w:
        for rid, text in docs:
            w.add_document(id=rid, text=text)
    q = qparser.QueryParser("text", schema).parse(f'"{query}"' if " " in query else query)
    with ix.searcher() as s:
        return {h["id"] for h in s.search(q, limit=None)}


STARTUP = {
    "whoosh default": "from whoosh.analysis import StandardAnalyzer as A; a = A()",
    "ours (bigrams+unigrams)": (
        "from papercli.search.analysis import bilingual_analyzer as A; a = A()"
    ),
    "jieba ChineseAnalyzer": "from jieba.analyse import ChineseAnalyzer as A; a = A()",
}


def startup_ms(name, runs=15):
    code = (
        "import whoosh.index, whoosh.qparser\n"
        "import time; t = time.perf_counter()\n"
        f"{STARTUP[name]}\n"
        "[t.text for t in a('联邦学习 GRPO风格 muon optimizers', mode='query')]\n"
        "print((time.perf_counter() - t) * 1000)\n"
    )
    env = {"PYTHONPATH": str(ROOT / "src")}
    samples = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        samples.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(samples)


def main():
    docs = list(records())
    names = list(analyzers())
    print(f"{len(docs)} papers; cell = expected papers found / expected (+ extra papers found)\n")
    print("| query | expected | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    totals = {n: [0, 0] for n in names}
    for query in QUERIES:
        want = expected(docs, query)
        cells = []
        for name, analyzer in analyzers().items():
            got = found(analyzer, docs, query)
            hits, extra = len(got & want), len(got - want)
            totals[name][0] += hits
            totals[name][1] += extra
            cells.append(f"{hits}/{len(want)}" + (f" (+{extra})" if extra else ""))
        print(f"| {query} | {len(want)} | " + " | ".join(cells) + " |")
    want_total = sum(len(expected(docs, q)) for q in QUERIES)
    print(
        "| **all** | "
        + str(want_total)
        + " | "
        + " | ".join(f"**{h}/{want_total}** (+{x})" for h, x in totals.values())
        + " |"
    )
    print("\nimport + build + analyse one query, fresh process (median ms):")
    for name in names:
        start = time.perf_counter()
        print(f"- {name}: {startup_ms(name):.1f} ms")
        del start


if __name__ == "__main__":
    main()
