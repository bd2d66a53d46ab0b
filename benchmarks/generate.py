"""Seeded synthetic paper documents for benchmarks, in both formats ``papers`` ingests.

    python benchmarks/generate.py 10000 /tmp/docs [--seed 2026]

Half the papers go into digest pages (the format of
``data/iclr2026-optimization-theory-digest.txt``: category, venue with the declared count,
navigation and hot-topic header lines, then ``- title`` / ``-`` / Chinese summary), the other
half into abstract lists (the format of ``data/iclr2026-abstracts.txt``: ``ICLR 2026 论文列表``,
a blank line, then untitled English abstracts separated by blank lines). Pages hold 50-500
entries and are spread over ICLR, NeurIPS and ICML 2024-2026.

The text is built from vocabularies drawn with Zipf-like weights, so some topics, datasets and
mechanisms are everywhere and others rare. Most papers introduce a method name (``FooNet: …``
titles, ``提出 FooNet`` summaries, ``we propose FooNet`` / ``Long Form (ACR)`` abstracts); names,
titles and abstracts are all unique, so every entry becomes its own paper: ingesting a set of
size N must give exactly N new papers, 0 merged, 0 warnings. The rare term ``zephyrine``
occurs in exactly ``RARE_COUNT`` abstracts and nowhere else.

The same (size, seed) always gives byte-identical documents.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

RARE_TERM = "zephyrine"
RARE_COUNT = 3
DEFAULT_SEED = 2026
MIN_PAGE, MAX_PAGE = 50, 500

VENUES = ("ICLR", "NeurIPS", "ICML")
YEARS = (2024, 2025, 2026)


class Zipf:
    """Draw items with weight 1/rank**s: the first items are common, the last ones rare."""

    def __init__(self, items, s: float = 1.0) -> None:
        self.items = list(items)
        self.cum = list(itertools.accumulate(1.0 / (i + 1) ** s for i in range(len(self.items))))

    def __call__(self, rng: random.Random):
        return rng.choices(self.items, cum_weights=self.cum)[0]

    def distinct(self, rng: random.Random, k: int) -> list:
        out: list = []
        while len(out) < k:
            item = self(rng)
            if item not in out:
                out.append(item)
        return out


# --- vocabularies (most common first) ---------------------------------------------------

# (English, Chinese) research topics.
TOPICS = Zipf(
    [
        ("Large Language Models", "大语言模型"),
        ("Reinforcement Learning", "强化学习"),
        ("Reasoning", "推理"),
        ("Diffusion Models", "扩散模型"),
        ("Federated Learning", "联邦学习"),
        ("Quantization", "量化"),
        ("Graph Neural Networks", "图神经网络"),
        ("Vision-Language Models", "视觉语言模型"),
        ("Adaptive Optimizers", "自适应优化器"),
        ("Preference Optimization", "偏好优化"),
        ("Knowledge Distillation", "知识蒸馏"),
        ("Continual Learning", "持续学习"),
        ("Test-Time Scaling", "测试时扩展"),
        ("Mixture of Experts", "混合专家模型"),
        ("Contrastive Learning", "对比学习"),
        ("Self-Supervised Learning", "自监督学习"),
        ("In-Context Learning", "上下文学习"),
        ("Chain-of-Thought Reasoning", "思维链推理"),
        ("Zeroth-Order Optimization", "零阶优化"),
        ("Low-Rank Adaptation", "低秩适配"),
        ("Sparse Attention", "稀疏注意力"),
        ("Retrieval-Augmented Generation", "检索增强生成"),
        ("Differential Privacy", "差分隐私"),
        ("Optimal Transport", "最优传输"),
        ("Meta-Learning", "元学习"),
        ("Bilevel Optimization", "双层优化"),
        ("Conformal Prediction", "共形预测"),
        ("Offline Reinforcement Learning", "离线强化学习"),
        ("World Models", "世界模型"),
        ("Neural Combinatorial Optimization", "神经组合优化"),
        ("Time Series Forecasting", "时间序列预测"),
        ("Neural Operators", "神经算子"),
        ("Implicit Bias", "隐式偏置"),
        ("Sharpness-Aware Minimization", "锐度感知最小化"),
        ("Learning Rate Schedules", "学习率调度"),
        ("Distributed Training", "分布式训练"),
        ("Model Merging", "模型融合"),
        ("Speculative Decoding", "投机解码"),
        ("KV Cache Compression", "KV缓存压缩"),
        ("Structured Pruning", "结构化剪枝"),
        ("Uncertainty Estimation", "不确定性估计"),
        ("Domain Generalization", "领域泛化"),
        ("Causal Inference", "因果推断"),
        ("Multi-Agent Systems", "多智能体系统"),
        ("Embodied Agents", "具身智能体"),
        ("Point Cloud Registration", "点云配准"),
        ("Gaussian Splatting", "高斯溅射"),
        ("Video Generation", "视频生成"),
        ("Molecular Generation", "分子生成"),
        ("Protein Structure Prediction", "蛋白质结构预测"),
        ("Weather Forecasting", "天气预报"),
        ("Physics-Informed Neural Networks", "物理信息神经网络"),
        ("Mechanistic Interpretability", "机制可解释性"),
        ("Activation Steering", "激活转向"),
        ("Hallucination Detection", "幻觉检测"),
        ("Machine Unlearning", "机器遗忘"),
        ("Adversarial Robustness", "对抗鲁棒性"),
        ("Label Noise", "标签噪声"),
        ("Scaling Laws", "缩放律"),
        ("Neural Collapse", "神经坍缩"),
        ("Mean-Field Dynamics", "平均场动力学"),
        ("Riemannian Optimization", "黎曼优化"),
        ("Vehicle Routing", "车辆路径规划"),
        ("Mixed-Integer Programming", "混合整数规划"),
        ("Symbolic Regression", "符号回归"),
        ("Spiking Neural Networks", "脉冲神经网络"),
        ("Tabular Learning", "表格学习"),
        ("Recommender Systems", "推荐系统"),
        ("Code Generation", "代码生成"),
        ("Speech Recognition", "语音识别"),
        ("Music Generation", "音乐生成"),
        ("Neural Architecture Search", "神经架构搜索"),
        ("Dataset Distillation", "数据集蒸馏"),
        ("Kernel Methods", "核方法"),
        ("Gaussian Processes", "高斯过程"),
        ("Bayesian Deep Learning", "贝叶斯深度学习"),
        ("Normalizing Flows", "归一化流"),
        ("Energy-Based Models", "能量模型"),
        ("Topological Data Analysis", "拓扑数据分析"),
    ],
    s=0.9,
)

# Digest pages: (emoji, category, topics the page favours).
CATEGORIES = [
    ("📐", "优化/理论", ["Adaptive Optimizers", "Zeroth-Order Optimization", "Implicit Bias"]),
    ("🧠", "大语言模型", ["Large Language Models", "In-Context Learning", "Reasoning"]),
    (
        "🎮",
        "强化学习",
        ["Reinforcement Learning", "Offline Reinforcement Learning", "World Models"],
    ),
    ("🔒", "联邦学习/隐私", ["Federated Learning", "Differential Privacy", "Machine Unlearning"]),
    ("🎨", "生成模型", ["Diffusion Models", "Video Generation", "Normalizing Flows"]),
    ("🕸️", "图学习", ["Graph Neural Networks", "Neural Combinatorial Optimization"]),
    ("⚡", "模型压缩/高效推理", ["Quantization", "KV Cache Compression", "Structured Pruning"]),
    ("👁️", "多模态/视觉", ["Vision-Language Models", "Gaussian Splatting", "Contrastive Learning"]),
    ("🔍", "可解释性/对齐", ["Mechanistic Interpretability", "Preference Optimization"]),
    ("🧪", "AI4Science", ["Molecular Generation", "Weather Forecasting", "Neural Operators"]),
]
_TOPIC_BY_EN = {en: (en, zh) for en, zh in TOPICS.items}

OTHER_VENUES = [
    ("💬", "ACL"),
    ("📷", "CVPR"),
    ("🤖", "AAAI"),
    ("🧠", "NeurIPS"),
    ("📹", "ICCV"),
    ("🧪", "ICML"),
    ("📘", "ICLR"),
    ("🌐", "KDD"),
    ("🗣️", "EMNLP"),
]

DATASETS = Zipf(
    "ImageNet GSM8K CIFAR-10 CIFAR-100 MATH500 MMLU HumanEval COCO AIME24 WikiText-103 C4 "
    "MuJoCo Atari D4RL ogbn-arxiv LibriSpeech ShapeNet ScanNet nuScenes ETTh1 QM9 PDEBench "
    "TinyImageNet SVHN GLUE MT-Bench AlpacaEval LongBench SWE-bench CVRPLib MIPLIB PCQM4Mv2 "
    "KITTI VQAv2 ChartQA DocVQA ERA5 Criteo MovieLens OpenWebText".split(),
    s=0.9,
)
MODELS = Zipf(
    "Llama-3-8B Qwen2.5-7B GPT-2 ViT-B/16 ResNet-50 OPT-1.3B Mistral-7B Qwen2.5-Math-1.5B "
    "BERT-base DiT-XL/2 T5-large Gemma-2-9B Phi-3-mini DeepSeek-R1-Distill-7B".split()
)
BASELINES = Zipf(
    "AdamW GRPO PPO DPO LoRA FedAvg SGD SAM Muon RLOO QLoRA GPTQ AWQ Shampoo DDIM SimCLR "
    "FedProx SCAFFOLD MAML ReAct".split()
)
STYLES = Zipf("GRPO PPO DPO Transformer MoE ReAct U-Net Mamba CLIP".split())

# Chinese building blocks for summaries.
ZH_MECH = Zipf(
    "自适应动量 方差缩减 低秩分解 梯度裁剪 层级聚合 稀疏门控 对比损失 重要性采样 投影梯度 "
    "课程学习 蒙特卡洛树搜索 分组归一化 残差量化 在线聚类 注意力重加权 奖励塑形 经验回放 "
    "动态路由 伪标签 谱正则化 最优传输对齐 扩散先验 图结构学习 不确定性加权 元梯度 块坐标下降 "
    "镜像下降 随机平滑 因果干预 记忆检索 前缀缓存 令牌剪枝 误差反馈 二阶曲率估计".split()
)
ZH_GOAL = Zipf(
    "显著降低通信开销 加速收敛 提升样本效率 缓解灾难性遗忘 抑制奖励黑客 减少显存占用 "
    "提高推理吞吐 增强分布外泛化 稳定训练过程 缓解模式坍缩 保护数据隐私 降低量化误差 减少幻觉 "
    "提升长上下文建模能力 改善校准 提升对抗鲁棒性".split()
)
ZH_PROBLEM = Zipf(
    "数据异质性 梯度方差过大 奖励稀疏 训练不稳定 计算开销高 显存瓶颈 分布偏移 标签噪声 "
    "长尾分布 过度平滑 曝光偏差 冷启动 非凸性 高维稀疏性 通信瓶颈".split()
)
ZH_ADJ = Zipf("轻量级 可扩展 无需训练 即插即用 统一 高效 分层 鲁棒 理论可证明 通用".split())
ZH_KIND = Zipf("框架 方法 算法 优化器 架构 训练策略 采样方案 解码策略".split())
ZH_METRIC = Zipf("准确率 Pass@1 胜率 平均回报 F1 分数 FID 困惑度 成功率".split())
ZH_THEORY = [
    r"理论上证明其收敛速率为 \(O(1/\sqrt{T})\)",
    r"给出 \(\tilde{O}(d/\epsilon^2)\) 的样本复杂度上界",
    r"证明在 \(L\)-光滑假设下可达到 \(\epsilon\)-稳定点",
    r"刻画了步长 \(\eta\) 与批量大小 \(B\) 的最优关系",
    r"证明误差以 \(O(\kappa\log(1/\epsilon))\) 速率衰减",
    r"在 \(\mu\)-强凸情形下获得线性收敛",
]

# English building blocks for titles and abstracts.
T_ADJ = Zipf(
    "Efficient Scalable Robust Adaptive Training-Free Communication-Efficient Memory-Efficient "
    "Unified Sparse Hierarchical Stable Fast Principled Lightweight Generalizable Faithful "
    "Calibrated Decentralized Provable Data-Efficient".split()
)
T_NOUN = Zipf(
    [
        "Training",
        "Fine-Tuning",
        "Inference",
        "Alignment",
        "Exploration",
        "Representation Learning",
        "Decoding",
        "Aggregation",
        "Routing",
        "Compression",
        "Planning",
        "Evaluation",
        "Sampling",
        "Estimation",
        "Adaptation",
        "Pretraining",
    ]
)
T_MECH = Zipf(
    [
        "Low-Rank Projections",
        "Variance Reduction",
        "Optimal Transport",
        "Learned Routing",
        "Error Feedback",
        "Spectral Regularization",
        "Curriculum Sampling",
        "Importance Weighting",
        "Mirror Descent",
        "Score Distillation",
        "Contrastive Objectives",
        "Implicit Differentiation",
        "Stochastic Rounding",
        "Tree Search",
        "Kernel Approximation",
        "Gradient Orthogonalization",
        "Momentum Correction",
        "Reward Shaping",
        "Token Pruning",
        "Latent Planning",
    ]
)
T_SETTING = Zipf(
    [
        "Heterogeneous Clients",
        "Non-IID Data",
        "Long Contexts",
        "Sparse Rewards",
        "Noisy Labels",
        "Low-Precision Arithmetic",
        "Distribution Shift",
        "Limited Memory",
        "Partial Observability",
        "Heavy-Tailed Noise",
        "Edge Devices",
        "Multilingual Settings",
        "Open-World Environments",
        "Streaming Data",
    ]
)
T_PROP = Zipf(
    "Convergence Generalization Stability Expressivity Robustness Optimality Calibration "
    "Identifiability Complexity".split()
)
T_GERUND = Zipf(
    "Scaling Stabilizing Accelerating Rethinking Unlocking Compressing Aligning Personalizing "
    "Debiasing Calibrating Revisiting Distilling".split()
)
T_LENS = Zipf(
    "Theoretical Geometric Statistical Causal Spectral Dynamical Information-Theoretic".split()
)

E_APP = Zipf(
    [
        "large-scale pretraining",
        "on-device inference",
        "scientific discovery",
        "autonomous driving",
        "medical imaging",
        "robotic manipulation",
        "drug discovery",
        "recommendation",
        "code synthesis",
        "mathematical problem solving",
        "multilingual translation",
        "weather prediction",
        "cross-silo collaboration",
        "long-horizon planning",
        "open-ended dialogue",
    ]
)
E_CONDITION = Zipf(
    [
        "heavy-tailed noise",
        "non-IID data",
        "limited memory",
        "partial observability",
        "distribution shift",
        "low-precision arithmetic",
        "adversarial perturbations",
        "sparse rewards",
        "noisy labels",
        "long contexts",
        "tight communication budgets",
        "non-stationary environments",
    ]
)
E_PROBLEM = Zipf(
    [
        "high gradient variance",
        "catastrophic forgetting",
        "reward hacking",
        "mode collapse",
        "over-smoothing",
        "exposure bias",
        "client drift",
        "quantization error",
        "memory bottlenecks",
        "hallucinated content",
        "poor calibration",
        "slow convergence",
        "training instability",
        "the curse of dimensionality",
    ]
)
E_ASSUMPTION = Zipf(
    [
        "bounded gradients",
        "convexity",
        "access to clean labels",
        "a fixed data distribution",
        "full-precision arithmetic",
        "dense rewards",
        "independent and identically distributed samples",
        "exact second-order information",
        "a known noise model",
        "overparameterized networks",
    ]
)
E_ADJ = Zipf(
    "simple scalable lightweight principled efficient robust adaptive training-free "
    "memory-efficient communication-efficient plug-and-play unified hierarchical modular "
    "structured sparse stochastic".split()
)
E_APPROACH = Zipf(
    [
        "framework",
        "algorithm",
        "optimizer",
        "training recipe",
        "architecture",
        "method",
        "estimator",
        "decoding strategy",
        "regularizer",
        "sampling scheme",
        "objective",
        "scheduler",
        "fine-tuning procedure",
        "planning module",
    ]
)
E_DOES = Zipf(
    [
        "adapts the step size to local curvature",
        "aggregates client updates with learned weights",
        "allocates computation to the hardest inputs",
        "reuses intermediate activations across steps",
        "decouples exploration from exploitation",
        "aligns representations across modalities",
        "prunes redundant tokens during decoding",
        "calibrates predictions with a held-out set",
        "compresses gradients before communication",
        "distills a large teacher into a compact student",
        "replaces the softmax with a linear-time kernel",
        "estimates the policy gradient with fewer rollouts",
        "merges task-specific weights without retraining",
        "corrects the bias of stale updates",
        "learns a latent model of the environment",
    ]
)
E_MECH = Zipf(
    [
        "momentum-based variance reduction",
        "low-rank projections",
        "gradient clipping",
        "importance sampling",
        "a learned router",
        "contrastive objectives",
        "optimal transport couplings",
        "spectral normalization",
        "stochastic rounding",
        "Monte Carlo tree search",
        "mirror descent",
        "block coordinate updates",
        "a mixture of experts",
        "reward shaping",
        "curriculum sampling",
        "randomized smoothing",
        "a frozen language model",
        "score distillation",
        "a Kalman filter",
        "error feedback",
    ]
)
E_GOAL = Zipf(
    [
        "reduce communication",
        "stabilize training",
        "improve sample efficiency",
        "preserve privacy",
        "lower memory usage",
        "speed up inference",
        "improve out-of-distribution generalization",
        "mitigate forgetting",
        "reduce variance",
        "improve calibration",
    ]
)
E_METRIC = Zipf(
    ["accuracy", "pass@1", "perplexity", "F1", "success rate", "win rate", "FID", "return"]
)
E_COST = Zipf("memory wall-clock-time communication latency energy FLOPs GPU-hours".split())
E_QUALITY = Zipf("accuracy robustness fairness interpretability stability efficiency".split())

# Short names: CamelCase heads and tails (the method names papers introduce).
NAME_HEADS = (
    "Fed Muon Quant Graph Flow Diff Sparse Meta Hyper Neuro Tensor Adapt Proto Lumi Cogni Opti "
    "Route Spec Cache Prune Mix Align Steer Token Vision Reason Lora Grad Hess Sign Zero Dual Prox "
    "Mirror Kernel Score Flux Echo Nova Orbit Pulse Prism Sigma Tempo Vector Wave Deep Omni Poly"
).split()
NAME_TAILS = (
    "Net Former Opt Mix Prune Align Route Steer Shift Tune Boost Flow Gen Bench Search Sched Merge "
    "Guard Lens Scope Bridge Pilot Forge Craft Loop Fuse Map Rank Sync Kit"
).split()
NAME_SUFFIXES = ["", "", "", "", "", "2", "++", "-R1", "-Lite", "-XL", "-Zero", "v2", "3", "BP"]
SYLLABLE_ONSETS = "b c d f g k l m n p r s t v z br cr fl gr pl tr st sk".split()
SYLLABLE_CODAS = ["", "", "n", "r", "x", "l", "s", "m"]
ACR_ADJ = (
    "Adaptive Hierarchical Sparse Dynamic Bayesian Neural Implicit Robust Temporal Causal "
    "Structured Residual Recurrent Modular Calibrated Stochastic Orthogonal Progressive Elastic "
    "Joint Unified Weighted Latent Contrastive Quantized Spectral Variational Federated"
).split()
ACR_NOUN = (
    "Gradient Routing Token Memory Policy Reward Variance Mixture Curriculum Kernel Momentum Graph "
    "Expert Attention Search Transport Alignment Pruning Sampling Distillation Scheduling "
    "Aggregation Estimation Decoding Planning Optimization Compression Exploration Feedback"
).split()


_PROPER = {"Gaussian", "Bayesian", "Riemannian", "KV"}


def _in_sentence(topic: str) -> str:
    """A title-case topic as it reads inside a sentence: "Gaussian splatting", "KV cache"."""
    return " ".join(w if w in _PROPER or w.isupper() else w.lower() for w in topic.split())


def _a(word: str) -> str:
    """``A Causal`` / ``An Information-Theoretic``."""
    return f"{'An' if word[0] in 'AEIOU' else 'A'} {word}"


def fold(text: str) -> str:
    """Comparison key like the tool's: case, spacing, punctuation and dashes ignored."""
    return re.sub(r"[\W_]+", "", text.casefold())


