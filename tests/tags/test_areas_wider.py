"""Areas of the AAAI, ICAPS, ACL, COLT and AISTATS calls for papers (knowledge
representation, planning, constraint satisfaction, parsing, sentiment, social computing,
tokenization, Gaussian processes, robust statistics, human-AI interaction, off-policy
evaluation, computational imaging, equivariance, neural ODEs, advertising...), in English and
Chinese; and the other senses of their words (issue 45: heldout4)."""

from __future__ import annotations

import pytest

from papercli.tags.taxonomy import PACKAGE_FILE, load_taxonomy


@pytest.fixture(scope="module")
def tax():
    return load_taxonomy(PACKAGE_FILE)


@pytest.mark.parametrize(
    ("english", "chinese", "expected"),
    [
        (
            "query answering over description logic ontologies rewritten into Datalog",
            "基于描述逻辑的本体查询",
            ["knowledge-representation"],
        ),
        (
            "dynamics of abstract argumentation frameworks",
            "抽象论辩框架的动态性",
            ["knowledge-representation"],
        ),
        (
            "approximate inference in probabilistic logic programs with neural predicates",
            "神经符号模型中的概率逻辑程序推断",
            ["knowledge-representation", "neuro-symbolic"],
        ),
        (
            "learned heuristics for classical planning",
            "经典规划的学习式启发函数",
            ["automated-planning"],
        ),
        (
            "a learned branching heuristic inside a CDCL SAT solver",
            "用学习的分支策略加速 SAT 求解",
            ["constraint-satisfaction"],
        ),
        (
            "dependency parsing for endangered languages",
            "濒危语言的依存句法分析",
            ["syntactic-parsing"],
        ),
        (
            "aspect-based sentiment analysis of product reviews",
            "评论的方面级情感分析",
            ["sentiment-analysis"],
        ),
        (
            "predicting information cascades on social platforms",
            "预测微博上信息传播级联的规模并识别谣言传播",
            ["computational-social-science"],
        ),
        (
            "tokenizer-free modeling of byte patches",
            "无需 BPE 分词器的字节级模型",
            ["tokenization"],
        ),
        (
            "sparse variational Gaussian processes with inducing points",
            "高斯过程回归的可扩展近似",
            ["gaussian-process"],
        ),
        (
            "robust mean estimation when samples are adversarially corrupted",
            "存在污染数据时的鲁棒均值估计",
            ["robust-statistics"],
        ),
        (
            "people over-rely on AI advice in AI-assisted decision making",
            "人机协作中的过度依赖",
            ["human-ai-interaction"],
        ),
        (
            "counterfactual explanations and algorithmic recourse",
            "反事实解释的用户研究",
            ["interpretability"],
        ),
        (
            "off-policy evaluation of a logged policy",
            "日志策略的离策略评估",
            ["multi-armed-bandit"],
        ),
        (
            "uplift modeling for coupon allocation",
            "估计发放优惠券对每个用户的因果增益",
            ["causal-inference"],
        ),
        (
            "a statistical-computational gap for sparse tensor PCA via low-degree polynomials",
            "稀疏张量主成分分析的统计-计算差距",
            ["learning-theory"],
        ),
        (
            "search in imperfect-information games such as poker",
            "不完全信息博弈中的搜索",
            ["game-theory"],
        ),
        ("event cameras at microsecond latency", "微秒级延迟的事件相机", ["computational-imaging"]),
        (
            "implicit neural representations for image registration",
            "用于配准的隐式神经表示",
            ["implicit-neural-representation"],
        ),
        (
            "object-centric slots learned with slot attention",
            "以物体为中心的表示",
            ["object-centric-learning"],
        ),
        ("an E(3)-equivariant network", "E(3) 等变网络", ["equivariance"]),
        (
            "a neural ODE encodes the trajectory",
            "用神经常微分方程编码轨迹",
            ["neural-ode"],
        ),
        (
            "delayed conversions in online advertising",
            "在线广告中的延迟转化",
            ["online-advertising"],
        ),
        (
            "multiple instance learning for slides",
            "基于多示例学习的切片分类",
            ["weakly-supervised-learning"],
        ),
        ("code-switched conversations", "语码转换的对话", ["multilingual"]),
        ("52.3 AP on rare LVIS categories", "在 LVIS 稀有类上的 AP 提升 5.2", ["object-detection"]),
        ("curiosity-driven exploration", "好奇心驱动的探索", ["reinforcement-learning"]),
    ],
)
def test_an_area_of_the_calls_is_named_in_either_language(tax, english, chinese, expected):
    assert tax.tag_text(english) == expected
    assert tax.tag_text(chinese) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a robot's body (本体), an image or video tokenizer, a doubly robust estimator
        ("汇集 22 种机器人本体的示范数据，跨本体迁移", ["robotics"]),
        ("a causal video tokenizer with a lookup-free quantizer", []),
        ("针对离散分词器的量化损失", []),
        ("以倾向分加权的双重稳健估计器", []),
        ("a doubly robust estimator of the policy value", []),
        # a residual sum of squares; a GNN's message passing; benchmarks and corpora
        ("a residual sum of squares criterion", []),
        ("节点间信息传播导致过平滑", ["graph-neural-networks"]),
        (
            "evaluated on open-domain QA, fact verification and long-form generation",
            ["question-answering"],
        ),
        ("retrieved contexts contain misinformation and outdated facts", []),
        ("the agent plans in its world model", ["world-model"]),
        # an ODE a sampler integrates; a neural field decoded on the way; ad revenue
        ("直接构造一条常微分方程路径实现图像编辑", ["image-generation"]),
        ("把反照率与法线解耦为纹理空间中的神经场", []),
        ("在线 A/B 测试中广告收入提升 2.1%", []),
    ],
)
def test_a_word_of_a_new_area_in_another_sense_earns_no_tag(tax, text, expected):
    assert tax.tag_text(text) == expected
