"""Tags on records: automatic ones from the taxonomy, and the user's own, which always win.

A record stores its effective ``tags`` and, when the user has edited them, ``tag_edits``:

    tags: [muon, optimizer, my-reading-list]
    tag_edits:
      added: [my-reading-list]     # kept whatever the taxonomy says
      removed: [llm]               # never comes back, even if the taxonomy matches it

so ``tags == (auto ∪ added) − removed``, where *auto* is what the taxonomy finds in the
paper's text. Re-ingesting a source or running ``papers retag`` after the taxonomy changed
recomputes *auto* only; the user's edits survive both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..errors import RecordError, UsageError
from ..progress import Progress, quiet
from ..store.library import Library
from ..store.record import Record
from .taxonomy import TAG_RE, Tag, Taxonomy, word_set


def auto_tags(record: Record, taxonomy: Taxonomy) -> set[str]:
    texts = (record.title, record.short_name, record.abstract, record.summary_zh)
    found = set(taxonomy.tag_text(*texts))
    if found and _COMPARISON.search(" ".join(t for t in texts[2:] if t)):
        fields = [(name, t, t.lower()) for name, t in zip(_FIELDS, texts, strict=True) if t]
        fields = [(name, t, low, word_set(low)) for name, t, low in fields]
        found = {name for name in found if not only_as_baseline(taxonomy.tags[name], fields)}
    if found and (head := headline(record)):
        found = {name for name in found if not taxonomy.tags[name].other_sense(head)}
    return found | heading_tags(record.categories, taxonomy)


def headline(record: Record) -> str:
    """What a paper says it is about: its title, or an untitled abstract's first six words
    (its subject: "Word alignments between parallel sentences are ..."; a whole first
    sentence also lists side aspects, "... aesthetics, detail fidelity, and semantic
    alignment"). A word the headline uses in another sense of a tag's (Point Cloud
    Alignment, Dataset Distillation) keeps that sense in the rest of the paper, so the bare
    word there earns no tag either."""
    if record.title:
        return record.title
    return " ".join((record.abstract or "").split()[:6])


_FIELDS = ("title", "short_name", "abstract", "summary_zh")
# (a text without one of these words compares with nothing: most tags need no second look)
_COMPARISON = re.compile(
    r"than|over|vers|vs|outperform|beat|compared|same|比|优于|超越|基线|baseline", re.I
)


# What a paper compares itself with: "over X", "than previous X", "outperforms X", "beats X", "the
# same loss as X" (not "the same architecture as X": that is used), "X baselines", 相比基于
# X, 比 X (not 比特 "bit", 对比 "contrast"). Stricter than search's reading of the same role
# (``passing.baseline``), which only ranks a paper lower: here the tag goes, so the
# comparison must stand right before the mention ("over Adam for language model training"
# compares optimizers, not language models).
_COMPARED = re.compile(
    r"\b(?:than|over|versus|vs\.?|outperforms?|outperforming|beats?|beating|compared (?:to|with))"
    r"\s+(?:\S+\s+)?$"
    r"|\bsame\s+(?:loss|accuracy|performance|quality|perplexity|score|results?)\s+as\s+$"
    r"|(?:(?<![可对])比(?![特例率值])|相比于?|相较于?|优于|超越了?)[^，。,;；]{0,12}$",
    re.I,
)
_BASELINE = re.compile(r"\s*(?:的)?\s*(?:基线|baselines?\b)", re.I)
# ... except a rival on speed ("faster than metaheuristics", 比元启发式快): what solves the same
# problem, so its area is the paper's too (DeCoST routes faster than metaheuristics).
_FASTER = re.compile(r"\b(?:faster|slower|quicker)\s+than\s+(?:\S+\s+)?$", re.I)
_QUICKER = re.compile(r"[^，。,;；]{0,3}?[快慢]")


def as_baseline(text: str, start: int, end: int) -> bool:
    """Whether the mention text[start:end] is what the paper is compared with."""
    if _BASELINE.match(text, end):
        return True
    before = max(0, start - 20)
    return bool(
        _COMPARED.search(text, before, start)
        and not _FASTER.search(text, before, start)
        and not _QUICKER.match(text, end)
    )


def only_as_baseline(tag: Tag, fields: list[tuple[str, str, str, set[str]]]) -> bool:
    """Whether a paper names *tag* only as what it is compared with ("相比基于强化学习的
    基线", "improves over chain-of-thought prompting"): the topic of its baseline, not its
    own. *fields*: (name, text, its lower case, its words) of each of the paper's texts,
    the title first; a mention in the title or short name is never one (as search's
    ``passing.passing`` reads it). Stops at the first mention that is no baseline."""
    named = False
    for name, text, lowered, words in fields:
        for start, end in tag.spans(text, lowered, words):
            if name in ("title", "short_name") or not as_baseline(text, start, end):
                return False
            named = True
    return named


# Where a heading joins subjects ("Detection & Segmentation", 图像与视频生成, LLM/NLP), and
# where its scope ends (大模型：推理、对齐与智能体).
_JOINS_RE = re.compile(r"\s*(?:[/&+,，、;；]|\band\b|与|和|及)\s*")
_SCOPE_RE = re.compile(r"\s*[:：]\s*")


def heading_tags(categories: list[str], taxonomy: Taxonomy) -> set[str]:
    """The tags the digest page's headings (a record's categories) give its papers: the
    page author's own word on their area. A heading of one subject (强化学习, Graph
    Learning) gives the tags its words earn, as a paper's text would; one that joins
    several (Detection & Segmentation, 图像与视频生成) only those every part earns, since a
    paper under it may be of any one part; a scope before a colon (大模型：推理、对齐与智能体)
    holds for all of them."""
    out: set[str] = set()
    for heading in categories:
        *scope, rest = _SCOPE_RE.split(heading, maxsplit=1)
        parts = [set(taxonomy.tag_text(p)) for p in _JOINS_RE.split(rest) if p]
        out |= set(taxonomy.tag_text(*scope)) | (set.intersection(*parts) if parts else set())
    return out


def apply_tags(record: Record, auto: set[str]) -> bool:
    """Set ``record.tags`` from *auto* and the user's edits; return whether they changed."""
    added = set(record.tag_edits.get("added", []))
    removed = set(record.tag_edits.get("removed", []))
    tags = sorted((auto | added) - removed)
    changed = tags != record.tags
    record.tags = tags
    return changed


