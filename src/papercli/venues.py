"""Venue names: recognising ``ICLR2026`` / ``NeurIPS 2025`` in headers, a venue in the long
names BibTeX files give (``Proceedings of the 40th International Conference on Machine
Learning``), and their full names. (arXiv, a preprint server, is in ``store.links``.)"""

from __future__ import annotations

import functools
import re

# Canonical spelling -> full name (used as BibTeX booktitle / CSL container-title).
FULL_NAMES = {
    "AAAI": "AAAI Conference on Artificial Intelligence",
    "ACL": "Annual Meeting of the Association for Computational Linguistics",
    "AISTATS": "International Conference on Artificial Intelligence and Statistics",
    "COLING": "International Conference on Computational Linguistics",
    "COLM": "Conference on Language Modeling",
    "COLT": "Conference on Learning Theory",
    "CVPR": "IEEE/CVF Conference on Computer Vision and Pattern Recognition",
    "ECCV": "European Conference on Computer Vision",
    "EMNLP": "Conference on Empirical Methods in Natural Language Processing",
    "ICCV": "IEEE/CVF International Conference on Computer Vision",
    "ICLR": "International Conference on Learning Representations",
    "ICML": "International Conference on Machine Learning",
    "IJCAI": "International Joint Conference on Artificial Intelligence",
    "KDD": "ACM SIGKDD Conference on Knowledge Discovery and Data Mining",
    "NAACL": "Annual Conference of the North American Chapter of the Association for "
    "Computational Linguistics",
    "NeurIPS": "Advances in Neural Information Processing Systems",
    "SIGIR": "International ACM SIGIR Conference on Research and Development in "
    "Information Retrieval",
    "UAI": "Conference on Uncertainty in Artificial Intelligence",
    "WWW": "The ACM Web Conference",
}
_ALIASES = {"NIPS": "NeurIPS"}
_CANONICAL = {name.casefold(): name for name in FULL_NAMES} | {
    k.casefold(): v for k, v in _ALIASES.items()
}

# A venue token glued to or followed by a four-digit year: ICLR2026, ICML 2025, NeurIPS'2025.
VENUE_YEAR_RE = re.compile(
    r"(?<![A-Za-z0-9])([A-Za-z]{2,12}(?:[-&][A-Za-z]+)?)\s?['’]?((?:19|20)\d{2})(?!\d)"
)


def _is_venue(name: str) -> bool:
    """A known venue in any case, or an unknown one spelled like an acronym (CoRL, MLSys)."""
    return name.casefold() in _CANONICAL or sum(c.isupper() for c in name) >= 2


def known_venue(word: str) -> str | None:
    """The canonical spelling of the known venue *word* names in any case (``iclr`` ->
    ``ICLR``), or None."""
    return _CANONICAL.get(word.casefold())


def canonical_venue(name: str) -> str:
    """``neurips`` → ``NeurIPS``; an unknown venue keeps the spelling it was written with."""
    return _CANONICAL.get(name.casefold(), name)


def venue_named(text: str) -> str:
    """The venue a user names, by any name the parser accepts: an alias (``NIPS``), any
    case (``iclr``), or its full name; an unknown one as typed."""
    text = " ".join(text.split())
    return known_venue(text) or venue_in_name(text) or text


def full_name(venue: str | None) -> str | None:
    if venue is None:
        return None
    return FULL_NAMES.get(canonical_venue(venue), venue)


def find_venue_years(text: str) -> list[tuple[str, int]]:
    """Every venue+year pair mentioned in *text*, in order."""
    return [(canonical_venue(v), int(y)) for v, y in VENUE_YEAR_RE.findall(text) if _is_venue(v)]


# Other names a known venue goes by inside longer ones (Google Scholar, DBLP, OpenReview):
# "Thirty-seventh Conference on Neural Information Processing Systems", "Proceedings of the
# IEEE Conference on Computer Vision and Pattern Recognition".
_OTHER_NAMES = {
    "NeurIPS": ["Neural Information Processing Systems"],
    "CVPR": ["Conference on Computer Vision and Pattern Recognition"],
    "ICCV": ["International Conference on Computer Vision"],
    "KDD": [
        "Conference on Knowledge Discovery and Data Mining",
        "Conference on Knowledge Discovery & Data Mining",
    ],
    "NAACL": ["North American Chapter of the Association for Computational Linguistics"],
    "WWW": ["ACM Web Conference", "World Wide Web Conference"],
}


# A name inside a longer one: not inside a word, and not followed by one ("International
# Conference on Machine Learning and Applications" is ICMLA, not ICML).
@functools.cache
def _name_patterns() -> list[tuple[re.Pattern, str]]:
    return [
        (re.compile(r"(?<![a-z])" + re.escape(name.casefold()) + r"(?![a-z]|\s+[a-z&])"), short)
        for short, full in FULL_NAMES.items()
        for name in [full.removeprefix("The "), *_OTHER_NAMES.get(short, [])]
    ]


_NOT_THE_CONFERENCE_RE = re.compile(r"\b(?:workshops?|findings|companion|tiny papers)\b", re.I)
_ACRONYM_RE = re.compile(r"\(\s*([A-Za-z]{2,12})(?:[\s'’-]*\d{2,4})?\s*\)")


def venue_in_name(name: str) -> str | None:
    """The known venue a long name (a BibTeX booktitle or journal) is the proceedings of,
    by its full name or its acronym in brackets ("… Pattern Recognition (CVPR)"); None for
    a workshop, findings or companion volume, and for a name that names no known venue."""
    if _NOT_THE_CONFERENCE_RE.search(name):
        return None
    folded = name.casefold()
    for pattern, short in _name_patterns():
        if pattern.search(folded):
            return short
    for acronym in _ACRONYM_RE.findall(name):
        if acronym.casefold() in _CANONICAL:
            return _CANONICAL[acronym.casefold()]
    return None
