"""Questions asked of the index: search, list by filters, count tags, select for export.

Plain functions over a ``PaperIndex``; the CLI only parses options and prints.

Search syntax (Whoosh's query language over title, short name, tags, abstract and
Chinese summary): words are ANDed; ``OR``, ``NOT``, ``"quoted phrases"``, ``prefix*``,
``term~`` (fuzzy), and fields ``title:``, ``name:``, ``tag:``, ``venue:``, ``year:``,
``category:``, ``abstract:``, ``summary:``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..engine.unions import unions
from ..errors import UsageError
from ..store.links import link_key
from ..tags.taxonomy import Taxonomy
from .index.paper_index import PaperIndex
from .querying.bridge import TRANSLATED, TRANSLATION_BOOST
from .querying.parse import TagResolver, parse_query
from .querying.pasted import cited_titles, named_paper
from .results.hits import Hit


@dataclass
class Filters:
    tags: tuple[str, ...] = ()
    any_tag: bool = False
    venue: str | None = None
    year: int | tuple[int | None, int | None] | None = None  # a year, or first and last

    def __post_init__(self) -> None:
        if isinstance(self.year, int):
            self.year = (self.year, self.year)

    def describe(self) -> str:
        parts = []
        if self.tags:
            parts.append("tag " + (" or " if self.any_tag else " and ").join(self.tags))
        if self.venue:
            parts.append(f"venue {self.venue}")
        if self.year:
            start, end = self.year
            span = str(start) if start == end else f"{start or ''}..{end or ''}"
            parts.append(f"year {span}")
        return ", ".join(parts)


def resolve_tags(tags: Iterable[str], taxonomy: Taxonomy | None) -> tuple[str, ...]:
    """Turn aliases into tags (联邦学习 → federated-learning); unknown names stay as given."""
    out = []
    for tag in tags:
        resolved = taxonomy.resolve(tag) if taxonomy else None
        out.append(resolved or tag.strip().lower())
    return tuple(out)


def filter_query(filters: Filters):
    from whoosh import query

    parts = []
    if filters.tags:
        terms = [query.Term("tag", t) for t in filters.tags]
        parts.append(query.Or(terms) if filters.any_tag else query.And(terms))
    if filters.venue:
        parts.append(query.Term("venue", filters.venue.lower()))
    if filters.year:  # (bounds past what the field holds refused the query: --year "<0000")
        start, end = (None if y is None else min(max(y, 0), 2**16 - 1) for y in filters.year)
        parts.append(query.NumericRange("year", start, end))
    return query.And(parts) if parts else None


def search(
    index: PaperIndex,
    text: str,
    limit: int | None = None,
    filters: Filters | None = None,
    snippet_cells: int = 200,
    resolve_tag: TagResolver | None = None,
    exact: bool = False,
    passing: bool = True,
) -> list[Hit]:
    """``search_stream``'s hits as a list (for tables, which lay out every row first)."""
    return list(
        search_stream(index, text, limit, filters, snippet_cells, resolve_tag, exact, passing)
    )


def search_stream(
    index: PaperIndex,
    text: str,
    limit: int | None = None,
    filters: Filters | None = None,
    snippet_cells: int = 200,
    resolve_tag: TagResolver | None = None,
    exact: bool = False,
    passing: bool = True,
) -> Iterator[Hit]:
    """Best matches first, each with its score and a snippet showing why it matched, one
    at a time as they are consumed (see ``PaperIndex.stream``). *exact*: no bridge through
    the glossary (only the words as written, and their forms). The papers that name the
    query's concepts only in passing (``concepts.passing``) are listed after the others, marked
    (``IN_PASSING``); without *passing*, left out. The query is parsed, and a malformed one
    rejected, before the first hit is asked for."""
    from whoosh import query

    bridges: dict[str, str] = {}  # concept -> the query's words that named it
    extra = filter_query(filters or Filters())

    def filtered(node):
        return node if extra is None else query.And([node, extra])

    pasted = named_paper(index, text)
    pasted = filtered(pasted) if pasted is not None else None
    try:
        q = parse_query(index, text, resolve_tag, exact, bridges)
    except UsageError:
        # a title the query language cannot read ('The "Right" Way', an unbalanced quote)
        # still finds its paper when pasted whole, and so does a reference holding it
        named = pasted if pasted is not None and index.run(pasted, limit=1, fresh=False) else None
        named = named or _filtered(cited_titles(index, text), filtered)
        if named is None:
            raise
        return _stream(index, named, named, None, limit, {}, snippet_cells)
    hits = _stream(index, filtered(q), q, pasted, limit, bridges, snippet_cells, passing)
    return _or_cited(hits, index, text, q, filtered, limit, snippet_cells)


