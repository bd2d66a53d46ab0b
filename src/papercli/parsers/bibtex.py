"""BibTeX files (``refs.bib``), read with bibtexparser and mapped onto records.

    title        title (LaTeX read as text; math kept as $…$)
    author       authors ("Family, Given" as written)
    booktitle / journal / venue / eventtitle, else howpublished (a link there: urls)
                 venue: a known venue by its short form (ICLR, NeurIPS, …), also inside a
                 long name ("Proceedings of the 40th International Conference on Machine
                 Learning"); arXiv for a preprint ("arXiv preprint arXiv:1412.6980", CoRR)
    year / date  year
    abstract     abstract
    annotation / annote
                 summary_zh, when it is Chinese text
    keywords     tags (the ones the taxonomy would not give are kept as your own)
    shorthand    short name
    url / doi    urls
    eprint       an arXiv link (with archiveprefix or eprinttype arXiv, or an arXiv
                 journal; also "arXiv:ID" in journal, howpublished or note, DBLP's
                 volume abs/ID); the venue is arXiv when no conference is named
    the entry key
                 citation key, kept when no other paper has it
    the entry type
                 kind (article: a journal's; inproceedings: a conference's; …)

An entry written by ``papers export`` with a derived title (the ``% papers:`` comment
above it says so, or its ``note`` in older exports) comes back untitled, as it was.
Fields with no place in a record are named in one warning, and the source copy keeps
them. Entries bibtexparser cannot read are reported with their line and skipped.
"""

from __future__ import annotations

import re
from collections import Counter

from ..store.links import ARXIV, ARXIV_ID, arxiv_id, arxiv_url
from ..store.record import CITEKEY_RE, KIND_RE
from ..text import collapse_ws, has_cjk
from ..text.latex import latex_to_text, segments_of_math
from ..venues import FULL_NAMES, canonical_venue, venue_in_name
from . import bibvalues, shortname
from .base import URL_RE, Document, Entry

NAME = "bibtex"
DESCRIPTION = "BibTeX file"

_ENTRY_START_RE = re.compile(r"^\s*@\s*([A-Za-z]+)\s*[{(]")
_IGNORED_TYPES = {"comment", "string", "preamble"}
_USED = {
    "title",
    "author",
    "booktitle",
    "journal",
    "journaltitle",
    "venue",
    "eventtitle",
    "year",
    "date",
    "abstract",
    "annotation",
    "annote",
    "keywords",
    "shorthand",
    "url",
    "doi",
    "key",
    "note",
    "howpublished",
    "eprint",
    "archiveprefix",
    "eprinttype",
}
_BY_FULL_NAME = {full.casefold(): short for short, full in FULL_NAMES.items()}
_DERIVED = "title derived from the short name"


def sniff(lines: list[str]) -> bool:
    """An ``@type{`` entry among the first non-blank lines, and not a digest page."""
    content = [line for line in lines[:200] if line.strip() and not line.lstrip().startswith("%")]
    return any(_ENTRY_START_RE.match(line) for line in content[:20])


# What a record's text reads as LaTeX (``text.latex``): kept literal, as BibTeX wrote it
# (``\{x\}``, ``\$5``), when the prose's reading has it.
_RECORD_SPECIAL_RE = re.compile(r"[\\{}$]")


def text_of(value: str) -> str:
    r"""A BibTeX field value as record text: LaTeX prose read as Unicode, math kept. A
    literal brace, dollar or backslash of the prose (``\{``, ``\$``) stays escaped: the
    record's text is read as LaTeX again wherever it is shown, and ``{braces}`` read as
    grouping would lose them."""
    pieces = []
    for is_math, body in segments_of_math(value):
        if is_math:
            pieces.append(f"${body}$")
            continue
        lead = " " if body[:1].isspace() else ""  # the spaces around math are part of the text
        trail = " " if body[-1:].isspace() else ""
        reading = _RECORD_SPECIAL_RE.sub(r"\\\g<0>", latex_to_text(body))
        pieces.append(lead + reading + trail)
    return collapse_ws("".join(pieces))


_ARXIV_NAME_RE = re.compile(r"^\s*(?:arxiv\b|corr\s*$)", re.I)  # arXiv preprint …, ArXiv, CoRR
_ARXIV_IN_TEXT_RE = re.compile(rf"\barxiv:\s*({ARXIV_ID})", re.I)
_ARXIV_ALONE_RE = re.compile(rf"^\s*(?:abs/)?({ARXIV_ID})\s*$")


