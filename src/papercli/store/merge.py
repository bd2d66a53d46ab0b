"""One record per paper: identity keys, the merge rule, and folding an entry into a record.

The rule (also in the README):

1. Same venue and year, and titles equal up to case, spacing, punctuation and dash
   style → same paper.
2. Abstracts equal up to line wrapping, spacing and case → same paper (a paginated list
   that repeats an abstract).
3. Same arXiv identifier (version aside) → same paper: a preprint from one export and the
   same preprint from another, whatever year each gives it, or a conference paper whose
   entry names its preprint; also the same title when one side is an arXiv preprint. A
   conference venue then takes the place of arXiv.
4. Same venue, year and short name → same paper only when nothing contradicts it (no two
   different titles or abstracts) and, when one side has the title and the
   other the abstract, at least half of the title's words occur in the abstract.
   This is how the digest entry "RRNCO: Towards Real-World Routing …" and the untitled
   abstract that introduces RRNCO become one record.

5. An entry that names no venue and no year (a digest page copied without its header)
   and a record with the same title → same paper: the title is all the entry can be
   known by, and a second, venue-less record of it would only be a duplicate.

Two different arXiv identifiers are two papers, whatever else they share. Anything else
stays separate.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from ..text import STOP_WORDS, fold_key
from ..text.latex import latex_to_text
from .links import arxiv_id, is_arxiv
from .record import Record, Source

if TYPE_CHECKING:  # importing parsers compiles their patterns: not on a search's path
    from ..parsers.base import Entry

MERGED_FIELDS = ("title", "short_name", "abstract", "summary_zh")


def text_key(text: str) -> str:
    """What two spellings of the same text share: its plain reading (LaTeX and Markdown read
    as text), case-folded, without spaces, punctuation or dash style."""
    return fold_key(latex_to_text(text))


def title_key(title: str) -> str | None:
    """The key a paper is found by from its *title* whatever its venue (a title pasted into
    a search: ``identity_keys`` stores it); None for a title with no letter or digit."""
    folded = text_key(title)
    return f"p:{folded}" if folded else None


def _venue_year(venue: str | None, year: int | None) -> str:
    return f"{fold_key(venue or '')}{year or ''}"


@lru_cache(maxsize=4096)
def identity_keys(
    venue: str | None,
    year: int | None,
    title: str | None,
    short_name: str | None,
    abstract: str | None,
    preprint: str | None = None,
) -> tuple[str, ...]:
    """The keys a paper is recognised by (cached: an ingest asks for a record's keys when
    it is created, looked up and indexed; folding a whole abstract costs ~20 us)."""
    import hashlib  # (here: a search imports this module but never computes keys)

    keys = []
    folded = text_key(title) if title else ""
    if folded:
        keys.append(f"t:{_venue_year(venue, year)}:{folded}")
        keys.append(f"p:{folded}")  # (any venue: a preprint's, see same_paper; a pasted title)
    abstract_key = text_key(abstract) if abstract else ""
    if abstract_key:
        keys.append("a:" + hashlib.sha1(abstract_key.encode("utf-8")).hexdigest()[:20])
    if preprint:
        keys.append("x:" + preprint)
    name_key = fold_key(short_name) if short_name else ""
    if name_key:
        keys.append(f"n:{_venue_year(venue, year)}:{name_key}")
    return tuple(keys)


def record_keys(record: Record) -> tuple[str, ...]:
    return identity_keys(
        record.venue,
        record.year,
        record.title,
        record.short_name,
        record.abstract,
        arxiv_id(record.urls),
    )


def merged_keys(record: Record) -> list[str]:
    """A merged paper's further keys (``papers merge``): each alias (``i:``), by which the
    papers merged into it are still found, and each place its sources cite (``m:``), by
    which ingesting a merged entry's document again finds this record, not a new one."""
    if not record.aliases:
        return []
    places = [f"m:{s.document}:{s.line}" for s in record.sources if "," not in s.document]
    return [f"i:{a}" for a in record.aliases] + places


def entry_keys(entry: Entry) -> tuple[str, ...]:
    return identity_keys(
        entry.venue, entry.year, entry.title, entry.short_name, entry.abstract, arxiv_id(entry.urls)
    )


_WORD_RE = re.compile(r"[a-z][a-z0-9]+")


def _title_in_abstract(title: str, abstract: str) -> bool:
    title_words = {w for w in _WORD_RE.findall(title.lower()) if w not in STOP_WORDS}
    abstract_words = set(_WORD_RE.findall(latex_to_text(abstract).lower()))
    return bool(title_words) and len(title_words & abstract_words) * 2 >= len(title_words)


def same_paper(record: Record, entry: Entry) -> bool:
    """Whether *entry* describes the paper of *record* (which shares a key with it)."""
    rkeys, ekeys = set(record_keys(record)), set(entry_keys(entry))
    shared = rkeys & ekeys
    mine, its = ({k for k in keys if k.startswith("x:")} for keys in (rkeys, ekeys))
    if mine and its and mine != its:
        return False  # two preprints, whatever else they share
    if any(k.startswith(("t:", "a:", "x:")) for k in shared):
        return True
    titled = {k for k in shared if k.startswith("p:")}
    if titled and (is_arxiv(record.venue) or is_arxiv(entry.venue)):
        return True  # a preprint and its published version (or two years of one preprint)
    if titled and entry.venue is None and entry.year is None:
        return True  # a page that names no venue (copied without its header): its title
    shared -= titled
    if not shared:
        return False
    if record.title and entry.title and text_key(record.title) != text_key(entry.title):
        return False
    if record.abstract and entry.abstract and text_key(record.abstract) != text_key(entry.abstract):
        return False
    title = record.title or entry.title
    abstract = record.abstract or entry.abstract
    if title and abstract:
        return _title_in_abstract(title, abstract)
    return True