def _or_cited(hits, index, text, q, filtered, limit, snippet_cells) -> Iterator[Hit]:
    """*hits*; if there is none, the papers whose titles *text* holds whole (a reference
    copied from a bibliography: its authors and venue are no paper's words), their titles
    marked with the words of *q* they hold."""
    found = False
    for hit in hits:
        found = True
        yield hit
    if not found and (cited := _filtered(cited_titles(index, text), filtered)) is not None:
        yield from _stream(index, cited, q, None, limit, {}, snippet_cells)


def _filtered(node, filtered):
    return None if node is None else filtered(node)


def passing_docs(searcher, bridges: dict) -> set[int]:
    """The docnums of the papers that name the query's concepts only in passing."""
    aside = in_passing(bridges)
    return set() if aside is None else set(searcher.docs_for_query(aside))


def in_passing(bridges: dict):
    """The query matching the papers that name every concept of *bridges* they speak of
    only in passing (``concepts.passing``, decided when each paper is indexed); None when the query
    names no concept."""
    from whoosh import query

    named = sorted(c for c in bridges if not c.startswith(TRANSLATED))
    if not named:
        return None
    about = [query.AndNot(query.Term("concept", c), query.Term("aside", c)) for c in named]
    return query.AndNot(query.Or([query.Term("aside", c) for c in named]), query.Or(about))


def _stream(index, q, text_q, pasted, limit, bridges, snippet_cells, passing=True) -> Iterator[Hit]:
    """The hits of *q* with their snippets (*text_q*: the query without the filters); the
    paper whose id or link was pasted (*pasted*) first. The papers that name the query's
    concepts only in passing come after the others, marked so (without *passing*, not
    at all)."""
    from .results import snippets
    from .results.marking import query_terms

    with index.searcher() as searcher:
        terms = query_terms(text_q, searcher.reader())
        # the papers the query as written matches: the others were found through the glossary
        literal = set(searcher.docs_for_query(unions(_literal(q)))) if bridges else None
        rendered = {
            key: key.removeprefix(TRANSLATED) for key in bridges if key.startswith(TRANSLATED)
        }  # (梯度 → gradient: as the paper's words)

        def shown(hit: Hit, aside: bool = False) -> Hit:
            texts = {name: hit.text(name) for name in ("abstract", "summary_zh")}
            if literal is not None and not _literal_match(index, q, hit, literal):
                texts["title"] = hit.text("title")
                found = {**rendered, **hit.concepts} if rendered else hit.concepts
                # (or the literal passage: "sampled" for 采样, a stem whose rendering
                # "sampling" is not written in it)
                hit.snippet = snippets.bridged(
                    texts, bridges, found, snippet_cells
                ) or snippets.snippet(texts, terms, snippet_cells)
            else:
                hit.snippet = snippets.snippet(texts, terms, snippet_cells)
            if aside:
                hit.passing = True
                hit.snippet = IN_PASSING + (hit.snippet or "")
            hit.terms = terms
            return hit

        first = list(index.stream(pasted, 3, searcher=searcher)) if pasted is not None else []
        ids = {h.id for h in first}
        yield from map(shown, first)
        left = None if limit is None else limit - len(first)
        aside = passing_docs(searcher, bridges)
        parts = [({"restrict": aside}, False)] + ([({"allow": aside}, True)] if passing else [])
        for where, marked in parts:
            if left == 0 or where.get("allow") == set():
                return
            more = None if left is None else left + len(ids)  # (room for those listed)
            for hit in index.stream(q, more, searcher=searcher, **where):
                if hit.id in ids:
                    continue
                if left is not None:
                    if left == 0:
                        return
                    left -= 1
                ids.add(hit.id)
                yield shown(hit, marked)