_VENUE_FIELDS = ("booktitle", "journal", "journaltitle", "venue", "eventtitle")


_EPRINT = ("eprint", "archiveprefix", "eprinttype")


def _unused(fields: dict[str, str]) -> list[str]:
    """The fields with no place in the record: howpublished has one only when no other
    field names the venue, and an eprint only when it is arXiv's (not HAL's, PubMed's…)."""
    named = any(fields.get(name) for name in _VENUE_FIELDS)
    arxiv = any(fields.get(name) for name in _EPRINT) and _arxiv_id(fields, []) is not None
    return [
        k
        for k in fields
        if k not in _USED or (k == "howpublished" and named) or (k in _EPRINT and not arxiv)
    ]


def _venue(fields: dict[str, str], preprint: str | None) -> str | None:
    """The venue the entry names; arXiv for a preprint (*preprint*: its arXiv id) when
    it names no other."""
    for name in _VENUE_FIELDS:
        if fields.get(name):
            full = text_of(fields[name])
            if _ARXIV_NAME_RE.match(full):
                return ARXIV
            known = _BY_FULL_NAME.get(full.casefold()) or venue_in_name(full)
            return known or canonical_venue(full)
    published = fields.get("howpublished", "")
    if preprint or _ARXIV_NAME_RE.match(published):
        return ARXIV
    if published and not URL_RE.search(published):  # (a link there is one of the urls)
        return text_of(published)
    return None


def _arxiv_id(fields: dict[str, str], urls: list[str]) -> str | None:
    """The entry's arXiv identifier, wherever the exporter put it: arXiv's and ADS's
    ``eprint`` with ``archiveprefix``, biblatex's ``eprinttype``, Google Scholar's
    ``journal = {arXiv preprint arXiv:…}``, DBLP's ``journal = {CoRR}, volume = {abs/…}``,
    Zotero's ``number = {arXiv:…}`` or DOI 10.48550/arXiv.…, or a link to arxiv.org."""
    kind = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().casefold()
    journal = fields.get("journal") or fields.get("journaltitle") or ""
    arxiv_journal = bool(_ARXIV_NAME_RE.match(journal))
    eprint = _ARXIV_ALONE_RE.match(fields.get("eprint", ""))
    if eprint and (kind == "arxiv" or (not kind and arxiv_journal)):
        return eprint.group(1)
    for name in ("journal", "journaltitle", "howpublished", "note", "number"):  # number: Zotero
        m = _ARXIV_IN_TEXT_RE.search(fields.get(name, ""))
        if m:
            return m.group(1)
    doi = arxiv_id([fields.get("doi", "")])  # arXiv's DataCite DOIs (Zotero)
    if doi:
        return doi
    volume = _ARXIV_ALONE_RE.match(fields.get("volume", ""))
    if arxiv_journal and volume:
        return volume.group(1)
    return arxiv_id(urls)


def _year(fields: dict[str, str]) -> int | None:
    m = re.search(r"(?:19|20)\d{2}", fields.get("year") or fields.get("date") or "")
    return int(m.group()) if m else None


def _authors(value: str) -> list[str]:
    return [text_of(name) for name in re.split(r"\s+and\s+", value.strip()) if name.strip()]


def parse(lines: list[str]) -> Document:
    import bibtexparser

    doc = Document(format=NAME)
    # Raw values (no middleware): macros and `#` are read by bibvalues, as BibTeX reads them
    library = bibtexparser.parse_string("\n".join(lines), parse_stack=[])
    for block in library.failed_blocks:
        line = getattr(block, "start_line", 0) + 1
        doc.warn(line, "an entry BibTeX cannot read (unbalanced braces or quotes?); skipped")
    macros: dict[str, str] = {}
    for string in library.strings:  # in file order: one may use those before it
        value = _value(doc, "@string", string.key, string, macros)
        macros[string.key.lower()] = value or ""
    unused: Counter[str] = Counter()
    for bib in library.entries:
        if bib.entry_type.lower() in _IGNORED_TYPES:
            continue
        fields = {}
        for f in bib.fields:
            value = _value(doc, f"entry {bib.key!r}", f.key, f, macros)
            if value is not None:
                fields[f.key.lower()] = value
        unused.update(_unused(fields))
        derived = _derived_above(lines, bib.start_line)
        entry = _entry(bib.key, bib.start_line + 1, fields, bib.entry_type.lower(), derived)
        if entry is not None and entry.citekey is None:
            doc.warn(
                bib.start_line + 1,
                f"entry {bib.key!r}: {_unkept_key(bib.key)}; the paper gets a key of its own",
            )
        if entry is None:
            doc.warn(
                bib.start_line + 1, f"entry {bib.key!r} has no title, abstract or summary; skipped"
            )
        else:
            doc.entries.append(entry)
    if unused:
        names = ", ".join(f"{k} ({n})" for k, n in sorted(unused.items()))
        doc.warn(1, f"fields with no place in a record, kept in the source copy only: {names}")
    return doc


