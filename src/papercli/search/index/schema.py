"""What the index holds for each paper: the fields, their analysis and weights, and the
document made from a record.

In: a ``Record`` and the stamp of its file. Out: the fields Whoosh indexes (analysed
text, keywords, numbers) and stores (the record as JSON, its file's stamp, the plain
readings of its LaTeX).
"""

from __future__ import annotations

import json
import weakref

from ...store.files import Stamp
from ...store.links import link_keys
from ...store.merge import merged_keys, record_keys
from ...store.record import Record
from ...text import strip_controls
from ...text.latex import latex_to_text

# Index schema versions: 9: stored plain readings; 10: analyzer pickled as papercli.search.analysis
# 11: the glossary's concepts; 12: one spelling (NFKC, Simplified Chinese, American English)
# 13: Porter2, with the -ize family and -tion nouns kept apart; 14: the concepts' words stored
# 15: the authors' keywords (from OpenReview); 16: "generalized" stemmed apart
# 17: Traditional Chinese converted by OpenCC's character table
# 18: "transformer", "explainability", "interpretability" stemmed apart
# 19: stored fields uncompressed (codec.PapersCodec), an untitled paper's label stored
# 20: the record and its readings stored as dicts (in the stored fields' one pickle), not JSON
# 21: the year in one tier (year ranges were wrong), none for a paper without a year
# 22: a paper's arXiv identifier and its title at any venue among its identity keys (a
#     preprint meets its published version), and its links as keys (a pasted link finds it)
# 23: underscores inside words dropped (ℓ_1 is l1: text.variants.normalize)
# 24: Greek letters by name (β is beta; the glossary's terms in the same spelling)
# 25: a term written once with another that shares its head is found (样本和时间复杂度)
# 26: a hyphenated word indexed as one word too (multi-modal is also multimodal)
# 27: a number at its head both ways (two-layer is also 2layer)
# 28: the compiled glossary as lines read as bytes (compiled.py), not one JSON document
# 29: an -izer stemmed apart from its -ization (an optimizer is not optimization)
# 30: words Porter2 merged by chance stemmed apart (AIME is not aim, experience not experiment)
# 31: an -ator stemmed apart from its verb (a generator is not what generates)
# 32: the concepts a paper names only in passing (search.aside)
# 33: the codec in papercli.engine; a sort key ends with the id (equal titles by id)
# 34: names' parts (analysis.word_parts); a tagged concept is never one named in passing
# 35: sentence ends (text.SENTENCE_END): an untitled paper's stored label and the sentences
#     of passing mentions end at no decimal point nor abbreviation (e.g.), and at 。
SCHEMA_VERSION = 35
CONCEPT_BOOST = 0.2  # a paper found only through the glossary ranks below a literal match
# A paper found by a part of a name (Qwen in Qwen2.5) ranks below one that writes the word.
PARTS_BOOST = 0.5


def make_schema():
    from whoosh import fields

    from ..analysis import bilingual_analyzer, parts_analyzer

    analyzer = bilingual_analyzer()

    def text(boost: float):
        return fields.TEXT(analyzer=analyzer, field_boost=boost, multitoken_query="phrase")

    # Ranking: a term in the title or short name counts most, in the tags next, in the
    # abstract or summary least (BM25F with these field weights).
    return fields.Schema(
        id=fields.ID(stored=True, unique=True),
        citekey=fields.ID(),
        title=text(4.0),
        name=text(4.0),
        author=text(2.0),
        keyword=text(2.0),
        tag=fields.KEYWORD(commas=True, lowercase=True, scorable=True, field_boost=2.0),
        concept=fields.KEYWORD(commas=True, scorable=True, field_boost=CONCEPT_BOOST),
        aside=fields.KEYWORD(
            commas=True
        ),  # the concepts named only in passing (concepts/passing.py)
        abstract=text(1.0),
        summary=text(1.0),
        parts=fields.TEXT(analyzer=parts_analyzer(), phrase=False, field_boost=PARTS_BOOST),
        venue=fields.KEYWORD(lowercase=True),
        # One tier: Whoosh's tiered ranges over unsigned numbers are wrong (year:..2025 and
        # year:<2026 found every 2026 paper; 55 of 88 ranges tried on six years were), and
        # a library holds a few distinct years, which one range over the terms reads.
        year=fields.NUMERIC(int, bits=16, signed=False, shift_step=16),
        category=fields.KEYWORD(commas=True, lowercase=True),
        keys=fields.KEYWORD(commas=True),
        facets=fields.KEYWORD(commas=True),  # "venue:ICLR,year:2026,…" for papers stats
        sortkey=fields.ID(sortable=True),
        stamp=fields.STORED,
        data=fields.STORED,  # the record (Record.to_dict()): a hit is one unpickling
        plain=fields.STORED,  # the texts' plain readings, where LaTeX made them differ
        concepts=fields.STORED,  # concept -> the words of the paper that speak of it
        label=fields.STORED,  # an untitled paper's derived label (a listing line needs it)
    )


