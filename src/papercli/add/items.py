"""What each ITEM of ``papers add`` names, read from its text alone (no service is asked):

    arxiv       2501.01234, 2501.01234v2, arXiv:2501.01234, https://arxiv.org/abs/… or
                …/pdf/…, cs/0112017, and arXiv's own DOI (10.48550/arXiv.2501.01234)
    openreview  https://openreview.net/forum?id=… or …/pdf?id=…, openreview:ID, or a bare
                forum id (one word of 8-16 letters, digits, _ and -, with a digit or a
                capital inside it: a word like that may also be a name, so it is looked up
                as a title when OpenReview has no such forum)
    doi         10.xxxx/…, doi:10.…, https://doi.org/10.…
    text        anything else: a title or a reference, looked up, never guessed from

Any other link is refused: papers cannot read a web page for its paper.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import UsageError
from ..store.links import link_patterns
from ..text import strip_controls

_FORUM_RE = re.compile(r"^[A-Za-z0-9_-]{8,16}$")
_OPENREVIEW_PREFIX_RE = re.compile(r"^openreview:\s*([A-Za-z0-9_-]+)$", re.I)
MAX_TEXT = 2000  # characters: a reference or two, not a page


@dataclass(frozen=True)
class Item:
    given: str  # as the user typed it (controls removed, spaces collapsed)
    kind: str  # "arxiv", "openreview", "doi" or "text"
    value: str  # the arXiv id (its version kept), the forum id, the DOI, or the text
    maybe_text: bool = False  # a bare word read as a forum id: a title if no forum has it


def parse_item(raw: str) -> Item:
    """The item *raw* names; a UsageError for an empty one or a link papers cannot use."""
    text = " ".join(strip_controls(raw).split())
    if not text:
        raise UsageError("an empty item: give an arXiv id, a DOI, an OpenReview link or a title")
    patterns = link_patterns()
    if m := patterns["arxiv"].match(text):
        return Item(text, "arxiv", m.group(1))
    if m := patterns["doi"].match(text):
        doi = m.group(1).rstrip(".,;")
        if arxiv := patterns["arxiv_doi"].match(doi):
            return Item(text, "arxiv", arxiv.group(1))
        return Item(text, "doi", doi)
    if m := patterns["openreview"].match(text):
        return Item(text, "openreview", m.group(1))
    if m := _OPENREVIEW_PREFIX_RE.match(text):
        return Item(text, "openreview", m.group(1))
    if _could_be_forum(text):
        return Item(text, "openreview", text, maybe_text=True)
    if patterns["url"].match(text) and " " not in text:
        raise UsageError(
            f"{text}: not an arXiv, OpenReview or DOI link; give the paper's title instead"
        )
    if len(text) > MAX_TEXT:
        raise UsageError(
            f"a text of {len(text):,} characters is no title or reference "
            f"(at most {MAX_TEXT:,}): paste one reference at a time"
        )
    return Item(text, "text", text)


def _could_be_forum(text: str) -> bool:
    if not _FORUM_RE.match(text) or text.isdigit():
        return False
    return any(c.isdigit() for c in text) or any(c.isupper() for c in text[1:])


def forum_item_as_text(item: Item) -> Item:
    """A bare word OpenReview has no forum for, as the title it may be."""
    return Item(item.given, "text", item.given)
