"""Ids and citation keys: readable, ASCII, file-name safe, unique with stable suffixes."""

from __future__ import annotations

import pytest

from papercli.store.ids import base_citekey, base_id, unique_citekey, unique_id
from papercli.store.record import ID_RE


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("ICLR", 2026, "RRNCO", "RRNCO: Towards Real-World Routing", None, None),
            "iclr2026-rrnco",
        ),
        (("ICLR", 2026, "∇-Reasoner", None, None, None), "iclr2026-nabla-reasoner"),
        (("ICLR", 2026, "Πnet", None, None, None), "iclr2026-pinet"),
        (
            ("ICLR", 2026, None, "Convergence of Muon with Newton-Schulz", None, None),
            "iclr2026-convergence-muon-newton-schulz",
        ),
        (
            ("NeurIPS", 2025, None, None, "We study *sparse* $K$-means in the wild today.", None),
            "neurips2025-study-sparse-k-means-wild",
        ),
        (("ICLR", 2026, None, None, None, "只有中文摘要。"), "iclr2026-paper-f3eb898b"),
        ((None, None, "../../etc/passwd", None, None, None), "paper-etc-passwd"),
        # a long venue name by its initials, or the acronym it gives in brackets
        (
            ("Journal of Machine Learning Research", 2020, None, "Muon for Journals", None, None),
            "jmlr2020-muon-journals",
        ),
        (
            (
                "2020 19th IEEE International Conference on Machine Learning and Applications (ICMLA)",
                2020,
                None,
                "Not ICML",
                None,
                None,
            ),
            "icmla2020-not-icml",
        ),
        (("Some Venue", 2021, None, "A Thing", None, None), "somevenue2021-thing"),
    ],
)
def test_base_ids(args, expected):
    rid = base_id(*args)
    assert rid == expected
    assert ID_RE.match(rid)


def test_unique_id_suffixes():
    taken = {"iclr2026-vip", "iclr2026-vip-2"}
    assert unique_id("iclr2026-vip", taken.__contains__) == "iclr2026-vip-3"
    assert unique_id("iclr2026-new", taken.__contains__) == "iclr2026-new"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("MuonBP", None, None, 2026), "muonbp2026"),
        (("Celo2", None, None, 2026), "celo22026"),
        (("∇-Reasoner", None, None, 2026), "nablareasoner2026"),
        ((None, "Convergence of Muon with Newton-Schulz", None, 2026), "convergencemuon2026"),
        ((None, None, None, None), "paper"),
    ],
)
def test_base_citekeys(args, expected):
    assert base_citekey(*args) == expected


def test_unique_citekey_suffixes_are_letters():
    taken = {"vip2026", "vip2026a"}
    assert unique_citekey("vip2026", taken.__contains__) == "vip2026b"
    assert unique_citekey("x2026", taken.__contains__) == "x2026"


def test_an_escape_sequence_in_a_title_makes_no_part_of_an_id():
    from papercli.store.ids import base_citekey, base_id

    title = "Escape \x1b[31mred\x1b[0m text"
    assert base_id("ICLR", 2026, None, title, None, None) == "iclr2026-escape-red-text"
    assert base_citekey(None, title, None, 2026) == "escapered2026"