IN_PASSING = "only in passing · "  # (the snippet of a paper naming the concept in passing)


def _literal(q):
    """*q* without its ``concept:`` alternatives and a common word's renderings in the other
    language (weighted ``TRANSLATION_BOOST``): the query as written."""
    from whoosh import query

    def bridged(node) -> bool:
        concept = isinstance(node, query.Term) and node.fieldname == "concept"
        return concept or getattr(node, "boost", 1.0) == TRANSLATION_BOOST

    def strip(node):
        if isinstance(node, query.Or):
            kept = [s for s in node.subqueries if not bridged(s)]
            if len(kept) != len(node.subqueries):
                return kept[0] if len(kept) == 1 else query.Or(kept)
        return node

    return q.accept(strip)


def _literal_match(index: PaperIndex, q, hit: Hit, literal: set[int]) -> bool:
    """Whether the query as written matches *hit* (a hit re-read after its file changed
    has no number in the listing's searcher: asked again)."""
    from whoosh import query

    if hit.docnum is not None:
        return hit.docnum in literal
    return bool(index.run(query.And([_literal(q), query.Term("id", hit.id)]), limit=1, fresh=False))


def named_concepts(index: PaperIndex, text: str) -> dict[str, str]:
    """The concepts of the glossary *text* names: id -> the words of *text* that name it
    (not a common word's rendering in the other language: 训练 names no concept, and left
    out of "光滑 训练" it was kept as if it did, the message naming 29 papers of 训练
    instead of the one of 光滑)."""
    bridges: dict[str, str] = {}
    parse_query(index, text, bridges=bridges)
    return {cid: words for cid, words in bridges.items() if not cid.startswith(TRANSLATED)}


def absent_concepts(index: PaperIndex, text: str) -> list[str]:
    """The concepts *text* names that no paper of the library speaks of, each as its
    English and Chinese names (``mixture of experts (混合专家)``): why it found nothing."""
    glossary = index.query_glossary()
    out = []
    with index.searcher() as searcher:
        reader = searcher.reader()
        for cid in named_concepts(index, text):
            concept = glossary.concept(cid) if glossary else None
            if concept is not None and not reader.doc_frequency("concept", cid):
                en, zh = concept.label("en"), concept.label("zh")
                out.append(f"{en} ({zh})" if concept.zh and zh != en else en)
    return out


def suggest(index: PaperIndex, text: str, filters: Filters | None = None) -> str | None:
    """``suggestion``'s corrected query alone."""
    found = suggestion(index, text, filters)
    return found and found[0]


