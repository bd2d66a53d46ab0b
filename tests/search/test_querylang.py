"""The query language: our extensions are rewritten, mistakes get a one-line explanation."""

from __future__ import annotations

import pytest

from papercli.errors import UsageError
from papercli.search.querying.parse import _keywords_of_phrase
from papercli.search.querying.rewrite import rewrite
from testing import soak_sample


def resolve(name):
    return {"联邦学习": "federated-learning", "fl": "federated-learning"}.get(name.lower())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("muon adam", "muon adam"),
        ("year:2026", "year:2026"),
        ("year:2025..2026", "year:[2025 TO 2026]"),
        ("year:2025..", "year:>=2025"),
        ("year:..2025", "year:<=2025"),
        ("year:>=2025", "year:>=2025"),
        ("tag:联邦学习 muon", "tag:federated-learning muon"),
        ("Tags:FL", "tag:federated-learning"),
        ("tag:my-own-tag", "tag:my-own-tag"),
        ("short_name:QZO", "name:QZO"),
        ('title:"vehicle routing"', 'title:"vehicle routing"'),
        ("muon NOT (adam OR sgd)", "muon NOT ( adam OR sgd )"),
        ("https://github.com/x", '"https://github.com/x"'),
        ("doi:10.1234/abc", '"doi:10.1234/abc"'),
        ("arXiv:2401.12345", '"arXiv:2401.12345"'),
        ("federatd~ optim*", "federatd~ optim*"),
        ("muon -adam +sgd", "muon NOT adam sgd"),
        ("(L0,L1)-smooth", "( L0,L1 ) smooth"),  # a hyphen after a parenthesis: no sign
        ("compositional) but deficient", "compositional but deficient"),  # a pasted fragment's
        ("(muon", "muon"),  # (no operator: the parenthesis groups nothing)
        ("title: muon", "title:muon"),  # a space after the colon, typed
        ("Title: Convergence of Muon", "title:Convergence Muon"),  # or pasted
        ("year: 2026", "year:2026"),
        ("Adam vs SGD", "Adam SGD"),  # no paper writes "vs": it found nothing
        ("Adam vs. SGD versus Muon", "Adam SGD Muon"),
        ("what is muon?", "muon"),  # a question's words are not what it looks for
        ("muon papers", "muon"),  # nor what the library holds ("paper": most abstracts)
        ("papers about federated learning", "federated learning"),
        ("如何 muon 的 收敛 论文", "muon 收敛"),  # (Chinese, written apart: each found nothing)
        ("联邦学习 或 大模型", "联邦学习 OR 大模型"),  # 或 between two words is OR
        ("或 muon", "muon"),  # (elsewhere a word left out)
        ("LLM's reasoning", "LLM reasoning"),  # a possessive is the word ("LLM s" found
        ("GRPO’s", "GRPO"),  # only the papers that write "LLM's")
        ("multi-modal", "(multi-modal OR multimodal)"),  # a hyphenated word: both spellings
        ("FL+LLM", "FL LLM"),  # a plus between words: both (联邦学习+大模型 found nothing)
        ("muon ICLR 2026", "muon (ICLR OR venue:ICLR) (2026 OR year:2026)"),  # as typed
        ("ICLR2026 neurips", "(ICLR2026 OR (venue:ICLR AND year:2026)) (neurips OR venue:NeurIPS)"),
        ("C++ +muon", "C muon"),
        ("-non-convex muon", "NOT (non-convex OR nonconvex) muon"),
        ("title:multi-modal", "title:(multi-modal OR multimodal)"),  # in its field too
        ("Path-Like Names & Tildes ~ and Hashes", "(Path-Like OR PathLike) Names Tildes Hashes"),
        ("实现 1.4~5.4× 加速", '实现 "1.4 5.4×" 加速'),  # a tilde that is no fuzzy search:
        ("muon~3 x~y", '"muon 3" "x y"'),  # punctuation (Whoosh expanded 10,404 terms)
        ("muon * adam", "muon adam"),  # a lone sign among words is punctuation ("~": an error)
        ("Qwen2.5-Math-7B", "Qwen2.5-Math-7B"),  # (an identifier with a dot: as written)
        ("联邦学习，异构、量化；muon;adam", "联邦学习 异构 量化 muon adam"),  # separators as
        ("RRNCO：Towards 收敛。泛化！", "RRNCO 收敛 泛化"),  # typed in Chinese: spaces
        ('"联邦学习，异构" 量化', '"联邦学习，异构" 量化'),  # (a phrase as quoted)
        ("训练数据，模型，训练数据，模型 muon Muon muon", "训练数据 模型 muon Muon"),  # a word
        ("muon OR adam muon", "muon OR adam muon"),  # ANDed once is enough; with OR, as typed
        ("稳定性% 44.3％", "稳定性 44.3"),  # a percent sign at a word's edge: punctuation
    ],
)
def test_rewrite(text, expected):
    assert rewrite(text, resolve) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sign SGD", "((sign SGD) OR signsgd)"),  # the library writes SignSGD
        ("non convex set", "((non convex) OR nonconvex) set"),  # (one neighbour each)
        ("Non Convex", "((Non Convex) OR nonconvex)"),
        ("the non convex", "((non convex) OR nonconvex)"),
        ("data of sets", "data sets"),  # (a common word between: apart)
        ("-non convex", "NOT non convex"),  # (an excluded word is not joined)
        ("non 2 convex", "non 2 convex"),  # (a number is no Latin word here)
        ("sign SGD muon", "((sign SGD) OR signsgd) muon"),
    ],
)
def test_two_words_typed_apart_also_ask_for_the_word_written_solid(text, expected):
    """Only where the index holds the solid word (*solid* says which it does)."""
    known = {"signsgd", "nonconvex", "datasets"}
    assert rewrite(text, resolve, solid=lambda words: known.intersection(words)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("优化/理论", '(优化/理论 OR (category:"优化/理论")^0.2)'),  # as a digest page heads them
        ("muon LLM/NLP", 'muon (LLM/NLP OR (category:"llm/nlp")^0.2)'),
        ("-优化/理论 muon", 'NOT (优化/理论 OR (category:"优化/理论")^0.2) muon'),  # excluded too
        ("优化 理论", "优化 理论"),  # (words of one: not it)
        ('"优化/理论"', '"优化/理论"'),  # (a phrase is text)
    ],
)
def test_a_category_of_the_library_as_a_word_is_that_field_too(text, expected):
    known = {"优化/理论", "llm/nlp"}
    assert rewrite(text, resolve, category=lambda w: [w.lower()] if w.lower() in known else []) == (
        expected
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('"unclosed', "unbalanced quote in '\"unclosed'"),
        ("(muon OR adam", "'(' without ')' in '(muon OR adam'"),
        ("muon) OR adam", "')' without '(' in 'muon) OR adam'"),
        ("AND", "AND needs a word on its left in 'AND'"),
        ("OR muon", "OR needs a word on its left in 'OR muon'"),
        ("muon AND", "AND needs a word on its right in 'muon AND'"),
        ("muon NOT", "NOT needs a word on its right in 'muon NOT'"),
        ("muon AND OR adam", "OR needs a word on its left in 'muon AND OR adam'"),
        (
            "foo:bar",
            "unknown field 'foo' in 'foo:bar' (fields: title: name: author: keyword: tag: abstract: summary: venue: year: category:)",
        ),
        ("title:", "title: needs a value in 'title:'"),
        ("year:abc", "year:abc is not a year; write year:2026, year:2025..2026 or year:>=2025"),
        ("year:..", "year:.. is not a year; write year:2026, year:2025..2026 or year:>=2025"),
        (
            "year:2026..2025",
            "year:2026..2025 runs backwards and matches nothing; did you mean year:2025..2026?",
        ),
        ("*", "'*' alone matches nothing useful; add letters to it"),
        ("   ", "the query '   ' has no words to search for"),
        ("( )", "the query '( )' has no words to search for"),
    ],
)
def test_malformed_queries_are_explained(text, message):
    with pytest.raises(UsageError) as err:
        rewrite(text, resolve)
    assert str(err.value) == message


