import numpy as np
import pytest
from rapidfuzz.distance import JaroWinkler, Levenshtein

from training.common.data_errors import DataFileError
from training.pairs.make_pairs import _entity_groups, build_pair_store, semantic_positives
from training.pairs.string_similarity import jaccard3

REFERENCE = [
    ("UniProt:Q14164", "IKKε", "recommended"),
    ("UniProt:Q14164", "IKK-epsilon", "alternative"),
    ("UniProt:Q14164", "IKBKE", "gene_primary"),
    ("UniProt:P16885", "PLCγ2", "recommended"),
    ("UniProt:P16885", "PLC-gamma-2", "alternative"),
    ("UniProt:P16885", "PLCG2", "gene_primary"),
    ("UniProt:Q05655", "PKCδ", "recommended"),
    ("UniProt:Q05655", "PRKCD", "gene_primary"),
    ("UniProt:P01112", "Ras", "recommended"),
    ("UniProt:P01112", "HRAS", "gene_primary"),
    ("UniProt:P55072", "FOX P2", "recommended"),
    ("UniProt:P55072", "FOX-P2", "alternative"),
    ("UniProt:P55072", "HRAS", "alternative"),  # an ambiguous name
]
FAMILIES = [("F:1", "UniProt:Q14164"), ("F:1", "UniProt:Q05655"), ("F:2", "UniProt:P16885"), ("F:2", "UniProt:P01112")]


@pytest.fixture
def reference(tmp_path):
    ref = tmp_path / "ref.tsv"
    ref.write_text("kb_id\tname\tkind\n" + "".join("\t".join(r) + "\n" for r in REFERENCE))
    fam = tmp_path / "fam.tsv"
    fam.write_text("family_id\tkb_id\n" + "".join("\t".join(r) + "\n" for r in FAMILIES))
    return ref, fam


def test_pair_sets(reference):
    store, stats = build_pair_store(*reference, seed=1)
    counts = store.counts()
    names = store.strings
    # positives: cross product within entities: 3 + 3 + 1 + 1 + 3
    assert counts["semantic_positive"] == 11
    assert counts["semantic_negative"] == 11
    pos = store.set_mask("semantic_positive")
    assert np.all(store.string_entity[store.left[pos]] == store.string_entity[store.right[pos]])
    neg = store.set_mask("semantic_negative")
    assert np.all(store.string_entity[store.left[neg]] != store.string_entity[store.right[neg]])
    assert all(a != b for a, b in zip(names[store.left[neg]], names[store.right[neg]]))
    assert np.all(store.label[pos] == 1) and np.all(store.label[neg] == 0)
    # the same variant pairs once per measure, labelled with that measure
    assert counts["variant_jaccard3"] == counts["variant_levenshtein"] == counts["variant_jaro_winkler"] > 0
    scorers = {"levenshtein": Levenshtein.normalized_similarity, "jaro_winkler": JaroWinkler.normalized_similarity, "jaccard3": jaccard3}
    for prefix in ("variant", "family"):
        for measure, scorer in scorers.items():
            mask = store.set_mask(f"{prefix}_{measure}")
            for a, b, label in zip(names[store.left[mask]], names[store.right[mask]], store.label[mask]):
                assert label == pytest.approx(scorer(a.casefold(), b.casefold()), abs=1e-6)
                assert 0.0 <= label <= 1.0
    variant = store.set_mask("variant_levenshtein")
    pairs = set(zip(names[store.left[variant]].tolist(), names[store.right[variant]].tolist()))
    assert ("FOX P2", "FOXP2") in pairs and ("Ras", "RAS") in pairs and ("PLCγ2", "PLCgamma2") in pairs
    # a variant that is itself a reference name re-uses that string (no new string)
    assert ("PLCγ2", "PLC-gamma-2") in pairs and ("IKK-epsilon", "IKKε") in pairs
    new = store.strings[store.string_entity == -1].tolist()
    assert "PLC-gamma-2" not in new and "IKKε" not in new and "FOXP2" in new
    assert store.string_entity[: len(REFERENCE)].tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4]
    # family pairs: names of two different entities of one family
    fam = store.set_mask("family_jaccard3")
    ents = {(int(a), int(b)) for a, b in zip(store.string_entity[store.left[fam]], store.string_entity[store.right[fam]])}
    assert ents and all({a, b} in ({0, 2}, {1, 3}) for a, b in ents)
    assert stats["pairs"] == counts


