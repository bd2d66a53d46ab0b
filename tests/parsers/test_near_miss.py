"""A refused document that nearly is a digest page or an abstract list is told what it
lacks, in the one line of the refusal; when the change is not known to suffice, the
refusal names the formats and guesses nothing."""

from __future__ import annotations

import pytest

from papercli.errors import DocumentError
from papercli.parsers import parse_bytes

GUIDE = " (see docs/formats.md)"
FORMATS = "x.txt: not a digest page, abstract list, BibTeX file or papers JSON/YAML export" + GUIDE
NUMBERED = "x.txt: numbered titles: a digest page marks each title '- '" + GUIDE
TITLES_ALONE = (
    "x.txt: titles alone: a digest page has a Chinese summary under each '- title'" + GUIDE
)
LABELLED = (
    "x.txt: Title:/Abstract: blocks: an abstract list has a venue and year line first, "
    "no labels" + GUIDE
)

MUON = "Convergence of Muon with Newton-Schulz"
CELO = "Celo2: Towards Learned Optimization Free Lunch"
PROSE = (
    "The practical deployment of Neural Combinatorial Optimization for Vehicle Routing "
    "Problems is hindered by a critical sim-to-real gap. We introduce RRNCO, a novel "
    "architecture designed to address these complexities."
)


def refusal(text: str) -> str:
    with pytest.raises(DocumentError) as err:
        parse_bytes(text.encode("utf-8"), "x.txt")
    return str(err.value)


@pytest.mark.parametrize("number", ["1. ", "1) ", "(1) ", "[1] ", "1、", "1．"])
def test_numbered_titles_with_summaries_are_told_to_mark_them(number):
    second = number.replace("1", "2")
    text = f"ICLR 2026\n{number}{MUON}\n提出一种方法。\n{second}{CELO}\n提出 Celo2。\n"
    assert refusal(text) == NUMBERED


@pytest.mark.parametrize(
    "text",
    [
        f"1. {MUON}\n2. {CELO}\n",  # numbered, no header
        f"ICLR 2026 accepted papers\n1. {MUON}\n2. {CELO}\n",  # a header: not "header only"
        f"- {MUON}\n- {CELO}\n",
        f"ICLR 2026\n\n- {MUON}\n\n- {CELO}\n",
    ],
    ids=["numbered", "numbered-header", "dashed", "dashed-spaced"],
)
def test_titles_with_nothing_under_them_are_told_of_the_summaries(text):
    assert refusal(text) == TITLES_ALONE


def test_numbered_titles_read_as_prose_after_a_header_are_told_too():
    """A header, a blank line, then 25 words of numbered titles passes for an abstract list
    that turns out to have no complete abstract: the refusal says what it is."""
    titles = [
        MUON,
        CELO,
        "RRNCO: Towards Real-World Routing",
        "Hessian-Informed Federated Zeroth-Order",
    ]
    text = "ICLR 2026 accepted papers\n\n" + "".join(
        f"{n}. {t} Optimization Methods\n" for n, t in enumerate(titles, 1)
    )
    assert refusal(text) == TITLES_ALONE


def test_title_and_abstract_blocks_are_told_of_the_header_and_labels():
    text = f"Title: {MUON}\nAbstract: {PROSE}\n\nTitle: {CELO}\nAbstract: {PROSE}\n"
    assert refusal(text) == LABELLED


@pytest.mark.parametrize(
    "text",
    [
        f"1. Introduction\n{PROSE}\n2. Method\n{PROSE}\n",  # numbered sections of prose
        f"1. {MUON}\nBy Ada Lovelace\n2. {CELO}\n",  # something under a title
        f"1. {MUON}\nnotes\n",  # one numbered line
        f"Title: {MUON}\nAuthors: Ada Lovelace\nAbstract: {PROSE}\n",  # another label
        f"Title: convergence of muon with newton-schulz\nAbstract: {PROSE}\n",  # not a title
        f"Title: {MUON}\nAbstract: Too short to be an abstract.\n",
        f"My reading list\nmore notes\nTitle: {MUON}\nAbstract: {PROSE}\n",
    ],
    ids=["sections", "author-line", "one", "authors-label", "lower-case", "short", "preamble"],
)
def test_what_is_not_known_to_suffice_gets_no_hint(text):
    assert refusal(text) == FORMATS
