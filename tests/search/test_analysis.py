"""The bilingual analyzer: script boundaries, CJK bigrams, stemming, identifiers."""

from __future__ import annotations

import pytest

from papercli.search.analysis import tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("配合GRPO风格策略", ["配合", "grpo", "风格", "格策", "策略"]),
        ("在GSM8K上", ["在", "gsm8k", "上"]),
        ("聚类联邦学习框架", ["聚类", "类联", "联邦", "邦学", "学习", "习框", "框架"]),
        ("EF21-Muon", ["ef21", "muon"]),
        ("Newton-Schulz", ["newton", "schulz"]),
        ("Qwen2.5-Math-7B", ["qwen2", "5", "math", "7b"]),
        ("∇-Reasoner", ["∇", "reason"]),
        ("Πnet", ["pinet"]),  # (Greek letters by name: ΠNet is PiNet)
        (
            "β-VAE, μP, ε-greedy, ϵ and 高β",
            ["beta", "vae", "mup", "epsilon", "greedi", "epsilon", "高", "beta"],
        ),
        ("the optimizers of Federated Learning", ["optimizer", "feder", "learn"]),
        ("📐 优化/理论¶", ["优化", "理论"]),
        ("高频主题：推理 ×3 · LLM", ["高频", "频主", "主题", "推理", "3", "llm"]),
        ("（全角）、。！", ["全角"]),
        ("ℓ_1-norm and L1, x_t, max_new_tokens", ["l1", "norm", "l1", "xt", "maxnewtoken"]),
    ],
)
def test_query_tokens(text, expected):
    assert tokens(text, mode="query") == expected


def test_index_mode_adds_cjk_unigrams_at_the_bigram_positions():
    from papercli.search.analysis import bilingual_analyzer

    toks = [(t.text, t.pos) for t in bilingual_analyzer()("联邦学习 x", positions=True)]
    assert toks == [
        ("联邦", 0),
        ("联", 0),
        ("邦学", 1),
        ("邦", 1),
        ("学习", 2),
        ("学", 2),
        ("习", 2),
        ("x", 3),
    ]


def test_positions_stay_consecutive_across_scripts():
    from papercli.search.analysis import bilingual_analyzer

    analyzer = bilingual_analyzer()
    toks = [(t.text, t.pos) for t in analyzer("提出 FedDAG 聚类联邦", positions=True, mode="query")]
    assert toks == [("提出", 0), ("feddag", 1), ("聚类", 2), ("类联", 3), ("联邦", 4)]


def test_a_hyphenated_word_is_indexed_as_one_word_too_at_its_last_parts_place():
    """multi-modal is multi, modal and multimodal: "multimodal" finds it, and a phrase
    through it still runs. An identifier with a dot (Qwen2.5-Math-7B) is left alone, and
    a query is analysed as typed (querylang asks for both spellings)."""
    from papercli.search.analysis import bilingual_analyzer

    def indexed(text):
        return [(t.text, t.pos) for t in bilingual_analyzer()(text, positions=True)]

    assert indexed("multi-modal learning") == [
        ("multi", 0),
        ("modal", 1),
        ("multimod", 1),
        ("learn", 2),
    ]
    assert indexed("state-of-the-art, GPT-4") == [
        ("state", 0),
        ("art", 1),
        ("stateoftheart", 1),
        ("gpt", 2),
        ("4", 3),
        ("gpt4", 3),
    ]
    assert indexed("在Multi-Modal上") == [
        ("在", 0),
        ("multi", 1),
        ("modal", 2),
        ("multimod", 2),
        ("上", 3),
    ]
    assert indexed("Qwen2.5-Math-7B") == [("qwen2", 0), ("5", 1), ("math", 2), ("7b", 3)]
    # a number at its head both ways: "two-layer" and "2-layer" meet
    assert indexed("two-layer") == [("two", 0), ("layer", 1), ("twolay", 1), ("2layer", 1)]
    assert indexed("2-layer") == [("2", 0), ("layer", 1), ("2layer", 1), ("twolay", 1)]
    assert tokens("multi-modal", mode="query") == ["multi", "modal"]