def test_deterministic_under_seed(reference):
    a, _ = build_pair_store(*reference, seed=7)
    b, _ = build_pair_store(*reference, seed=7)
    for attr in ("left", "right", "label", "set_id"):
        assert np.array_equal(getattr(a, attr), getattr(b, attr))
    assert a.strings.tolist() == b.strings.tolist()


def test_positive_cap_keeps_every_name():
    row_entity = np.zeros(30, dtype=np.int32)  # one entity with 30 names: 435 pairs
    order, start, count = _entity_groups(row_entity, 1)
    left, right = semantic_positives(order, start, count, cap=50, rng=np.random.default_rng(0))
    assert left.size == 50
    assert set(left.tolist()) | set(right.tolist()) == set(range(30))
    left, right = semantic_positives(order, start, count, cap=10, rng=np.random.default_rng(0))
    assert left.size == 29  # the star from the first name is never cut


def test_missing_reference(tmp_path):
    with pytest.raises(DataFileError, match="file not found"):
        build_pair_store(tmp_path / "none.tsv.gz", tmp_path / "fam.tsv")


def test_case_variants_are_labelled_on_casefolded_strings(reference):
    store, _ = build_pair_store(*reference, seed=1)
    names = store.strings
    mask = store.set_mask("variant_levenshtein")
    pairs = list(zip(names[store.left[mask]], names[store.right[mask]], store.label[mask]))
    case_only = [(a, b, y) for a, b, y in pairs if a != b and a.casefold() == b.casefold()]
    assert case_only, "the fixture should produce pure case variants"
    assert all(y == 1.0 for _, _, y in case_only)
    strict, _ = build_pair_store(*reference, seed=1, casefold_labels=False)
    mask = strict.set_mask("variant_levenshtein")
    assert min(strict.label[mask]) < 1.0


def test_short_form_sets(tmp_path):
    ref = tmp_path / "ref.tsv"
    rows = [
        ("UniProt:Q9H492", "Autophagy-related protein LC3 A"),
        ("UniProt:Q9H492", "MAP1LC3A"),
        ("UniProt:Q9GZQ8", "Autophagy-related protein LC3 B"),
        ("UniProt:Q9GZQ8", "MAP1LC3B"),
        ("UniProt:Q7Z3C6", "ATG9A"),
        ("UniProt:Q674R7", "ATG9B"),
        ("UniProt:P51572", "ACVR1"),
        ("UniProt:P36896", "ACVR1B"),
    ]
    ref.write_text("kb_id\tname\tkind\n" + "".join(f"{e}\t{n}\talternative\n" for e, n in rows))
    plain, stats = build_pair_store(ref, tmp_path / "none.tsv", seed=0)
    assert "short_stem" not in plain.set_names and stats["settings"]["stem_label"] is None
    store, stats = build_pair_store(ref, tmp_path / "none.tsv", seed=0, short_forms=True, stem_label=0.8)
    names = store.strings
    pairs = {
        name: {(a, b, float(label)) for a, b, label in zip(names[store.left[m]].tolist(), names[store.right[m]].tolist(), store.label[m])}
        for name in ("short_symbol", "short_stem")
        for m in [store.set_mask(name)]
    }
    assert ("Autophagy-related protein LC3 A", "LC3 A", 1.0) in pairs["short_symbol"]
    assert ("Autophagy-related protein LC3 B", "LC3", 0.800000011920929) in pairs["short_stem"]
    assert ("MAP1LC3A", "MAP1LC3", 0.800000011920929) in pairs["short_stem"]
    assert ("ATG9A", "ATG9", 0.800000011920929) in pairs["short_stem"]
    assert not any(b == "ACVR1" for _, b, _ in pairs["short_stem"])  # a protein of its own
    # a short form is a new string of no entity: it takes no part in the in-batch loss
    assert store.string_entity[names.tolist().index("LC3")] == -1
    assert stats["pairs"]["short_stem"] == len(pairs["short_stem"])
    with pytest.raises(ValueError, match="stem_label"):
        build_pair_store(ref, tmp_path / "none.tsv", short_forms=True, stem_label=1.5)