def suggestion(
    index: PaperIndex, text: str, filters: Filters | None = None
) -> tuple[str, bool] | None:
    """*text* with each word that neither the index nor the glossary knows replaced by the
    closest word the library or the glossary knows, if that finds a paper (within
    *filters*); and whether each correction is clearly the one (``Vocabulary.correction``).

    ``federatd`` → ``federated``. Only plain words are corrected (not fields, phrases or
    Chinese). A word of the glossary's names is no typo where no paper has it: ``MoE`` is
    not ``more``, ``experts`` not ``exerts``. None when there is nothing to correct, or
    when the corrected query finds nothing either (``federatd zzzqqq``).
    """
    import re

    from .analysis import tokens
    from .index.vocabulary import Vocabulary

    words = re.findall(r'"[^"]*"|\S+', text)
    glossary = index.query_glossary()
    names = glossary.words() if glossary is not None else set()
    changed, clear = False, True
    vocabulary = None
    with index.searcher() as searcher:
        reader = searcher.reader()
        for i, typed in enumerate(words):
            word = typed.strip("?!,.;:")  # (federatd? is federatd)
            if not re.fullmatch(r"[A-Za-z][A-Za-z-]{2,}", word) or word in ("AND", "OR", "NOT"):
                continue
            if word.lower() in names:
                continue
            terms = tokens(word, mode="query")
            known = any(
                reader.doc_frequency(field, term)
                for term in terms
                for field in ("title", "name", "abstract", "summary")
            )
            if known or not terms:  # (a common word is not searched: "the" is no typo)
                continue
            if vocabulary is None:  # (the glossary's words too: "reinforcment" is a typo
                # of "reinforcement", which a library may hold only in a tag; after the
                # library's own words, which come first)
                vocabulary = Vocabulary(
                    {**dict.fromkeys(names, 0), **Vocabulary.load(index.dir).counts}
                )
            option, sure = vocabulary.correction(word.lower())
            clear = clear and sure
            if option:
                words[i] = typed.replace(word, option, 1)
                changed = True
    if not changed:
        return None
    better = " ".join(words)
    try:
        found = next(iter(search_stream(index, better, 1, filters)), None)
        return (better, clear) if found else None
    except UsageError:
        return None


def without_one(
    index: PaperIndex, text: str, filters: Filters | None = None
) -> tuple[str, str, int] | None:
    """When no paper has every word of *text*: the word to leave out, the words left and
    how many papers they match (within *filters*). The word left out is one no paper has
    ("how to reduce communication in distributed training": no paper says "reduce"), else
    a word that names no concept of the glossary ("why does Adam work": "work"), the one
    whose absence matches the fewest papers but some. Only for words searched as words (no
    phrases, fields or operators), two to eight of them (Chinese written as one run counts
    as the words it is read as: 基于扩散模型的语言生成 is 扩散模型 and 语言生成, which the
    user cannot see); None when no one word is to blame."""
    from ..text import STOP_WORDS, has_cjk
    from .querying.bridge import words_of_run
    from .querying.syntax import ASKING_WORDS, OPERATORS

    if any(c in text for c in '"():') or OPERATORS.intersection(text.split()):
        return None
    signed = [w for w in text.split() if w[:1] in "+-"]  # (-adam: kept, never left out)
    typed = [
        w
        for w in text.split()
        if w not in signed and w.strip("?!.,;").lower() not in STOP_WORDS | ASKING_WORDS
    ]
    glossary = index.query_glossary() if any(has_cjk(w) for w in typed) else None
    words = [p for w in typed for p in (words_of_run(w, glossary) if glossary else [w])]
    words = _names_whole(index, " ".join(w for w in text.split() if w not in signed), words)
    if not 2 <= len(words) <= 8:  # (a pasted passage would take a search a word)
        return None
    extra = filter_query(filters or Filters())

    def found(words_left: list[str]):  # (the papers they match, lazily; None if unparsable)
        try:
            q = parse_query(index, " ".join(words_left))
        except UsageError:
            return None
        return searcher.docs_for_query(unions(q if extra is None else _and(q, extra)))

    best = None
    with index.searcher() as searcher:
        # A word that finds nothing alone is the only one worth leaving out (two such: no
        # one word is to blame); the first match tells, and spares intersecting the rest.
        nowhere = [w for w in words if next(iter(found([w]) or ()), None) is None]
        if len(nowhere) > 1:
            return None
        # Else the topic stays: a word that names a concept is left out only where no
        # other word will do ("GRPO variants" left out GRPO: 3 papers say "variants", 4 GRPO).
        named = set() if nowhere else {w for w in words if named_concepts(index, w)}
        for word in nowhere or words:
            rest = [w for w in words if w != word] + signed
            docs = iter(found(rest) or ())
            if next(docs, None) is None:
                continue
            n = 1 + sum(1 for _ in docs)
            rank = (word in named, n)
            if best is None or rank < best[0]:
                best = (rank, (word, " ".join(rest), n))
    return best and best[1]


