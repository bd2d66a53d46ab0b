"""The metrics and the query list of the search-quality report (``make eval``:
benchmarks/metrics.py, benchmarks/literal.py), against values computed by hand."""

import pytest
from benchmarks.literal import literal_matches, name_parts, sample_chinese, sample_words, word_parts
from benchmarks.metrics import Summary, ndcg_at, precision_at, recall, relevant_ids

# 1 / log2(3), the discount of rank 2
RANK_2 = 0.6309297535714575


def test_two_relevant_papers_at_ranks_one_and_three():
    ranking, relevant = ["a", "x", "b", "y"], {"a", "b"}
    assert recall(ranking, relevant) == 1.0
    assert precision_at(ranking, relevant) == 0.2  # 2 of 10: the empty rows count
    # DCG 1/log2(2) + 1/log2(4) = 1.5; ideal 1 + 1/log2(3)
    assert ndcg_at(ranking, relevant) == pytest.approx(1.5 / (1 + RANK_2), abs=1e-12)
    assert ndcg_at(ranking, relevant) == pytest.approx(0.9197207891, abs=1e-10)


def test_one_relevant_paper_discounted_by_its_rank():
    assert ndcg_at(["x", "y", "a"], {"a"}) == 0.5  # 1/log2(4)
    assert ndcg_at(["x1", "x2", "x3", "x4", "x5", "x6", "a"], {"a"}) == 1 / 3  # 1/log2(8)
    assert precision_at(["x", "y", "a"], {"a"}) == 0.1


def test_a_paper_below_rank_ten_counts_for_recall_only():
    ranking = [f"x{i}" for i in range(10)] + ["a"]
    assert (recall(ranking, {"a"}), precision_at(ranking, {"a"}), ndcg_at(ranking, {"a"})) == (
        1.0,
        0.0,
        0.0,
    )


def test_more_relevant_papers_than_ten_the_ideal_stops_at_ten():
    relevant = {f"r{i}" for i in range(12)}
    ranking = [f"r{i}" for i in range(10)]
    assert (recall(ranking, relevant), precision_at(ranking, relevant)) == (10 / 12, 1.0)
    assert ndcg_at(ranking, relevant) == pytest.approx(1.0, abs=1e-12)


def test_an_empty_ranking_scores_nothing():
    assert (recall([], {"a"}), precision_at([], {"a"}), ndcg_at([], {"a"})) == (0.0, 0.0, 0.0)


def test_a_paper_judged_not_relevant_has_gain_zero_as_an_unlisted_one():
    concept = {"name": "c", "relevant": {"a": "quote"}, "not": {"b": "quote [passing]"}}
    assert relevant_ids(concept) == {"a"}
    relevant = relevant_ids(concept)
    assert ndcg_at(["b", "a"], relevant) == ndcg_at(["u", "a"], relevant) == RANK_2
    assert relevant_ids({"name": "c", "relevant": {}, "not": {}}) == set()


def test_summary_pools_recall_and_averages_the_ranks_over_queries():
    summary = Summary()
    summary.add(["a"], {"a", "b"})  # recall 1/2, P@10 0.1, nDCG 1 / (1 + 1/log2 3)
    summary.add(["c", "x", "y"], {"c"})  # recall 1/1, P@10 0.1, nDCG 1
    summary.add(["z"], set())  # no relevant paper: its hit is wrong, it has no P@10 or nDCG
    assert (summary.found, summary.relevant, summary.retrieved) == (2, 3, 5)
    assert (summary.recall, summary.precision) == (2 / 3, 2 / 5)  # pooled, not 0.75
    assert summary.p_at_k == [0.1, 0.1]
    assert summary.mean_p_at_k == 0.1
    assert summary.mean_ndcg == pytest.approx((1 / (1 + RANK_2) + 1) / 2, abs=1e-12)
    assert summary.mean_ndcg == pytest.approx(0.8065735964, abs=1e-10)


def test_names_split_as_the_word_delimiter_filter_splits_them():
    assert word_parts("RFedAGS") == ["RFed", "AGS"]
    assert word_parts("Qwen2.5-Math-7B") == ["Qwen", "2", "5", "Math", "7", "B"]
    text = "Qwen2.5-Math-7B on GSM8K; FooBar, offline-to-online, state-of-the-art, Muon; qwen3"
    assert name_parts(text) == ["Qwen", "Math", "GSM", "Foo", "Bar", "offline", "online"]


def test_the_literal_scan_needs_every_word_case_folded_as_a_substring():
    texts = {"p1": "scaf-grpo on qwen2.5-math-7b", "p2": "gsm8k results\nqwen"}
    assert literal_matches("Qwen", texts) == ["p1", "p2"]
    assert literal_matches("GSM qwen", texts) == ["p2"]
    assert literal_matches("GSM math", texts) == []


def test_the_samples_hold_only_words_the_query_language_searches_for():
    text = "The Muon GSM8K offline-to-online optimizer ICLR what muon $\\tilde{O}$ 联邦学习"
    assert sorted(sample_words([text], 10)) == ["Muon", "optimizer"]
    assert sorted(sample_chinese([text], 10)) == sorted(
        ["联邦", "邦学", "学习", "联邦学", "邦学习", "联邦学习"]
    )
    assert len(sample_words([text], 1)) == 1
    assert sample_words([text], 1) == sample_words([text], 1)  # the same on every run
