"""Tags a reviewer of held-out pages found wrong (issue 45: heldout3 and heldout4 reviews):
a component a paper uses is not its topic."""

from __future__ import annotations

import pytest

from papercli.tags.taxonomy import PACKAGE_FILE, load_taxonomy


@pytest.fixture(scope="module")
def tax():
    return load_taxonomy(PACKAGE_FILE)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # attention is a component of papers about other things; the architecture is named
        ("在图像空间中用可变形注意力融合相机与雷达特征", []),
        ("用注意力多示例学习聚合图块特征", []),
        ("an attention-based association module links detections", []),
        ("把交叉注意力投影矩阵的编辑写成最小二乘问题", []),
        ("Whisper decoder self-attention heads", []),
        ("Registers for Cleaner ViT Features", ["transformers"]),
        ("在时间与变量两个维度上做注意力的 Transformer", ["transformers"]),
    ],
)
def test_a_component_is_not_the_topic(tax, text, expected):
    assert tax.tag_text(text) == expected