def document(
    record: Record,
    stamp: Stamp,
    data: dict | None = None,
    concepts: dict | None = None,
    aside: list[str] = (),
) -> dict:
    """The index document for *record*: analysed text plus the stored record itself, and
    the *concepts* of the glossary its text speaks of (id -> the words that do: a paper
    found only through the glossary shows them without the glossary being read), *aside*
    those it names only in passing.

    Terminal escapes and control characters in the text are kept in the record but not
    indexed, so ``\x1b[31mRED`` is found by ``RED``.
    """

    def text(value: str | None) -> str:
        return strip_controls(latex_to_text(value or ""))

    texts = (record.title, record.short_name, record.abstract, record.summary_zh)
    return {
        "id": record.id,
        "citekey": record.citekey or "",
        "title": text(record.title),
        "name": text(record.short_name),
        "author": text("; ".join(record.authors)),
        "keyword": text("; ".join(record.keywords)),
        "tag": ",".join(record.tags),
        "concept": ",".join(concepts or ()),
        "aside": ",".join(aside),
        "concepts": json.dumps(concepts, ensure_ascii=False) if concepts else "",
        "abstract": text(record.abstract),
        "summary": text(record.summary_zh),
        "parts": text("\n".join(t for t in (*texts, *record.keywords) if t)),
        "venue": record.venue or "",
        "year": record.year,  # (None: no year indexed, in no range)
        "category": ",".join(c.replace(",", " ") for c in record.categories),
        "keys": ",".join(
            dict.fromkeys([*record_keys(record), *link_keys(record.urls), *merged_keys(record)])
        ),
        "facets": ",".join(v.replace(",", " ") for v in facets(record)),
        "sortkey": f"{record.label.casefold()}\0{record.id}",  # (equal labels: by id)
        "stamp": stamp.as_list(),
        "data": record.to_dict() if data is None else data,
        "plain": readings(record),
        "label": "" if record.title else record.label,
    }


def ids_by_docnum(searcher):
    """docnum -> paper id, read from the sort key's column (``label\\0id``): a stored record
    would be unpickled whole for its id. None for an index with no paper (no column). The
    column is opened when first read, once for each searcher (only equal scores read it;
    opening it reads the offsets of every paper: 0.6 ms at 10,000 papers, and papers
    browse keeps its searcher from one keystroke to the next)."""
    reader = searcher.reader()
    if not reader.has_column("sortkey"):
        return None

    def paper_id(docnum: int) -> str:
        column = _SORT_KEYS.get(searcher)
        if column is None:
            column = _SORT_KEYS[searcher] = reader.column_reader("sortkey")
        return column[docnum].rpartition("\0")[2]

    return paper_id


_SORT_KEYS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # searcher -> column


def record_document(glossary, rid: str, data: dict, stamp: list[int]) -> dict:
    """``document`` for a record given as ``Record.to_dict()`` (what an indexing process
    receives), its concepts found with *glossary* (a ``Glossary``)."""
    record = Record.from_dict(data, rid)
    return document(record, Stamp(*stamp), data, *glossary.read(record))


PLAIN_FIELDS = ("title", "abstract", "summary_zh")


def readings(record: Record) -> dict[str, str]:
    """The plain readings of the record's texts that differ from the texts (LaTeX read as
    text), stored so that showing the record never converts LaTeX again."""
    out = {}
    for name in PLAIN_FIELDS:
        value = getattr(record, name)
        if value and (plain := latex_to_text(value)) != value:
            out[name] = plain
    return out


def facets(record: Record) -> list[str]:
    """What ``papers stats`` counts, one ``kind:value`` per fact."""
    out = [f"venue:{record.venue or '(none)'}", f"year:{record.year or '(none)'}"]
    out += [f"category:{c}" for c in record.categories]
    out += [f"source:{name}" for name in dict.fromkeys(s.name for s in record.sources)]
    out.append("title:titled" if record.title else "title:untitled")
    languages = [
        lang
        for lang, text in (
            ("English abstract", record.abstract),
            ("Chinese summary", record.summary_zh),
        )
        if text
    ]
    out.append("languages:" + (" + ".join(languages) or "title only"))
    return out
