"""Hypothesis fuzzing: whatever the input, only the tool's own error type may escape.

Run more examples with HYPOTHESIS_PROFILE=deep (CI uses the default profile).
"""

from __future__ import annotations

import os
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papercli.errors import DocumentError, UsageError
from papercli.export.latex import to_latex
from papercli.export.markdown import inline
from papercli.parsers import FORMATS, parse_bytes
from papercli.parsers.shortname import from_abstract, from_summary, from_title
from papercli.search.querying.rewrite import rewrite
from papercli.text.latex import latex_to_text

settings.register_profile(
    "default", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "deep", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# Pieces real documents are made of, so fuzzing reaches deep into the parsers.
PIECES = [
    "📐 优化/理论¶",
    "🔬 ICLR2026 · 45 篇论文解读",
    "🔥 高频主题： 推理 ×3 · LLM ×3",
    "ICLR 2026 论文列表",
    "NeurIPS 2025 Accepted Papers",
    "- ",
    "-",
    "- Title: With Colon",
    "提出 FooNet 方法。",
    "\\(",
    "\\)",
    "$",
    "\\emph{",
    "}",
    "{",
    "%",
    "&",
    "#",
    "_",
    "~",
    "^",
    "``",
    "''",
    "---",
    "\\Ours",
    "\n",
    "\n\n",
    "\r\n",
    "\t",
    "\u00a0",
    "We propose BarNet (BN), a method.",
    "called Baz",
    "∇-Reasoner",
    "Πnet",
    "GRPO风格",
    "在GSM8K上",
    "[bold]",
    "[/]",
    "\x1b[31m",
    "|",
    "*",
    "**",
    "(",
    ")",
    "..",
    "/",
    '{"id": "x"}',
    "[",
    "]",
    "---\nid: x\n",
    "id: ",
    "https://example.org/a_b",
    "word " * 30,
]
documents = st.lists(st.sampled_from(PIECES) | st.text(max_size=20), max_size=60).map("".join)


@given(st.binary(max_size=2000))
def test_any_bytes_parse_or_refuse(data):
    try:
        doc = parse_bytes(data, "x.txt")
    except DocumentError as exc:
        assert str(exc).startswith("x.txt: ") and "\n" not in str(exc)
        return
    assert doc.entries


@given(documents)
def test_document_shaped_text_parses_or_refuses(text):
    try:
        doc = parse_bytes(text.encode("utf-8"), "x.txt")
    except DocumentError:
        return
    lines = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    assert all(1 <= e.line <= lines for e in doc.entries)
    assert all(1 <= w.line <= lines for w in doc.warnings)


@given(documents)
def test_each_parser_on_any_text(text):
    lines = text.split("\n")
    for fmt in FORMATS:
        if fmt.sniff(lines):
            fmt.parse(lines)


@given(documents)
def test_short_names_never_fail(text):
    for find in (from_title, from_summary, from_abstract):
        name = find(text)
        assert name is None or (name.strip() == name and name)


@given(documents)
def test_latex_to_text_never_fails_or_invents_characters(text):
    plain = latex_to_text(text)
    assert set(re.findall("[\ue000-\uf8ff]", plain)) <= set(text)  # no private-use leftovers


def bibtex_braces_balanced(value: str) -> bool:
    depth = 0
    for ch in value:  # BibTeX counts every brace, escaped or not
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return False
    return depth == 0


@given(documents, st.booleans(), st.booleans())
def test_latex_output_is_safe_for_bibtex(text, ascii_only, protect):
    try:
        value = to_latex(text, ascii_only, protect_caps=protect)
    except ValueError:  # Unencodable: a character with no ASCII spelling
        assert ascii_only
        return
    assert bibtex_braces_balanced(value)
    assert not re.search(r"(?<!\\)%", value)  # an unescaped % would end the field
    if ascii_only:
        assert value.isascii()


@given(documents)
def test_markdown_cells_never_split(text):
    cell = inline(text, cell=True)
    assert not re.search(r"(?<!\\)\|", cell) and "\n" not in cell


@given(st.text(max_size=80))
def test_queries_parse_or_explain(text):
    try:
        rewrite(text, lambda tag: None)
    except UsageError as exc:
        assert "\n" not in str(exc)
