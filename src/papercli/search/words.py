"""The common words of ML texts, each with its usual rendering in the other language.

Too common or too broad to say what a paper is about, they are no names of the glossary (a
paper is indexed with no concept for them); but a query asks for such a word in both
languages, as it asks for an English word in English texts: 梯度 finds "gradient", and
"gradient" finds 梯度. They are also what names unknown to the glossary are made of:
训练加速 is 训练 and 加速, and "training acceleration" finds the paper that says only
加速训练 (``bridge._compound`` cuts a Chinese run into them).

Which words: the nouns and adjectives among the words that three or more of the 45 bundled
Chinese summaries write (not the verbs and adverbs of a summary's prose: 提出, 揭示, 解释,
实现, 提升, 显著; none of the glossary's names), and words of the same kinds beyond them:
the parts of a model, of training, of an analysis, of a distributed system, and the kinds
of data. Each rendering is the word ML texts use (精度: accuracy or precision; 策略: policy
or strategy); an English noun and its verb are both listed where the stemmer keeps them
apart (estimation and estimate, acceleration and accelerate: ``analysis.stem_latin``).

A word in one language that ML texts use in two senses of the other stays out (推理, which
the glossary splits; 下降, descent or decrease), and so do a single character (核, 熵: it
stands inside too many words: 核心, 交叉熵) and a word whose rendering is hyphenated (一阶,
first-order: a rendering goes into the query as one plain word). 学习 and 优化 stay out
too: a third of the summaries and nearly every abstract write them, and run together
(学习优化, learning to optimize) they were asked for as any paper that speaks of learning
and of optimization: on a blind set (tests/data/judged_fourth.yaml) they found 4 more
right papers and 11 wrong ones.
"""

from __future__ import annotations

from functools import cache