def test_a_long_query_is_quoted_back_cut_short():
    pasted = "muon " * 30 + '"unclosed'
    with pytest.raises(UsageError) as err:
        rewrite(pasted, resolve)
    assert str(err.value) == f"unbalanced quote in {pasted[:59] + '…'!r}"


def _shape(q):
    """What a query is, all of it: class, field, text (a phrase's words and slop), boost
    and how an Or scores and matches, its parts in order (Whoosh's == leaves out the Or's
    minmatch and scale)."""
    parts = tuple(_shape(s) for s in getattr(q, "subqueries", ()))
    names = ("fieldname", "text", "words", "slop", "boost", "minmatch", "scale")
    own = tuple(tuple(v) if isinstance(v := getattr(q, a, None), list) else v for a in names)
    return (type(q).__name__, own, parts)


@pytest.fixture(scope="module")
def bundled_index(seeded_template):
    from papercli.search.index.paper_index import PaperIndex
    from papercli.store.library import Library

    return PaperIndex(Library(seeded_template)).open()


def _parser(schema):
    from whoosh import qparser

    from papercli.search.querying.syntax import SEARCHED_FIELDS

    parser = qparser.MultifieldParser(list(SEARCHED_FIELDS), schema, group=qparser.AndGroup)
    parser.add_plugin(qparser.FuzzyTermPlugin())
    parser.add_plugin(qparser.GtLtPlugin())
    return parser


