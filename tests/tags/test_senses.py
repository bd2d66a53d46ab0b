"""Words an area shares with other subjects earn no tag in their other senses, and a topic a
paper names only as what it is compared with is not the paper's (issue 45: heldout's wrong
tags, judged by a reviewer)."""

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
        # alignment of views, regions, phonemes, layers and embeddings; of sequences (MSA)
        ("对 SDS 梯度施加视角条件的方向对齐正则", []),
        ("预训练一个区域—文本对齐的检测器", []),
        ("再把两种表示对齐到同一空间", []),
        ("先用注意力输出的逐层蒸馏对齐，再微调", ["knowledge-distillation"]),
        ("mitigated with a phoneme alignment constraint", []),
        ("a surrogate trained with a gradient-alignment regularizer", []),
        ("as well as state-of-the-art alignment-based models", []),
        ("preferred by raters in human preference studies", []),
        # ... while aligning models with people is alignment, in either language
        ("The alignment of Large Language Models with human values", ["llm", "alignment"]),
        ("对 7 个对齐模型的越狱攻击", ["alignment", "ai-safety"]),
        # 推理 as one run of a trained model; 高效推理 is efficient inference
        ("单个场景推理只需 0.2 秒", []),
        ("辅助查询在推理时丢弃", []),
        ("高效推理", ["inference-efficiency"]),
        ("推理时的搜索", ["test-time-compute"]),
        # Random Network Distillation is an exploration bonus
        ("Revisiting Random Network Distillation for Hard Exploration", []),
        # a vision-language model is no large language model; nor a protein one
        ("Vision-language models can operate smartphones", ["vision-language"]),
        ("蛋白语言模型的扩展规律", ["scaling-laws"]),
        # 光流 inside 曝光流量 (exposure traffic) is no optical flow
        ("用少量随机曝光流量校准倾向模型", []),
    ],
)
def test_a_word_in_its_other_sense_earns_no_tag(tax, text, expected):
    assert tax.tag_text(text) == expected


@pytest.mark.parametrize(
    ("summary", "absent", "kept"),
    [
        ("相比基于强化学习的视角规划基线，所需视角数减少 35%。", "reinforcement-learning", set()),
        ("We improve over chain-of-thought prompting by 18%.", "chain-of-thought", set()),
        ("Our model is 14% better than transformer-based imputation.", "transformers", set()),
        # 比特 is "bit", not a comparison
        ("联合设计 4 比特 KV 缓存的量化", None, {"kv-cache", "quantization"}),
        # a rival on speed solves the same problem: its area is the paper's
        ("优化间隙仅 0.83%，速度比元启发式快 45 倍。", None, {"combinatorial-optimization"}),
        # what is compared is Adam; the language models trained are the workload
        ("gains over Adam for language model training", "adam", {"llm"}),
    ],
)
def test_a_topic_named_only_as_a_baseline_earns_no_tag(tax, summary, absent, kept):
    tags = auto_tags(Record(id="x", summary_zh=summary), tax)
    assert absent not in tags and kept <= tags


def test_a_baseline_named_in_the_title_is_the_papers_own(tax):
    record = Record(
        id="x",
        title="Chain-of-Thought Revisited",
        abstract="We improve over chain-of-thought prompting.",
    )
    assert "chain-of-thought" in auto_tags(record, tax)
