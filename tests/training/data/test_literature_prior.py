from collections import Counter

from training.data.literature_prior import count_occurrences, gene_groups, name_key, prior_rows, unambiguous_names

ROWS = [
    ("UniProt:P46937", "YAP1", "gene_primary"),
    ("UniProt:P46937", "YAP", "hgnc_alias"),
    ("UniProt:P46937", "Yes-associated protein 1", "recommended"),
    ("UniProt:P46938", "Yap1", "gene_primary"),  # the mouse ortholog: same gene
    ("UniProt:Q9H869", "YY1AP1", "gene_primary"),
    ("UniProt:Q9H869", "YAP", "hgnc_alias"),
    ("UniProt:Q9VPH0", "in", "gene_primary"),
]


def test_names_of_one_gene_only_and_no_stop_words():
    group = gene_groups(ROWS)
    assert group["UniProt:P46938"] == group["UniProt:P46937"] == "gene:YAP1"
    names = unambiguous_names(ROWS, group)
    assert "YAP" not in names and "in" not in names
    assert names["YAP1"] == names["yes-associated protein 1"] == "gene:YAP1"
    assert name_key("MMP - 2") == "MMP-2" and name_key("Yes - associated protein 1") == "yes-associated protein 1"


def test_counts_and_prior_order():
    group = gene_groups(ROWS)
    names = unambiguous_names(ROWS, group)
    sentences = ["YAP and YAP1 bind .", "Yes - associated protein 1 ( YAP1 ) is in the nucleus .", "yap1 ?"]
    counts = count_occurrences(sentences, names)
    assert counts == Counter({"gene:YAP1": 3})  # `yap1` is short: its case must match
    rows = {r[0]: r for r in prior_rows(ROWS, counts, group)}
    assert rows["UniProt:P46937"][1] == rows["UniProt:P46938"][1] == 3
    assert rows["UniProt:P46937"][3] > rows["UniProt:P46938"][3] > rows["UniProt:Q9H869"][3]