def _names_whole(index: PaperIndex, text: str, words: list[str]) -> list[str]:
    """*words* (those of *text* to search for) with each English name of several words as
    one, and its common words ("least squares method": "least squares", "method"; "mixture
    of experts"). Left out, a word of a name leaves the name's other words, a name of
    nothing: "least squares method" had no word to leave out, as "squares" alone finds no
    paper and "least method" none either."""
    from ..text import STOP_WORDS

    names = [name for name in named_concepts(index, text).values() if " " in name]
    out, i = [], 0
    while i < len(words):
        for name in sorted(names, key=len, reverse=True):
            inside = [w for w in name.lower().split() if w not in STOP_WORDS]
            if [w.lower() for w in words[i : i + len(inside)]] == inside:
                out.append(name)
                i += len(inside)
                break
        else:
            out.append(words[i])
            i += 1
    return out


def _and(q, extra):
    from whoosh import query

    return query.And([q, extra])


def similar(index: PaperIndex, rid: str, limit: int = 10) -> tuple[Hit, list[Hit]]:
    """The papers closest to one paper: its key terms, in English and Chinese, as a query."""
    from whoosh import query

    paper = get_paper(index, rid)
    texts = {
        "title": paper.text("title") or "",
        "name": paper.data.get("short_name") or "",
        "abstract": paper.text("abstract") or "",
        "summary": paper.text("summary_zh") or "",
    }
    parts = []
    with index.searcher() as searcher:
        for field, text in texts.items():
            if text:
                for term, weight in searcher.key_terms_from_text(field, text, numterms=12):
                    parts.append(query.Term(field, term, boost=weight))
    parts += [query.Term("tag", t) for t in paper.data.get("tags", [])]  # bridges the languages
    if not parts:
        return paper, []
    q = query.And([query.Or(parts), query.Not(query.Term("id", paper.id))])
    hits = index.run(q, limit, exact=True)
    return paper, hits


def list_papers(
    index: PaperIndex, filters: Filters, limit: int | None = None, stream: bool = False
) -> list[Hit] | Iterator[Hit]:
    """Papers matching the filters, ordered by title (or derived label); with *stream*,
    one at a time as they are consumed (see ``PaperIndex.stream``)."""
    from whoosh import query

    q = filter_query(filters) or query.Every()
    if stream:
        return index.stream(q, limit, sort=True)
    return index.run(q, limit=limit, sort=True)


def tag_counts(index: PaperIndex) -> list[tuple[str, int]]:
    """Every tag in the library with its number of papers, most used first."""
    from whoosh import query

    counts = []
    with index.searcher() as searcher:
        for tag in sorted({t.decode("utf-8") for t in searcher.lexicon("tag")}):
            n = len(list(searcher.docs_for_query(query.Term("tag", tag))))
            if n:
                counts.append((tag, n))
    return sorted(counts, key=lambda tc: (-tc[1], tc[0]))


STAT_SECTIONS = ("venue", "year", "category", "source", "title", "languages")


def stats(index: PaperIndex) -> dict[str, list[tuple[str, int]]]:
    """Papers per venue, year, category, source document, titled/untitled, languages, tag."""
    from whoosh import query

    out: dict[str, list[tuple[str, int]]] = {s: [] for s in STAT_SECTIONS}
    with index.searcher() as searcher:
        for term in searcher.lexicon("facets"):
            text = term.decode("utf-8")
            section, _sep, value = text.partition(":")
            n = len(list(searcher.docs_for_query(query.Term("facets", text))))
            if n and section in out:
                out[section].append((value, n))
    for section, rows in out.items():
        numeric = section == "year"
        rows.sort(key=lambda r: (r[0],) if numeric else (-r[1], r[0]))
    out["tag"] = tag_counts(index)
    out["papers"] = [("all", index.doc_count())]
    return out