def _unkept_key(key: str) -> str:
    """Why *key* is not kept as the paper's citation key (CITEKEY_RE)."""
    if len(key) > 80:
        return "the key is longer than 80 characters"
    odd = sorted({ch for ch in key if not (ch.isascii() and (ch.isalnum() or ch in "_:./+-"))})
    if odd:
        return f"a citation key cannot hold {' '.join(map(repr, odd))}"
    return "a citation key starts with a letter or digit"


def _value(doc: Document, where: str, name: str, block, macros: dict[str, str]) -> str | None:
    """The text of a field (or @string) *block*'s raw value; what BibTeX would not read, or
    reads as empty for want of an @string, is reported at the field's line."""
    line = getattr(block, "start_line", 0) + 1
    try:
        reading = bibvalues.read(str(block.value), macros)
    except bibvalues.Unreadable as exc:
        doc.warn(line, f"{where}: {name} holds {exc}; the field is left out")
        return None
    for macro in reading.undefined:
        doc.warn(
            line,
            f"{where}: {name} uses {macro!r}, which no @string defines; "
            "read as empty, as BibTeX reads it",
        )
    return reading.text


def _derived_above(lines: list[str], start: int) -> bool:
    """Whether the ``%`` lines right above the entry starting at line *start* (0-based)
    say that its title was derived (``papers export`` of an untitled paper)."""
    i = start - 1
    while i >= 0 and lines[i].lstrip().startswith("%"):
        if _DERIVED in lines[i].lower():
            return True
        i -= 1
    return False


def _entry(
    key: str, line: int, fields: dict[str, str], kind: str, derived: bool = False
) -> Entry | None:
    """One BibTeX entry's fields as an entry (None when it has no text to index);
    *derived*: its title is one ``papers export`` made."""
    title = text_of(fields["title"]) if fields.get("title") else None
    if title and (derived or _DERIVED in (fields.get("note") or "").lower()):
        title = None  # our own export of an untitled paper: it stays untitled
    abstract = text_of(fields["abstract"]) if fields.get("abstract") else None
    annotation = fields.get("annotation") or fields.get("annote") or ""
    summary = text_of(annotation) if has_cjk(annotation) else None
    if not (title or abstract or summary):
        return None
    name = text_of(fields["shorthand"]) if fields.get("shorthand") else None
    published = text_of(fields["howpublished"]) if fields.get("howpublished") else ""
    urls = URL_RE.findall(fields.get("url", "")) + URL_RE.findall(published)  # (\url{…} read)
    if fields.get("doi"):
        urls.append("https://doi.org/" + fields["doi"].strip().removeprefix("https://doi.org/"))
    preprint = _arxiv_id(fields, urls)
    if preprint and not any("arxiv.org/" in url for url in urls):  # (its page, not its DOI)
        urls.append(arxiv_url(preprint))
    keywords = [k.strip().lower() for k in re.split(r"[,;]", fields.get("keywords", ""))]
    return Entry(
        line=line,
        title=title,
        short_name=name
        # (from the LaTeX as written: \textsc{Lumina} marks a name that "Lumina" does not)
        or (title and shortname.from_title(fields["title"]))
        or (abstract and shortname.from_abstract(fields["abstract"])),
        abstract=abstract,
        summary_zh=summary,
        urls=urls,
        venue=_venue(fields, preprint),
        kind=kind if KIND_RE.match(kind) else None,
        year=_year(fields),
        authors=_authors(fields.get("author", "")),
        citekey=key if CITEKEY_RE.match(key) else None,
        keywords=[k for k in keywords if k],
    )