def _built_as_parsed(index, queries) -> int:
    """How many of *queries* are built without Whoosh's parser; each such query must be
    the one the parser makes."""
    from papercli.search.querying.build import build

    schema, parser, made = index.ix.schema, _parser(index.ix.schema), 0
    for text in queries:
        try:
            rewritten = rewrite(text, None, index.query_glossary(), {})
        except UsageError:
            continue  # (only common words)
        direct = build(rewritten, schema)
        if direct is not None:
            made += 1
            parsed = parser.parse(rewritten).accept(lambda n: _keywords_of_phrase(n, schema))
            assert _shape(direct) == _shape(parsed.normalize()), (text, rewritten)
    return made


def test_plain_words_make_the_query_whooshs_parser_makes(bundled_index):
    """Queries of plain words, each with the concepts it names, are made without Whoosh's
    parser (``direct.build``): for every word of the bundled library's texts, every English
    name of the glossary and pairs of them (a quarter of each under ``make test``), the query
    is the one the parser makes."""
    import re

    from papercli.search.querying.build import build

    index = bundled_index
    schema = index.ix.schema
    words = set()
    for path in (index.library.papers_dir).glob("*.yaml"):
        words.update(re.findall(r"[A-Za-z]+", path.read_text("utf-8")))
    glossary = index.query_glossary()
    names = [n for cid in glossary.ids() for n in glossary.spec(cid)[0]]
    words, queries = sorted(words), []
    pairs = [*zip(words, reversed(words), strict=True), *zip(names, words, strict=False)]
    words, names, pairs = soak_sample(words), soak_sample(names), soak_sample(pairs)
    queries += words + names + [f"{a} {b}" for a, b in pairs] + ["Muon with Newton-Schulz"]
    assert _built_as_parsed(index, queries) > 0.9 * len(words)  # most queries
    assert build(rewrite("learning rate", None, glossary, {}), schema)
    # a common word with its renderings (accelerate: 加速; datasets: 数据集, a phrase of
    # bigrams): the parser took a cold search 13 ms, a third of it, for these
    for text in ("accelerate training", "datasets", "memory"):
        rewritten = rewrite(text, None, glossary, {})
        assert "^" in rewritten and build(rewritten, schema) is not None, text
    for other in ("muon NOT adam", "OR", "title:muon", "muo*", '"muon adam"', "(muon", "a OR b c"):
        assert build(other, schema) is None, other  # (the parser's to read)


