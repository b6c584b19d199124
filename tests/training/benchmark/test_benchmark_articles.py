import spacy

from training.benchmark.benchmark_articles import articles_markdown, interleaved


def test_interleaved_runs_report_rates_and_ratios_per_round():
    nlp = spacy.blank("en")
    result = interleaved(nlp, [["a b", "c d"], ["e"]], rounds=2, lists=True, figures=[["F1", "F1"], [None]])
    assert (result["texts"], result["articles"], result["rounds"]) == (3, 2, 2)
    for name in ("no_context", "context", "context_as_lists"):
        assert len(result[f"{name}_texts_per_s"]) == 2 and result[f"{name}_texts_per_s_median"] > 0
        assert result[f"{name}_texts_per_cpu_s_median"] > 0
    assert len(result["context_ratio"]) == 2 and result["context_as_lists_ratio_median"] > 0
    lines = articles_markdown({"sizes": {"2": result}, "bioid_by_article": result,
                               "annotate_fulltext": {"100": {"articles": 100, "passages": 2000, "texts_per_s": 9.5,
                                                             "peak_rss_mb": 1500.0, "load_average_at_start": 1.2}}})
    assert any(line.startswith("| 2 | 3 |") for line in lines) and "| 100 | 2000 | 9.5 | 1500.0 | 1.2 |" in lines
    cpu = f"| Bio-ID by article | {result['no_context_texts_per_cpu_s_median']} | {result['context_texts_per_cpu_s_median']} |"
    assert cpu in lines
