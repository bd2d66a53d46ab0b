"""A digest page's headings (a record's categories) tag its papers: a heading of one subject
gives its tags, one that joins several only what every part names (issue 45)."""

from __future__ import annotations

import pytest

from papercli.store.record import Record
from papercli.tags.tagging import auto_tags, heading_tags
from papercli.tags.taxonomy import PACKAGE_FILE, load_taxonomy


@pytest.fixture(scope="module")
def tax():
    return load_taxonomy(PACKAGE_FILE)


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("强化学习", {"reinforcement-learning"}),
        ("Reinforcement Learning", {"reinforcement-learning"}),
        ("推荐系统", {"recommender-system"}),
        ("Graph Learning", {"graph-learning"}),
        ("科学智能", {"ai-for-science"}),
        # 高效推理 is efficient inference, not reasoning
        ("高效推理", {"inference-efficiency"}),
        # joined subjects: a paper under the heading may be of any one of them
        ("Detection & Segmentation", set()),
        ("图像与视频生成", set()),
        ("模型压缩与高效推理", set()),
        ("安全、隐私与公平", set()),
        ("LLM/NLP", set()),
        # a scope before the colon holds for every paper under the heading
        ("大模型：推理、对齐与智能体", {"llm"}),
        ("多模态", set()),
    ],
)
def test_a_heading_gives_the_tags_of_its_one_subject(tax, heading, expected):
    assert heading_tags([heading], tax) == expected


def test_a_paper_whose_text_names_no_area_is_tagged_by_its_heading(tax):
    record = Record(
        id="x",
        title="Duration-Debiased Quantiles for Engagement Prediction",
        summary_zh="用户停留时间受内容长度影响严重，将其离散为分位数区间进行预测。",
        categories=["推荐系统"],
    )
    assert auto_tags(record, tax) == {"recommender-system"}
    record.categories = []
    assert auto_tags(record, tax) == set()
