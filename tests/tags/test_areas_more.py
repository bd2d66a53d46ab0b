"""The other senses of the taxonomy's words earn no tag, and a title that uses a word in
another sense keeps that sense for the whole paper (issue 45: heldout3)."""

from __future__ import annotations

import pytest

from papercli.store.record import Record
from papercli.tags.tagging import auto_tags
from papercli.tags.taxonomy import PACKAGE_FILE, load_taxonomy


@pytest.fixture(scope="module")
def tax():
    return load_taxonomy(PACKAGE_FILE)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Power transformers in electrical substations fail rarely", []),
        ("Streaming Conformer transducers for speech recognition", ["speech-and-audio"]),
        ("a backdoor adjustment set that blocks every backdoor path", []),
        ("Safe Reinforcement Learning for Distillation Column Control", ["reinforcement-learning"]),
        ("乙烯精馏塔与蒸馏塔的控制", []),
        ("how parliaments frame migration in plenary speeches", []),
        ("a lightweight temporal difference decoder produces a change mask", []),
        ("大模型并行验证整棵候选树", ["llm"]),
        ("在癌症分型、分子标志物预测等任务上", []),
        ("4D occupancy forecasting from unlabeled drives", []),
        ("aggravated by the normalization of the adjacency matrix", []),
        ("Agreement with human preferences rises from 71 to 80 percent", []),
        ("Alignment-Free Protein Language Models", ["protein-modeling"]),
    ],
)
def test_a_word_in_its_other_sense_earns_no_tag(tax, text, expected):
    assert tax.tag_text(text) == expected


def test_a_title_in_another_sense_keeps_it_for_the_paper(tax):
    record = Record(
        id="x",
        title="Overlap-Aware Partial-to-Partial Point Cloud Alignment",
        summary_zh="只在高置信度区域内建立特征匹配，实现两帧的精确对齐。",
    )
    assert auto_tags(record, tax) == {"3d-vision"}


def test_an_untitled_abstract_opening_in_another_sense_keeps_it(tax):
    record = Record(
        id="x",
        abstract="Word alignments between parallel sentences are still needed. We extract "
        "alignments from the cross-attention of a multilingual encoder.",
    )
    assert auto_tags(record, tax) == {"multilingual"}


def test_a_side_aspect_in_the_first_sentence_does_not_set_the_sense(tax):
    record = Record(
        id="x",
        abstract="Human visual preferences are multi-dimensional, spanning aesthetics and "
        "semantic alignment. We study preference alignment of diffusion models.",
    )
    assert "alignment" in auto_tags(record, tax)