def new_record(rid: str, entry: Entry, source: Source) -> Record:
    return Record(id=rid, **entry.paper(), sources=[source])


def _fold(record: Record, other: Entry | Record, origin: str) -> None:
    """Fill the record's empty fields from *other* (an entry, or a whole record), note each
    disagreement with its origin, and union the lists."""
    for name in MERGED_FIELDS:
        new, old = getattr(other, name), getattr(record, name)
        if new and not old:
            setattr(record, name, new)
        elif new and text_key(old) != text_key(new):
            record.add_conflict({"field": name, "value": new, "source": origin})
    for name in ("categories", "keywords", "urls"):
        values = getattr(record, name)
        values.extend(v for v in getattr(other, name) if v not in values)
    if other.authors and not record.authors:
        record.authors = list(other.authors)
    if record.venue is None:
        record.venue, record.year = other.venue, other.year
    elif is_arxiv(record.venue) and other.venue and not is_arxiv(other.venue):  # published
        record.venue, record.year, record.kind = other.venue, other.year or record.year, None
    if record.kind is None:
        record.kind = other.kind


def merge_entry(record: Record, entry: Entry, source: Source) -> None:
    """Fold *entry* into *record*: fill empty fields, union lists, note disagreements."""
    if record.cites(source):
        return  # this very entry is already part of the record: re-ingest changes nothing
    _fold(record, entry, f"{source.name}:{source.line}")
    record.add_source(source)


def fold_reply(record: Record, entry: Entry, source: Source) -> None:
    """Fold a service's reply (``papers add``: ``arxiv:…``, ``crossref:…``) into *record*
    as ``merge_entry`` folds an entry, each disagreement noted with the reply's name. A
    reply the record cites already is folded again: a service's answer can change, and an
    answer that did not changes nothing."""
    _fold(record, entry, source.document)
    record.add_source(source)


def earlier_version(record: Record, entry: Entry, source: Source) -> Source | None:
    """The record's source that *source* is a later version of: the same BibTeX file (by
    name), another copy of it, and an entry that can be the same paper revised (the caller
    matched it by its key, which a BibTeX file gives once). Two projects' ``refs.bib`` may
    give one key to two papers: then the titles share less than half their words, or the
    first authors differ, and the entry is not taken for a revision."""
    if source.format != "bibtex" or not _revisable(record, entry):
        return None
    return next(
        (
            s
            for s in record.sources
            if s.format == "bibtex" and s.name == source.name and s.document != source.document
        ),
        None,
    )


def _revisable(record: Record, entry: Entry) -> bool:
    if record.title and entry.title:
        mine, its = (
            {w for w in _WORD_RE.findall(latex_to_text(t).lower()) if w not in STOP_WORDS}
            for t in (record.title, entry.title)
        )
        if mine and its and len(mine & its) * 2 < min(len(mine), len(its)):
            return False
    if record.authors and entry.authors:
        return _family(record.authors[0]) == _family(entry.authors[0])
    return True


def _family(name: str) -> str:
    """ "Kingma, Diederik P" and "Diederik P. Kingma" → "kingma"."""
    family = name.split(",")[0] if "," in name else (name.split() or [""])[-1]
    return fold_key(family)


REVISED = (
    "title",
    "authors",
    "short_name",
    "abstract",
    "summary_zh",
    "urls",
    "venue",
    "year",
    "kind",
)


def revise_entry(record: Record, entry: Entry, before: Entry, source: Source, old: Source) -> bool:
    """Put into *record* what changed from *before* (its key's entry in the earlier copy
    *old* of a BibTeX file) to *entry* (in the new copy *source*): a typo fixed in a title
    corrects the paper, rather than making a second one. A field the file did not change
    is left as the record has it (a hand edit stays); a field the new version drops is
    removed unless another source gave it too; links are added and removed one by one.

    Returns whether the paper changed; if not, the record is left as it was, citing *old*."""
    others = {name for s in record.sources if s is not old for name in s.fields}
    revised: dict = {}
    for name in REVISED:
        new, was = getattr(entry, name), getattr(before, name)
        if new == was:
            continue
        if name == "urls":
            kept = [u for u in record.urls if u not in was or u in new]
            revised[name] = kept + [u for u in new if u not in kept]
        elif new or (name not in others and name not in ("venue", "year", "kind")):
            revised[name] = _copy(new)  # (a venue or year dropped from the file stays)
    if all(getattr(record, name) == value for name, value in revised.items()):
        return False
    for name, value in revised.items():
        setattr(record, name, value)
    record.sources[record.sources.index(old)] = source
    return True


def _copy(value):
    return list(value) if isinstance(value, list) else value


def merge_record(record: Record, other: Record) -> None:
    """Fold a whole record (read back from an export) into the library's record of the paper."""
    _fold(record, other, f"record {other.id}")
    for source in other.sources:
        record.add_source(source)
    for kind in ("added", "removed"):
        mine = record.tag_edits.get(kind, [])
        merged = sorted(set(mine) | set(other.tag_edits.get(kind, [])))
        if merged:
            record.tag_edits[kind] = merged
    for conflict in other.conflicts:
        record.add_conflict(conflict)