def test_chinese_words_make_the_query_whooshs_parser_makes(bundled_index):
    """A Chinese query, bridged, is a nest of words, weights and concepts (训练加速:
    ``(训练加速 OR ((训练 OR training^0.05) AND (加速 OR acceleration^0.05 …)))``); the
    parser took it 19 ms against 9 for ``--exact``. For every run of two to four Chinese
    characters in the bundled summaries, every Chinese name of the glossary and pairs of
    them (a quarter under ``make test``), the query built is the one the parser makes."""
    import re

    from papercli.search.querying.build import build

    index = bundled_index
    runs = set()
    for path in (index.library.papers_dir).glob("*.yaml"):
        for run in re.findall(r"[\u4e00-\u9fff]+", path.read_text("utf-8")):
            runs.update(run[i : i + n] for n in (2, 3, 4) for i in range(len(run) - n + 1))
    glossary = index.query_glossary()
    names = [n for cid in glossary.ids() for n in glossary.spec(cid)[1]]
    runs = sorted(runs)
    queries = runs + names + [f"{a} {b}" for a, b in zip(names, runs, strict=False)]
    queries = soak_sample(queries)
    assert _built_as_parsed(index, queries) > 0.9 * len(queries)
    rewritten = rewrite("训练加速", None, glossary, {})
    assert build(rewritten, index.ix.schema) is not None


def test_the_categories_a_concept_names_make_the_query_whooshs_parser_makes(bundled_index):
    """A concept's categories beside it (``(category:"强化学习")^0.2``) are built without the
    parser, which took a cold search of 强化学习 ~10 ms longer once a digest page headed
    its papers so; a category's weight and its case as indexed are the parser's."""
    from papercli.search.querying.build import build

    schema = bundled_index.ix.schema
    for rewritten in (
        '(强化学习 OR concept:reinforcement-learning OR (category:"强化学习")^0.2'
        ' OR (category:"reinforcement learning")^0.2)',
        '((reinforcement AND learning) OR concept:reinforcement-learning OR category:"LLM/NLP")',
        '(大模型 OR concept:llm OR (category:"大语言模型")^0.2) 微调',
    ):
        direct = build(rewritten, schema)
        assert direct is not None, rewritten
        parsed = _parser(schema).parse(rewritten).normalize()
        assert _shape(direct) == _shape(parsed), rewritten
    assert build('category:"a,b"', schema) is None  # (two keywords: the parser's)


def test_a_built_query_copies_none_of_its_terms(bundled_index, monkeypatch):
    """A word's alternatives (训练 OR training^0.05, each over seven fields) join their
    group as its items when built, as normalize() would join them by copying each term
    (a deep copy each: 49 for 训练加速)."""
    from whoosh.query import qcore

    from papercli.search.querying.build import build

    copied = []
    real = qcore.Query.with_boost
    monkeypatch.setattr(qcore.Query, "with_boost", lambda q, b: copied.append(q) or real(q, b))
    glossary = bundled_index.query_glossary()
    for text in ("训练加速", "accelerate training", "大语言模型", "data sets"):
        rewritten = rewrite(text, None, glossary, {})
        assert build(rewritten, bundled_index.ix.schema) is not None
        assert copied == [], text


def test_a_built_query_analyses_each_word_once_an_analyzer(bundled_index, monkeypatch):
    """Every text field but the tags shares one analyzer: a word is analysed once for them
    and once for the tags (训练加速's seven words were analysed 49 times, once a field)."""
    from whoosh.fields import FieldType

    from papercli.search.querying.build import build

    analysed = []
    real = FieldType.process_text
    monkeypatch.setattr(
        FieldType,
        "process_text",
        lambda self, text, **kw: (
            analysed.append((id(self.analyzer), text)) or real(self, text, **kw)
        ),
    )
    glossary = bundled_index.query_glossary()
    for text in ("训练加速", "accelerate training", "federated learning", "大语言模型"):
        rewritten = rewrite(text, None, glossary, {})
        analysed.clear()
        assert build(rewritten, bundled_index.ix.schema) is not None
        assert analysed and len(analysed) == len(set(analysed)), text