WORDS: dict[str, tuple[str, ...]] = {
    # the parts and kinds of a model
    "框架": ("framework",),
    "方法": ("method",),
    "算法": ("algorithm",),
    "模型": ("model",),
    "网络": ("network",),
    "神经": ("neural",),
    "架构": ("architecture",),
    "结构": ("structure",),
    "参数": ("parameter",),
    "权重": ("weight",),
    "激活": ("activation",),
    "特征": ("feature",),
    "表征": ("representation",),
    "表示": ("representation",),
    "编码器": ("encoder",),
    "解码器": ("decoder",),
    "生成器": ("generator",),
    "判别器": ("discriminator",),
    "解码": ("decoding",),
    "注意力": ("attention",),
    "深度": ("deep", "depth"),
    "维度": ("dimension",),
    "线性": ("linear",),
    "函数": ("function",),
    "矩阵": ("matrix",),
    "张量": ("tensor",),
    "知识": ("knowledge",),
    "记忆": ("memory",),
    "内存": ("memory",),
    "初始化": ("initialization",),
    # training and optimisation
    "训练": ("training",),
    "梯度": ("gradient",),
    "损失": ("loss",),
    "目标": ("objective",),
    "更新": ("update",),
    "迭代": ("iteration", "iterative"),
    "批量": ("batch",),
    "衰减": ("decay",),
    "速率": ("rate",),
    "加速": ("acceleration", "accelerate", "speedup"),
    "调优": ("tuning",),
    "调参": ("tuning",),
    "自适应": ("adaptive",),
    "适应": ("adaptation", "adapt"),
    "迁移": ("transfer",),
    "监督": ("supervision", "supervised"),
    "对比": ("contrastive",),
    "奖励": ("reward",),
    "策略": ("policy", "strategy"),
    "环境": ("environment",),
    "轨迹": ("trajectory",),
    "采样": ("sampling",),
    "样本": ("sample",),
    "数据": ("data",),
    "数据集": ("dataset",),
    "噪声": ("noise",),
    "扰动": ("perturbation",),
    "惩罚": ("penalty",),
    "约束": ("constraint",),
    "剪枝": ("pruning",),
    "压缩": ("compression", "compress"),
    "扩散": ("diffusion",),
    # what a paper proves or measures
    "理论": ("theory",),
    "证明": ("proof", "prove"),
    "推导": ("derivation", "derive"),
    "分析": ("analysis",),
    "假设": ("assumption",),
    "条件": ("condition",),
    "保证": ("guarantee",),
    "最优": ("optimal",),
    "最优性": ("optimality",),
    "全局": ("global",),
    "局部": ("local",),
    "近似": ("approximation", "approximate"),
    "估计": ("estimation", "estimate"),
    "估计器": ("estimator",),
    "分解": ("decomposition", "decompose"),
    "复杂度": ("complexity",),
    "信息": ("information",),
    "动力学": ("dynamics",),
    "稳定": ("stable",),
    "方向": ("direction",),
    "空间": ("space",),
    "正交": ("orthogonal",),
    "范数": ("norm",),
    "距离": ("distance",),
    "散度": ("divergence",),
    "曲率": ("curvature",),
    "特征值": ("eigenvalue",),
    "偏差": ("bias",),
    "方差": ("variance",),
    "误差": ("error",),
    "概率": ("probability",),
    "随机": ("stochastic", "random"),
    "分布": ("distribution",),
    "重要性": ("importance",),
    "缩放": ("scaling",),
    "规模": ("scale",),
    "插值": ("interpolation",),
    "外推": ("extrapolation",),
    "传播": ("propagation",),
    "动态": ("dynamic",),
    "系统": ("system",),
    "建模": ("modeling",),
    "过程": ("process",),
    "阶段": ("stage", "phase"),
    "鲁棒": ("robust",),
    "一致": ("consistent",),
    "精确": ("exact",),
    "解析": ("analytic",),
    # what a method does, and at what cost
    "预测": ("prediction", "predict"),
    "生成": ("generation", "generative"),
    "搜索": ("search",),
    "规划": ("planning",),
    "控制": ("control",),
    "决策": ("decision",),
    "求解": ("solve",),
    "求解器": ("solver",),
    "选择": ("selection", "select"),
    "匹配": ("matching",),
    "检测": ("detection", "detect"),
    "排序": ("ranking",),
    "检索": ("retrieval",),
    "分类": ("classification",),
    "回归": ("regression",),
    "聚合": ("aggregation",),
    "设计": ("design",),
    "评估": ("evaluation", "evaluate"),
    "实验": ("experiment",),
    "基准": ("benchmark",),
    "基线": ("baseline",),
    "性能": ("performance",),
    "精度": ("accuracy", "precision"),
    "准确": ("accurate",),
    "效率": ("efficiency",),
    "高效": ("efficient",),
    "速度": ("speed",),
    "延迟": ("latency",),
    "开销": ("overhead",),
    "成本": ("cost",),
    "计算": ("computation",),
    "并行": ("parallel",),
    "硬件": ("hardware",),
    "通信": ("communication",),
    "分布式": ("distributed",),
    "客户端": ("client",),
    "服务器": ("server",),
    "异构": ("heterogeneous",),
    "节点": ("node",),
    "拓扑": ("topology",),
    "智能体": ("agent",),
    "博弈": ("game",),
    "均衡": ("equilibrium",),
    "在线": ("online",),
    "离线": ("offline",),
    "对抗": ("adversarial",),
    "攻击": ("attack",),
    "安全": ("safety", "security"),
    "公平": ("fair",),
    "校准": ("calibration",),
    "因果": ("causal",),
    "贝叶斯": ("Bayesian",),
    "稀疏": ("sparse", "sparsity"),
    # what the data is
    "图像": ("image",),
    "视觉": ("vision", "visual"),
    "语言": ("language",),
    "文本": ("text",),
    "视频": ("video",),
    "代码": ("code",),
    "数学": ("math", "mathematical"),
    "物理": ("physics", "physical"),
    "分子": ("molecule", "molecular"),
    "蛋白质": ("protein",),
    "提示": ("prompt",),
    "指令": ("instruction",),
    "工具": ("tool",),
    "任务": ("task",),
    "路径": ("path",),
    "长度": ("length",),
    "时间": ("time",),
    # what a summary says of it
    "质量": ("quality",),
    "测试": ("test",),
    "现象": ("phenomenon",),
    "差距": ("gap",),
    "联合": ("joint",),
    "统一": ("unified",),
    "传统": ("traditional",),
    "依赖": ("dependence",),
}
LENGTHS = sorted({len(word) for word in WORDS}, reverse=True)  # (longest first)


def renderings(word: str) -> tuple[str, ...]:
    """*word*'s renderings in the other language: English for a Chinese word of ``WORDS``,
    Chinese for an English one as written, else in any of its forms (accelerating,
    accelerated, as the index stems them; memory: 记忆 and 内存); () for any other word."""
    if word in WORDS:
        return WORDS[word]
    lower = word.lower()
    candidates = _by_prefix().get(lower[:PREFIX]) if word.isascii() else None
    if not candidates:
        return ()
    from .analysis import stem_latin

    exact = tuple(zh for en, zh in candidates if en == lower)
    if exact:  # (sampling is 采样, though the stemmer makes it "sample" too: 样本)
        return exact
    # Only the renderings that begin as *word* does are stemmed: a stem keeps its word's
    # first letters, and stemming them all would slow every query.
    key = stem_latin(lower)
    return tuple(dict.fromkeys(zh for en, zh in candidates if stem_latin(en) == key))


PREFIX = 4  # (letters a stem keeps: analys-, optimi-, accele-)


@cache
def _by_prefix() -> dict[str, list[tuple[str, str]]]:
    """The first letters of each English rendering -> (rendering, its Chinese word)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for chinese, english in WORDS.items():
        for word in english:
            out.setdefault(word.lower()[:PREFIX], []).append((word.lower(), chinese))
    return out


def spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each common word inside a Chinese *text*, overlapping ones each."""
    return [
        (i, i + n)
        for i in range(len(text))
        for n in LENGTHS
        if i + n <= len(text) and text[i : i + n] in WORDS
    ]
