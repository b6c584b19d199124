from training.evaluation.frequent_mentions import frequent_mentions, markdown


def test_share_of_hits_and_hits_without_each_string():
    texts = ["LC3"] * 4 + ["p53"] * 2 + ["Akt", "Erk"]
    gold = frozenset({"A"})
    ranked = [["A"]] * 3 + [["B"]] + [["A"], ["B"]] + [["A"], []]
    report = frequent_mentions(texts, ranked, [gold] * 8, top=2)
    assert report["hits@1"] == 0.625  # 5 of 8
    assert report["top_share_of_occurrences"] == 0.75  # LC3 and p53: 6 of 8
    assert report["top_share_of_hits"] == 0.8  # 4 of the 5 right answers
    assert report["hits@1_without_top"] == 0.5  # Akt right, Erk wrong
    lc3, p53 = report["strings"]
    assert (lc3["mention"], lc3["occurrences"], lc3["right"]) == ("LC3", 4, 3)
    assert lc3["hits@1_without"] == 0.5 and lc3["delta"] == -0.125  # 2 of the other 4
    assert (p53["mention"], p53["right"], p53["hits@1_without"]) == ("p53", 1, round(4 / 6, 4))


def test_empty_and_markdown():
    assert frequent_mentions([], [], [])["hits@1"] == 0.0
    report = frequent_mentions(["x", "y"], [["A"], ["A"]], [frozenset({"A"})] * 2)
    lines = markdown({"nseen": {"frequent_mentions": report}, "exact": {}})
    assert any(line.startswith("| nseen | 1.000 |") for line in lines)
    assert "| `x` | 1 | 1 | 1.000 | +0.000 |" in lines
