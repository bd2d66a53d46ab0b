"""Venue names: recognising ``ICLR2026`` / ``NeurIPS 2025`` in headers, and their full names."""

from __future__ import annotations

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


def canonical_venue(name: str) -> str:
    """``neurips`` → ``NeurIPS``; an unknown venue keeps the spelling it was written with."""
    return _CANONICAL.get(name.casefold(), name)


def full_name(venue: str | None) -> str | None:
    if venue is None:
        return None
    return FULL_NAMES.get(canonical_venue(venue), venue)


def find_venue_years(text: str) -> list[tuple[str, int]]:
    """Every venue+year pair mentioned in *text*, in order."""
    return [(canonical_venue(v), int(y)) for v, y in VENUE_YEAR_RE.findall(text) if _is_venue(v)]
