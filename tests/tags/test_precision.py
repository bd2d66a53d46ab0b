"""Tags a reviewer of held-out pages found wrong (issue 45: heldout3 and heldout4 reviews):
a component a paper uses is not its topic, nor a word of a tag's in another sense, nor what
the paper beats."""

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
        # attention is a component of papers about other things; the architecture is named
        ("在图像空间中用可变形注意力融合相机与雷达特征", []),
        ("用注意力多示例学习聚合图块特征", ["weakly-supervised-learning"]),
        ("an attention-based association module links detections", []),
        ("把交叉注意力投影矩阵的编辑写成最小二乘问题", []),
        ("Whisper decoder self-attention heads", []),
        ("Registers for Cleaner ViT Features", ["transformers"]),
        ("在时间与变量两个维度上做注意力的 Transformer", ["transformers"]),
    ],
)
def test_a_component_is_not_the_topic(tax, text, expected):
    assert tax.tag_text(text) == expected


def test_attention_still_finds_transformers_in_search(tax):
    """Named in passing: no tag, but the glossary's transformers concept (which search
    reads) is still spoken of."""
    from papercli.search.concepts.glossary import GlossaryFiles
    from testing import TEST_DATA

    glossary = GlossaryFiles(user=TEST_DATA / "none.yaml").load()
    text = "设计注意力能量和前馈能量函数"
    assert tax.tag_text(text) == []
    assert "transformers" in glossary.find(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # 跨语言|模型 is a cross-lingual model, no large language model
        (
            "比较多种主动学习采样策略，发现基于跨语言模型不确定性的采样最省标注",
            ["uncertainty", "multilingual", "active-learning"],
        ),
        # 推理时 says when a trained model runs; adapting at test time to a shift is
        # distribution shift
        ("使模型推理时能对任意相机直接输出带绝对尺度的深度", []),
        ("推理时扩展与推理时的搜索", ["test-time-compute"]),
        (
            "Test-Time Adaptation for Semantic Segmentation under Adverse Weather",
            ["distribution-shift", "image-segmentation"],
        ),
        ("面向恶劣天气的测试时自适应", ["distribution-shift"]),
        # an agent's guardrails, an abstaining model: no safety
        ("concise observations and guardrails against malformed edits matter", []),
        ("使模型在知识边界外主动拒答", []),
        ("a learning rate scaling rule that transfers across model widths", []),
        ("在 ICEWS 与 GDELT 数据集上取得最佳结果且规则可解释", []),
        # the brain normalizes too; a layer is named
        ("neurons develop gain modulation and normalization similar to area V4", []),
        ("a transformer without layer normalisation", ["transformers", "normalization"]),
        # a ligand for a protein pocket is a molecule; peptides a graph benchmark
        ("generating molecules that bind a given protein pocket", ["molecular-modeling"]),
        ("用流匹配模型生成与蛋白质结合口袋结合的配体分子", ["flow-matching", "molecular-modeling"]),
        (
            "long-range benchmarks, including peptide property prediction, for GCN and GIN",
            ["graph-neural-networks"],
        ),
        # pseudo-labels are a step of weak supervision and distillation too
        ("frame-level pseudo-labels refined over three rounds of self-training", []),
        ("利用帧级伪标签迭代精化", []),
        ("a semi-supervised segmenter with 1% of the labels", ["semi-supervised-learning"]),
    ],
)
def test_a_word_in_another_sense_earns_no_tag(tax, text, expected):
    assert tax.tag_text(text) == expected


def test_what_a_paper_beats_is_its_baseline(tax):
    record = Record(
        id="x", abstract="We show when feature learning by gradient descent beats kernel methods."
    )
    assert auto_tags(record, tax) == set()
