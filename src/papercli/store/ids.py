"""Paper ids: readable, ASCII, safe as file names, and stable across re-ingests.

    iclr2026-rrnco                          from the short name
    iclr2026-nabla-reasoner                 ∇ spelled out, never dropped
    iclr2026-convergence-muon-newton-schulz from the title's first significant words
    iclr2026-hierarchical-federated-learning-hfl-addresses
                                            an untitled paper without a short name
    jmlr2020-muon-journals                  a long venue name by its initials

An id is derived once, when the paper first enters the library, and then kept: merging
finds the existing record by its identity keys, never by recomputing the id.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from ..text import STOP_WORDS, ascii_words
from ..text.latex import latex_to_text

MAX_WORDS = 5
MAX_LENGTH = 64


def _slug(words: list[str]) -> str:
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > MAX_LENGTH - 12:
            break
        slug = candidate
    return slug or words[0][: MAX_LENGTH - 12]


def _venue_part(venue: str | None) -> str:
    """``iclr``; a venue of three words or more by its initials: ``jmlr`` for the Journal of
    Machine Learning Research (its name whole made ids of 50 characters before the title)."""
    words = ascii_words(venue or "")
    if len(words) < 3:
        return "".join(words)
    named = re.search(r"\(([A-Za-z]{2,12})\)", venue or "")  # "… Applications (ICMLA)"
    if named:
        return named.group(1).lower()
    return "".join(w[0] for w in words if w not in STOP_WORDS and w[0].isalpha())


def base_id(
    venue: str | None,
    year: int | None,
    short_name: str | None,
    title: str | None,
    abstract: str | None,
    summary: str | None,
) -> str:
    prefix = _venue_part(venue) + (str(year) if year else "")
    words = ascii_words(short_name or "")
    if not words:
        text = title or latex_to_text(abstract or "")
        words = [w for w in ascii_words(text) if w not in STOP_WORDS][:MAX_WORDS]
    if not words:  # e.g. a paper known only by a Chinese summary: no ASCII to borrow
        text = title or abstract or summary or ""
        words = ["paper", hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]]
    return f"{prefix or 'paper'}-{_slug(words)}"


def unique_id(base: str, taken: Callable[[str], bool]) -> str:
    """*base*, or *base*-2, -3 … when another paper already holds it."""
    if not taken(base):
        return base
    n = 2
    while taken(f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


def base_citekey(
    short_name: str | None, title: str | None, abstract: str | None, year: int | None
) -> str:
    """A readable BibTeX key: muonbp2026, celo22026, nablareasoner2026, convergencemuon2026."""
    words = ascii_words(short_name or "")
    if not words:
        text = title or latex_to_text(abstract or "")
        words = [w for w in ascii_words(text) if w not in STOP_WORDS][:2]
    stem = "".join(words)[:40] or "paper"
    return f"{stem}{year or ''}"


def unique_citekey(base: str, taken: Callable[[str], bool]) -> str:
    """*base*, or *base*a, *base*b … (the BibTeX convention for same-year keys)."""
    if not taken(base):
        return base
    for n in range(1, 10_000):
        suffix = ""
        while n:
            n, r = divmod(n - 1, 26)
            suffix = chr(ord("a") + r) + suffix
        if not taken(base + suffix):
            return base + suffix
    raise RuntimeError("no free citation key")  # pragma: no cover - 10k same-name papers