def get_paper(index: PaperIndex, rid: str) -> Hit:
    """One paper by id (exact, or a unique prefix), by its citation key (what a LaTeX
    document cites it as: ``papers show hiso2026``), by one of its links (an arXiv id,
    a DOI, its OpenReview forum) or by its title, pasted."""
    from whoosh import query

    from ..store.merge import title_key

    rid = rid.strip()
    hits = index.run(query.Term("id", rid), limit=1)
    if hits:
        return hits[0]
    if rid:
        hits = index.run(query.Term("citekey", rid), limit=2)
        if len(hits) == 1:  # (keys are unique in a library; two would be a damaged one)
            return hits[0]
        link = link_key(rid)
        hits = index.run(query.Term("keys", link), limit=2) if link else []
        if len(hits) == 1:
            return hits[0]
        key = None if link else title_key(rid)  # (its title, pasted)
        titled = index.run(query.Term("keys", key), limit=3) if key else []
        if len(titled) == 1:
            return titled[0]
        if titled:  # (the same title in two years, two venues)
            ids = ", ".join(h.id for h in titled)
            raise UsageError(f"{rid!r} is the title of several papers ({ids}); give the id")
        hits = index.run(query.Prefix("id", rid), limit=3)
        if len(hits) == 1:
            return hits[0]
        if hits:
            ids = ", ".join(h.id for h in hits[:2])
            raise UsageError(f"{rid!r} matches several papers ({ids}, …); give more of the id")
    named = _short_named(index, rid)
    hint = f"; {rid} is the short name of {', '.join(named)}" if named else ""
    raise UsageError(f"no paper with id, citation key, link or title {rid!r}{hint}")


def _short_named(index: PaperIndex, name: str) -> list[str]:
    """The ids of the papers whose short name is *name* (any case), for the message when
    it was given as an id (``papers show HiSo``): a short name may be shared, an id not."""
    from whoosh import query

    words = [t.text for t in index.ix.schema["name"].analyzer(name)]
    if not words or len(name) > 60:
        return []
    hits = index.run(query.And([query.Term("name", w) for w in words]), limit=4)
    return [h.id for h in hits if (h.data.get("short_name") or "").casefold() == name.casefold()]


def select(
    index: PaperIndex,
    text: str | None,
    filters: Filters,
    ids: Iterable[str] = (),
    resolve_tag: TagResolver | None = None,
    passing: bool = True,
) -> list[str]:
    """Ids of the papers to export, ordered by id: by query and/or filters, plus explicit
    ids: what ``search`` lists for the same query (without *passing*, not the papers that
    name its concepts only in passing). Only ids are collected; records are read while they
    are written out."""
    from whoosh import query

    chosen = {get_paper(index, rid).id for rid in ids}
    if text:  # (what search lists: the paper the text names, the query's, or a reference's)
        extra = filter_query(filters)

        def found(node) -> list[str]:
            return index.ids(node if extra is None else query.And([node, extra]))

        named = named_paper(index, text)
        bridges: dict[str, str] = {}
        try:
            q = parse_query(index, text, resolve_tag, bridges=bridges)
            matched, error = found(q), None
            if not passing and (aside := in_passing(bridges)) is not None:
                matched = sorted(set(matched) - set(index.ids(aside)))
        except UsageError as exc:  # (a title the query language cannot read: named, or not)
            matched, error = [], exc
        matched += found(named) if named is not None else []
        if not matched and (cited := cited_titles(index, text)) is not None:
            matched = found(cited)
        if not matched:  # (as search lists them: the papers holding it as plain text)
            from .results.literal_scan import plain_matches

            matched = [hit.id for hit in plain_matches(index, text, extra)]
        if not matched and error is not None:
            raise error
        chosen.update(matched)
    elif filters.tags or filters.venue or filters.year or not chosen:
        chosen.update(index.ids(filter_query(filters) or query.Every()))
    return sorted(chosen)