def keep_keywords(record: Record, keywords: set[str]) -> None:
    """Tags a source gave that the taxonomy does not: kept as the user's own (unless the
    user removed them)."""
    removed = set(record.tag_edits.get("removed", []))
    extra = {k for k in keywords if TAG_RE.match(k)} - removed
    added = set(record.tag_edits.get("added", []))
    if extra - added:
        record.tag_edits["added"] = sorted(added | extra)


def normalise_tag(name: str, taxonomy: Taxonomy) -> str:
    """A taxonomy tag for any alias (联邦学习 → federated-learning), or the user's own tag
    in kebab-case (``Reading List`` → ``reading-list``)."""
    resolved = taxonomy.resolve(name)
    if resolved:
        return resolved
    tag = re.sub(r"[\s_]+", "-", name.strip().lower())
    if not TAG_RE.match(tag):
        raise UsageError(
            f"{name!r} is not a tag: use lower-case letters, digits and dashes (reading-list)"
        )
    return tag


def edit(record: Record, add: Iterable[str] = (), remove: Iterable[str] = ()) -> bool:
    """Add and remove tags by hand; return whether the record's tags changed."""
    added = list(record.tag_edits.get("added", []))
    removed = list(record.tag_edits.get("removed", []))
    auto = set(record.tags) - set(added)  # the automatic tags as they stand
    for tag in add:
        if tag in removed:
            removed.remove(tag)
        if tag not in added:
            added.append(tag)
    for tag in remove:
        if tag in added:
            added.remove(tag)
        if tag in auto and tag not in removed:  # an automatic tag: keep it away for good
            removed.append(tag)
    record.tag_edits = {k: sorted(v) for k, v in (("added", added), ("removed", removed)) if v}
    return apply_tags(record, auto)


@dataclass
class RetagReport:
    papers: int = 0
    changed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # invalid records, with the reason


def retag(library: Library, taxonomy: Taxonomy, progress: Progress = quiet) -> RetagReport:
    """Recompute every record's automatic tags with *taxonomy*; the user's edits stay."""
    from ..search.index.paper_index import PaperIndex

    report = RetagReport()
    with library.lock():
        index = PaperIndex(library).open()
        written = []
        files = sorted(library.record_files(), key=lambda e: e.name)
        with library.transaction() as txn, progress(len(files), "retagging") as advance:
            for entry in files:
                advance()
                try:
                    record = library.load_path(library.papers_dir / entry.name)
                except RecordError as exc:
                    report.skipped.append(str(exc))
                    continue
                report.papers += 1
                if apply_tags(record, auto_tags(record, taxonomy)) and txn.save(record):
                    written.append(record)
                    report.changed.append(record.id)
        if written:
            index.write(written)
    return report


def edit_tags(
    library: Library, ids: Iterable[str], add: Iterable[str], remove: Iterable[str]
) -> list[tuple[Record, bool, list[str]]]:
    """``papers tag``: apply the same edit to several papers, all or none (unknown ids fail).
    Returns each record, whether its tags changed, and the tags to remove it did not have."""
    from ..search.index.paper_index import PaperIndex
    from ..search.questions.lookup import get_paper

    remove = list(remove)
    with library.lock():
        index = PaperIndex(library).open()
        records = [library.load(get_paper(index, rid).id) for rid in ids]
        absent = [[t for t in remove if t not in record.tags] for record in records]
        results = [
            (record, edit(record, add, remove), missing)
            for record, missing in zip(records, absent, strict=True)
        ]
        with library.transaction() as txn:
            written = [record for record, _changed, _missing in results if txn.save(record)]
        if written:
            index.write(written)
    return results
