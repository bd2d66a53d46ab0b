"""The user's text as a Whoosh query: rewritten (``rewrite``), then built directly
(``build``) or read by Whoosh's parser; with what the index knows.

In: the query as typed, and the open index (its glossary, vocabulary, categories and
words). Out: a Whoosh query, or a one-line ``UsageError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...errors import UsageError
from .rewrite import rewrite
from .syntax import SEARCHED_FIELDS, quoted

if TYPE_CHECKING:
    from ..index.paper_index import PaperIndex

TagResolver = Callable[[str], "str | None"]  # an alias (联邦学习) -> its tag, or None


def parse(text: str, schema, **options):
    """A Whoosh query for *text*, or a one-line ``UsageError`` saying what is wrong
    (*options*: those of ``rewrite``)."""
    rewritten = rewrite(text, **options)
    from .build import build

    direct = build(rewritten, schema)  # (most queries: without Whoosh's parser)
    if direct is not None:
        return direct
    from whoosh import qparser, query

    parser = qparser.MultifieldParser(list(SEARCHED_FIELDS), schema, group=qparser.AndGroup)
    parser.add_plugin(qparser.FuzzyTermPlugin())
    parser.add_plugin(qparser.GtLtPlugin())
    try:
        q = parser.parse(rewritten)
    except Exception as exc:  # Whoosh raises assorted types for odd input
        raise UsageError(f"cannot understand the query {quoted(text)}: {exc}") from None
    if q is query.NullQuery:
        raise UsageError(f"the query {quoted(text)} has no words to search for")
    return q.accept(lambda node: _keywords_of_phrase(node, schema)).normalize()


def _keywords_of_phrase(node, schema):
    """A phrase in a field that keeps no positions (the tags: ``"(L0, L1)–smooth"`` is two
    keywords there, split at its comma) as all of its words: Whoosh would refuse it while
    searching ("field has no positions"). Not among names' parts: a phrase is of words."""
    from whoosh import query

    if isinstance(node, query.Phrase) and node.fieldname == "parts":
        return query.NullQuery
    if isinstance(node, query.Phrase) and not schema[node.fieldname].format.supports("positions"):
        return query.And([query.Term(node.fieldname, word) for word in node.words])
    return node


def default_tag_resolver(name: str) -> str | None:
    """The tag an alias names in the user's or the bundled taxonomy (loaded on first use)."""
    from ...tags.taxonomy import load_taxonomy

    return load_taxonomy().resolve(name)


def parse_query(
    index: PaperIndex,
    text: str,
    resolve_tag: TagResolver | None = None,
    exact: bool = False,
    bridges: dict | None = None,
):
    """A Whoosh query from the user's text (``tag:`` takes any alias *resolve_tag* knows;
    unless *exact*, words naming a concept of the glossary bridge to it); a malformed query
    is a one-line ``UsageError``."""
    glossary = None if exact else index.query_glossary()
    resolve = resolve_tag or default_tag_resolver

    def near(word: str, edits: int) -> list[str]:  # (the vocabulary read only for word~)
        from ..index.vocabulary import Vocabulary

        return Vocabulary.load(index.dir).near(word, edits)

    categories: list[list[str]] = []

    def known() -> list[str]:  # (the categories read once, when first asked)
        if not categories:
            categories.append(sorted(index.categories()))
        return categories[0]

    def category(word: str) -> list[str]:
        """The categories *word* names: itself, or (unless *exact*) the same concepts in
        the other language, part by part (大语言模型/自然语言处理 is LLM/NLP)."""
        from ...text.variants import normalize

        for form in (word.lower(), normalize(word).lower()):
            if form in known():
                return [form]
        if glossary is None or not known():
            return []
        from ..concepts.categories import named_by

        # (a word of one part is read as a concept by the bridge: concept_categories)
        return named_by(glossary, word, known()) if "/" in word.strip("/") else []

    def concept_categories(cid: str) -> list[str]:
        from ..concepts.categories import of_concepts

        return of_concepts(glossary, [cid], known()) if known() else []

    def solid(words: list[str]) -> set[str]:  # (a searcher only for Latin words side by side)
        from ..analysis import tokens

        with index.searcher() as searcher:
            reader = searcher.reader()
            return {
                word
                for word in words
                if any(
                    (field, term) in reader
                    for term in tokens(word, mode="query")
                    for field in SOLID_FIELDS
                )
            }

    return parse(
        text,
        index.ix.schema,
        resolve_tag=resolve,
        glossary=glossary,
        bridges=bridges,
        near=near,
        category=category,
        solid=solid,
        concept_categories=None if glossary is None else concept_categories,
    )


# Where a word written solid is looked for ("nonconvex", "SignSGD"): the texts, not names
SOLID_FIELDS = ("title", "abstract", "summary", "name", "keyword")
