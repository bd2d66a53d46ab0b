"""Areas a general taxonomy of ML names (model merging, tracking, re-identification, saliency,
cognitive science, probing and deception, message passing, multi-hop QA), in English and
Chinese; the other senses of their words and of older aliases earn no tag; and a title that
uses a word in another sense keeps that sense for the whole paper (issue 45: heldout3)."""

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
        ("Merging fine-tuned models by adding their task vectors", ["model-merging"]),
        ("把多个微调模型的任务向量相加", ["model-merging"]),
        ("We present an end-to-end multi-object tracker", ["video-understanding"]),
        ("on cloth-changing re-identification benchmarks", ["computer-vision"]),
        ("在换衣重识别基准上", ["computer-vision"]),
        ("a new state of the art in saliency prediction", ["computer-vision"]),
        ("视觉显著性预测", ["computer-vision"]),
        ("We collect eye movements from 312 participants", ["ai-for-science"]),
        ("心理语言学中的阅读时间", ["ai-for-science"]),
        ("Linear Probes Detect Strategic Deception", ["interpretability", "ai-safety"]),
        ("训练线性探针识别模型的策略性欺骗", ["interpretability", "ai-safety"]),
        (
            "We design a message-passing scheme over the transaction graph",
            ["graph-neural-networks"],
        ),
        ("在等变消息传递势函数中加入长程静电项", ["graph-neural-networks", "equivariance"]),
        ("On HotpotQA, MuSiQue and 2WikiMultiHopQA", ["question-answering"]),
        ("多跳问答中的早期错误", ["question-answering"]),
    ],
)
def test_an_area_is_named_in_either_language(tax, text, expected):
    assert tax.tag_text(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Linear probe accuracy on ImageNet reaches 81.2 percent", []),
        ("approximate message passing algorithms", []),
        ("re-identification attacks on anonymised records", []),
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


@pytest.mark.parametrize(
    ("abstract", "absent", "kept"),
    [
        ("The optimizer reaches the same loss as AdamW with fewer tokens.", "adam", {"optimizer"}),
        ("It matches the same accuracy as test-time training.", "test-time-compute", set()),
        # the same architecture as ViT is the one the paper uses
        ("We keep the same architecture as ViT and only change the loss.", None, {"transformers"}),
    ],
)
def test_a_topic_equalled_in_a_result_is_a_baseline(tax, abstract, absent, kept):
    tags = auto_tags(Record(id="x", abstract=abstract), tax)
    assert absent not in tags and kept <= tags