# Words a generated short name must never equal: names are merge keys, so a name that is
# also a dataset, baseline or acronym of the text could join two different papers.
RESERVED = {
    fold(w)
    for w in [
        *DATASETS.items,
        *MODELS.items,
        *BASELINES.items,
        *STYLES.items,
        *"AI GPU LLM LLMs ML NLP RL SOTA TPU VS KV FL MoE SGD SAM NCO VRP MILP".split(),
    ]
}


@dataclass
class Manifest:
    size: int
    seed: int
    papers: int = 0
    digest_entries: int = 0
    abstracts: int = 0
    documents: list[str] = field(default_factory=list)
    rare_term: str = RARE_TERM
    rare_papers: int = 0
    named: int = 0  # papers that introduce a short name (the tool should find every one)
    bytes: int = 0


class Generator:
    def __init__(self, seed: int, size: int) -> None:
        self.rng = random.Random(seed * 1_000_003 + size)
        self.names: set[str] = set()
        self.titles: set[str] = set()
        self.abstracts: set[str] = set()

    # -- names --------------------------------------------------------------------------

    def _claim(self, name: str) -> bool:
        key = fold(name)
        if len(key) < 3 or key in self.names or key in RESERVED:
            return False
        self.names.add(key)
        return True

    def camel_name(self) -> str:
        rng = self.rng
        for attempt in itertools.count():
            head = rng.choice(NAME_HEADS)
            if attempt < 8 and rng.random() < 0.6:
                tail = rng.choice(NAME_TAILS)
            else:
                syllables = rng.randint(1, 2 + attempt // 20)
                tail = "".join(
                    rng.choice(SYLLABLE_ONSETS) + rng.choice("aeiou") + rng.choice(SYLLABLE_CODAS)
                    for _ in range(syllables)
                ).capitalize()
            name = head + tail + rng.choice(NAME_SUFFIXES)
            if self._claim(name):
                return name
        raise AssertionError("unreachable")

    def acronym_name(self) -> tuple[str, str] | None:
        """(Long Form, ACR), e.g. ("Adaptive Gradient Routing", "AGR"); None if none is free."""
        rng = self.rng
        for _ in range(20):
            adjectives = rng.sample(ACR_ADJ, rng.choice((1, 1, 2)))
            words = adjectives + rng.sample(ACR_NOUN, 2)
            if rng.random() < 0.2:  # mixed-case short names like HiSo
                acr = "".join(w[:2] for w in words[:2])
            else:
                acr = "".join(w[0] for w in words)
            if self._claim(acr):
                return " ".join(words), acr
        return None

    # -- titles -------------------------------------------------------------------------

    def _unique_title(self, make) -> str | None:
        for _ in range(30):
            title = make()
            key = fold(title)
            if key not in self.titles:
                self.titles.add(key)
                return title
        return None

    def named_title(self, name: str, topic: str) -> str:
        rng = self.rng
        templates = [
            lambda: f"{name}: {T_ADJ(rng)} {topic} with {T_MECH(rng)} for {T_SETTING(rng)}",
            lambda: f"{name}: Towards {T_ADJ(rng)} {T_NOUN(rng)} in {topic}",
            lambda: f"{name}: {T_GERUND(rng)} {topic} via {T_MECH(rng)} under {T_SETTING(rng)}",
            lambda: f"{name}: {T_ADJ(rng)} and {T_ADJ(rng)} {T_NOUN(rng)} for {topic}",
        ]
        title = self._unique_title(lambda: rng.choice(templates)())
        assert title is not None  # the name alone makes it unique
        return title

    def acronym_title(self, long_form: str, acr: str, topic: str) -> str:
        rng = self.rng
        title = self._unique_title(
            lambda: f"{long_form} for {T_ADJ(rng)} {topic} under {T_SETTING(rng)} ({acr})"
        )
        assert title is not None
        return title

    def plain_title(self, topic: str) -> str:
        rng = self.rng

        def other() -> str:
            return TOPICS(rng)[0]

        templates = [
            lambda: f"On the {T_PROP(rng)} of {topic} under {T_SETTING(rng)}",
            lambda: f"When Does {T_MECH(rng)} Help {topic}? {_a(T_LENS(rng))} Perspective",
            lambda: f"{T_GERUND(rng)} {topic} with {T_MECH(rng)} for {T_SETTING(rng)}",
            lambda: f"{T_GERUND(rng)} Faster, {T_GERUND(rng)} Less: {T_ADJ(rng)} {topic}",
            lambda: f"{topic} Meets {other()}: {T_ADJ(rng)} {T_NOUN(rng)} for {T_SETTING(rng)}",
            lambda: f"Provably {T_ADJ(rng)} {T_MECH(rng)} for {topic} with {T_SETTING(rng)}",
            lambda: (
                f"{_a(T_LENS(rng))} Analysis of {T_NOUN(rng)} in {topic} under {T_SETTING(rng)}"
            ),
        ]
        title = self._unique_title(lambda: rng.choice(templates)())
        if title is None:  # this corner of the vocabulary is used up: add a method name
            return self.named_title(self.camel_name(), topic)
        return title

    # -- Chinese summaries --------------------------------------------------------------

    def summary(self, name: str | None, long_form: str | None, topic_zh: str) -> str:
        """A Chinese summary; it says 提出 <name> only when *name* is given."""
        rng = self.rng
        other_zh = TOPICS(rng)[1]
        if name and long_form:
            intro = f"提出 {name}（{long_form}），针对{topic_zh}中{ZH_PROBLEM(rng)}的问题"
        elif name:
            intro = rng.choice(
                [
                    f"提出 {name}，一种面向{topic_zh}的{ZH_ADJ(rng)}{ZH_KIND(rng)}",
                    f"提出 {name}，针对{topic_zh}中{ZH_PROBLEM(rng)}的问题",
                    f"提出 {name}，将{other_zh}的思想引入{topic_zh}",
                ]
            )
        else:
            intro = rng.choice(
                [
                    f"本文研究{topic_zh}中的{ZH_PROBLEM(rng)}问题",
                    f"首次系统分析了{topic_zh}在{ZH_PROBLEM(rng)}下的行为",
                    f"针对{topic_zh}中{ZH_PROBLEM(rng)}的挑战，本文从{other_zh}的视角重新审视该问题",
                    f"从理论上刻画了{topic_zh}与{other_zh}之间的联系",
                ]
            )
        m1, m2 = ZH_MECH.distinct(rng, 2)
        mech = rng.choice(
            [
                f"通过{m1}与{m2}相结合来{ZH_GOAL(rng)}",
                f"利用{STYLES(rng)}风格的{m1}{ZH_GOAL(rng)}",
                f"在{m1}的基础上引入{m2}，从而{ZH_GOAL(rng)}",
                f"设计{m1}模块以{ZH_GOAL(rng)}",
            ]
        )
        clauses = [intro, mech]
        if rng.random() < 0.3:
            clauses.append(rng.choice(ZH_THEORY))
        pct = f"{rng.uniform(0.5, 30):.1f}"
        result = rng.choice(
            [
                f"在{DATASETS(rng)}上{ZH_METRIC(rng)}提升 {pct}%",
                f"在{DATASETS(rng)}和{DATASETS(rng)}上超越 {BASELINES(rng)} 基线 {pct} 个点",
                f"在 {MODELS(rng)} 上实现 {rng.uniform(1.2, 8):.1f}× 加速",
                f"通信成本降低 {pct}%，且精度与 {BASELINES(rng)} 持平",
            ]
        )
        clauses.append(result)
        return "，".join(clauses) + "。"

    # -- English abstracts --------------------------------------------------------------

    def abstract(self, rare: bool) -> str:
        rng = self.rng
        topic = _in_sentence(TOPICS(rng)[0])
        target = rng.randint(150, 250)
        style = rng.random()
        name = None
        if style < 0.45:
            name = self.camel_name()
            naming = rng.choice(
                [
                    f"In this work, we propose {name}, a {E_ADJ(rng)} {E_APPROACH(rng)} "
                    f"that {E_DOES(rng)}.",
                    f"We introduce {name}, a {E_ADJ(rng)} {E_APPROACH(rng)} for {topic} "
                    f"that {E_DOES(rng)}.",
                    f"To close this gap, we present {name}, which {E_DOES(rng)}.",
                ]
            )
        elif style < 0.65 and (pair := self.acronym_name()):
            long_form, name = pair
            naming = (
                f"We propose {long_form} ({name}), a {E_ADJ(rng)} {E_APPROACH(rng)} "
                f"that {E_DOES(rng)}."
            )
        elif style < 0.75:
            name = self.camel_name()
            naming = (
                f"In this paper, we develop a {E_ADJ(rng)} {E_APPROACH(rng)} called {name} "
                f"that {E_DOES(rng)}."
            )
        else:
            naming = rng.choice(
                [
                    f"In this work, we study {topic} through a {T_LENS(rng).lower()} lens and "
                    f"show that {E_PROBLEM(rng)} is avoidable.",
                    f"We revisit {topic} and show that {E_PROBLEM(rng)} stems from "
                    f"{E_ASSUMPTION(rng)} rather than from the model itself.",
                ]
            )
        it = name or rng.choice(["our method", "the resulting procedure", "this approach"])
        it_cap = it[0].upper() + it[1:]
        context = rng.choice(
            [
                f"The use of {topic} for {E_APP(rng)} is now common, but its behaviour "
                f"under {E_CONDITION(rng)} remains poorly understood.",
                f"Despite rapid progress, methods for {topic} still suffer from {E_PROBLEM(rng)} "
                f"in {E_APP(rng)}.",
                f"Applying {topic} to {E_APP(rng)} promises large gains, yet practical "
                f"deployments are limited by {E_PROBLEM(rng)}.",
                f"A central question in {topic} is how to {E_GOAL(rng)} without sacrificing "
                f"{E_QUALITY(rng)}.",
                f"Modern systems for {E_APP(rng)} increasingly rely on {topic}, which makes "
                f"{E_PROBLEM(rng)} a pressing concern.",
                f"Under {E_CONDITION(rng)}, standard approaches to {topic} are known to "
                f"exhibit {E_PROBLEM(rng)}.",
                f"How should {topic} be trained when only {E_CONDITION(rng)} is available?",
                f"Recent work on {topic} for {E_APP(rng)} has focused on scale, leaving "
                f"{E_PROBLEM(rng)} largely unaddressed.",
            ]
        )
        limits = [
            f"Existing methods rely on {E_ASSUMPTION(rng)}, which breaks down under "
            f"{E_CONDITION(rng)}.",
            f"Prior work either ignores {E_PROBLEM(rng)} or addresses it with expensive "
            f"{E_MECH(rng)}, which scales poorly with model size.",
            f"Most analyses assume {E_ASSUMPTION(rng)}, an assumption that rarely holds "
            f"for {E_APP(rng)}.",
        ]
        e1, e2, e3 = E_MECH.distinct(rng, 3)
        details = [
            f"{it_cap} combines {e1} with {e2} to {E_GOAL(rng)}.",
            f"The key idea is to treat {E_PROBLEM(rng)} as a signal rather than noise, "
            f"and to correct for it with {E_MECH(rng)}.",
            f"Unlike previous approaches, {it} requires no extra hyperparameters and adds "
            f"{rng.randint(1, 9)}% overhead per step.",
            f"Concretely, {it} maintains a running estimate of the {E_METRIC(rng)} gap and "
            f"updates it using {E_MECH(rng)}.",
            f"{it_cap} is compatible with {BASELINES(rng)} and {BASELINES(rng)} and can be "
            f"implemented in a few lines of code.",
            f"We further show how {it} extends to {E_CONDITION(rng)} with only minor changes.",
            f"A careful ablation isolates the contribution of {e2} and of {e3}.",
        ]
        theory = [
            f"Theoretically, we prove that {it} converges at a rate of "
            r"$O(1/\sqrt{T})$ for smooth non-convex objectives.",
            r"We establish a sample complexity bound of $\tilde{O}(d/\epsilon^2)$, which "
            "matches the known lower bound up to logarithmic factors.",
            r"Our analysis shows that the gap to the optimum decays as "
            rf"$O(\kappa \log(1/\epsilon))$ under {E_ASSUMPTION(rng)}.",
            "We further derive a generalization bound that depends on the effective rank "
            "rather than on the number of parameters.",
        ]
        d1, d2, d3 = DATASETS.distinct(rng, 3)
        b1, b2 = BASELINES.distinct(rng, 2)
        pct = f"{rng.uniform(0.5, 30):.1f}"
        experiments = rng.choice(
            [
                f"Experiments on {d1}, {d2} and {d3} show that {it} improves "
                f"{E_METRIC(rng)} by {pct}% over {b1}.",
                f"On {MODELS(rng)}, {it} reduces {E_COST(rng)} by {rng.uniform(1.2, 9):.1f}x "
                f"while matching the {E_METRIC(rng)} of {b1}.",
                f"Across {rng.randint(4, 30)} benchmarks, including {d1} and {d2}, {it} "
                f"outperforms strong baselines such as {b1} and {b2}.",
            ]
        )
        if rare:
            experiments = experiments[:-1] + f", including the held-out {RARE_TERM} split."
        closing = rng.choice(
            [
                f"These results suggest that careful {E_MECH(rng)} matters more for {topic} "
                f"than scale alone.",
                f"Our findings offer practical guidance for {E_APP(rng)}.",
                f"Code is available at https://github.com/{fold(it)[:12]}-lab/"
                f"{fold(it)[:16] or 'code'}{rng.randint(1, 999)}.",
                f"We hope this work clarifies when {topic} can be trusted in {E_APP(rng)}.",
            ]
        )
        rng.shuffle(limits)
        rng.shuffle(details)
        head = [context, *limits[: 1 + (target > 200)], naming]
        tail = [experiments, closing]
        body: list[str] = []
        extras = [rng.choice(theory), *details]  # popped from the end: details first

        def words() -> int:
            return sum(len(s.split()) for s in (*head, *body, *tail))

        while extras and words() < target:
            body.append(extras.pop())
        text = " ".join([*head, *body, *tail])
        key = fold(text)
        assert key not in self.abstracts  # random numbers make a repeat all but impossible
        self.abstracts.add(key)
        return text

    # -- documents ----------------------------------------------------------------------

    def digest_entry(self, favoured: list[str]) -> tuple[str, str, str]:
        """(title, summary, Chinese topic) for one digest entry."""
        rng = self.rng
        if rng.random() < 0.6:
            en, zh = _TOPIC_BY_EN[rng.choice(favoured)]
        else:
            en, zh = TOPICS(rng)
        style = rng.random()
        if style < 0.55:
            name = self.camel_name()
            title = self.named_title(name, en)
            summary = self.summary(name if rng.random() < 0.7 else None, None, zh)
        elif style < 0.65 and (pair := self.acronym_name()):
            long_form, acr = pair
            title = self.acronym_title(long_form, acr, en)
            summary = self.summary(acr, long_form if rng.random() < 0.5 else None, zh)
        elif style < 0.8:
            title = self.plain_title(en)
            summary = self.summary(self.camel_name(), None, zh)  # named only in the summary
        else:
            title = self.plain_title(en)
            summary = self.summary(None, None, zh)
        return title, summary, zh

    def digest_page(self, venue: str, year: int, count: int) -> str:
        rng = self.rng
        emoji, category, favoured = rng.choice(CATEGORIES)
        entries = [self.digest_entry(favoured) for _ in range(count)]
        entries.sort(key=lambda e: e[0].casefold())  # digest pages list titles alphabetically
        topic_counts: dict[str, int] = {}
        for _title, _summary, zh in entries:
            topic_counts[zh] = topic_counts.get(zh, 0) + 1
        hot = sorted(topic_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        others = [(e, v) for e, v in OTHER_VENUES if v != venue]
        nav = " · ".join(
            f"{e} {v}{rng.choice(YEARS)} ({rng.randint(1, 150)})"
            for e, v in rng.sample(others, rng.randint(3, 6))
        )
        lines = [
            f"{emoji} {category}¶",
            f"🔬 {venue}{year} · {count} 篇论文解读",
            f"📌 同领域跨会议浏览： {nav}",
            "🔥 高频主题： " + " · ".join(f"{zh} ×{n}" for zh, n in hot),
        ]
        for title, summary, _zh in entries:
            lines += [f"- {title}", "-", summary]
        return "\n".join(lines) + "\n"

    def abstract_list(self, venue: str, year: int, count: int, rare: set[int], first: int) -> str:
        paragraphs = [f"{venue} {year} 论文列表"]
        paragraphs += [self.abstract(first + i in rare) for i in range(count)]
        return "\n\n".join(paragraphs)  # like the bundled list: no final newline


def _chunks(rng: random.Random, total: int) -> list[int]:
    """Page sizes of 50-500 entries, smaller for small sets so that there are several."""
    high = max(MIN_PAGE, min(MAX_PAGE, total // 4))
    sizes = []
    while total > 0:
        n = min(total, rng.randint(MIN_PAGE, high))
        sizes.append(n)
        total -= n
    return sizes


def generate(size: int, out_dir: Path, seed: int = DEFAULT_SEED) -> Manifest:
    """Write documents for *size* papers into *out_dir*; return what was written."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    gen = Generator(seed, size)
    rng = gen.rng
    manifest = Manifest(size=size, seed=seed)
    n_digest = size // 2
    n_abstracts = size - n_digest
    rare = set(rng.sample(range(n_abstracts), min(RARE_COUNT, n_abstracts)))
    venue_years = [(v, y) for v in VENUES for y in YEARS]
    weights = [1 + (y - YEARS[0]) for _v, y in venue_years]  # recent years hold more papers
    counter: dict[str, int] = {}

    def write(stem: str, text: str) -> None:
        counter[stem] = counter.get(stem, 0) + 1
        name = f"{stem}-{counter[stem]:03d}.txt"
        data = text.encode("utf-8")
        (out_dir / name).write_bytes(data)
        manifest.documents.append(name)
        manifest.bytes += len(data)

    for count in _chunks(rng, n_digest):
        venue, year = rng.choices(venue_years, weights)[0]
        write(f"{venue.lower()}{year}-digest", gen.digest_page(venue, year, count))
        manifest.digest_entries += count
    done = 0
    for count in _chunks(rng, n_abstracts):
        venue, year = rng.choices(venue_years, weights)[0]
        write(f"{venue.lower()}{year}-abstracts", gen.abstract_list(venue, year, count, rare, done))
        done += count
    manifest.abstracts = done
    manifest.papers = manifest.digest_entries + manifest.abstracts
    manifest.rare_papers = len(rare)
    manifest.named = len(gen.names)  # every name claimed is written into exactly one paper
    (out_dir / "manifest.json").write_text(json.dumps(asdict(manifest), indent=2) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("size", type=int, help="number of papers (half digest, half abstracts)")
    parser.add_argument("out_dir", type=Path, help="folder for the documents (created)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)
    m = generate(args.size, args.out_dir, args.seed)
    print(
        f"{len(m.documents)} documents, {m.papers} papers ({m.digest_entries} digest entries, "
        f"{m.abstracts} abstracts), {m.bytes / 1e6:.1f} MB; "
        f"{m.rare_term!r} in {m.rare_papers} abstracts"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
