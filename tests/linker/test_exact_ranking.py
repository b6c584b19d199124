import numpy
import pytest

from spacy_nseen.linker.exact_ranking import (
    ALIAS_RANK,
    KIND_PRIORITIES,
    entity_priors,
    kind_classes,
    kind_ranks,
    names_per_entity,
    read_entity_prior,
)
from spacy_nseen.linker.kb_linker import KIND_PRIORITY, KnowledgeBaseLinker, LinkerSettings
from spacy_nseen.reference.reference_set import ReferenceSet

# "p62" names three entities with the same kind; B:2 has the most names, C:3 the fewest.
ROWS = [
    ("A:1", "p62", "hgnc_alias"), ("A:1", "Alpha protein", "recommended"),
    ("B:2", "p62", "hgnc_alias"), ("B:2", "Beta protein", "recommended"), ("B:2", "BETA1", "gene_primary"),
    ("B:2", "Ubiquitin-binding protein", "alternative"),
    ("C:3", "p62", "hgnc_alias"),
    ("D:4", "ZZZ9", "hgnc_previous"), ("E:5", "ZZZ9", "gene_primary"), ("F:6", "ZZZ9", "entry_mnemonic"),
]


@pytest.fixture(scope="module")
def reference():
    return ReferenceSet.from_rows(ROWS)


@pytest.fixture(scope="module")
def linker(toy_encoder, reference):
    return KnowledgeBaseLinker.build("toy", toy_encoder, reference, n_trees=2)


def test_default_table_is_the_linkers_kind_priority():
    assert KIND_PRIORITY == {k: v for k, v in KIND_PRIORITIES["default"].items() if k != "*"}
    assert kind_ranks(["recommended", "synonym", "hgnc_alias"], "default").tolist() == [0, 3, 4]


def test_hgnc_table_orders_symbol_alias_previous_mnemonic():
    ranks = kind_ranks(["gene_primary", "hgnc_alias", "gene_synonym", "hgnc_previous", "entry_mnemonic", "?"], "hgnc")
    assert ranks[0] < ranks[1] == ranks[2] < ranks[3] < ranks[4] <= ranks[5]
    assert set(kind_ranks(["recommended", "unmatched", "x"], "none").tolist()) == {0}


def test_names_per_entity(reference):
    assert names_per_entity(reference).tolist() == [2, 4, 1, 1, 1, 1]


def test_read_entity_prior(reference, tmp_path):
    path = tmp_path / "prior.tsv"
    path.write_text("kb_id\tname\tkind\tstar\nA:1\tp62\tx\t3\nA:1\tAlpha\tx\t\nC:3\tp62\tx\t2\nZ:9\tz\tx\t3\nB:2\tb\n",
                    encoding="utf8")
    assert read_entity_prior(reference, path, "star").tolist() == [3, 0, 2, 0, 0, 0]
    with pytest.raises(ValueError, match="lacks"):
        read_entity_prior(reference, path, "stars")


def test_entity_priors_errors(reference):
    assert entity_priors(reference, "score", None) is None
    with pytest.raises(ValueError, match="entity_prior"):
        entity_priors(reference, "prior", None)
    with pytest.raises(ValueError, match="values for 6 entities"):
        entity_priors(reference, "prior", numpy.zeros(2))
    with pytest.raises(ValueError, match="exact_tie_break"):
        entity_priors(reference, "popularity", None)


def test_settings_validation():
    with pytest.raises(ValueError, match="exact_kind_priority"):
        LinkerSettings(exact_kind_priority="hgnc2")
    with pytest.raises(ValueError, match="exact_tie_break"):
        LinkerSettings(exact_tie_break="random")
    settings = LinkerSettings(exact_kind_priority="hgnc", exact_tie_break="names")
    assert LinkerSettings.from_dict(settings.to_dict()) == settings


def ids(linker, mention, **changes):
    from dataclasses import replace

    twin = linker.with_settings(replace(linker.settings, **changes))
    [candidates] = twin.link([mention], top_k=3)
    return [c.kb_id for c in candidates]


def test_default_keeps_reference_order_for_equal_exact_matches(linker):
    assert ids(linker, "P62") == ["A:1", "B:2", "C:3"]


def test_names_tie_break_prefers_the_entity_with_more_names(linker):
    assert ids(linker, "P62", exact_tie_break="names") == ["B:2", "A:1", "C:3"]
    # with the short-cut off the exact matches still come first, ordered the same way
    assert ids(linker, "P62", exact_tie_break="names", exact_short_cut=False)[:3] == ["B:2", "A:1", "C:3"]


def test_prior_tie_break_uses_the_linkers_entity_prior(linker):
    from dataclasses import replace

    twin = linker.with_settings(replace(linker.settings, exact_tie_break="prior"))
    with pytest.raises(ValueError, match="entity_prior"):
        twin.link(["p62"])
    twin.entity_prior = numpy.asarray([0, 1, 3, 0, 0, 0], dtype=float)
    assert [c.kb_id for c in twin.link(["p62"], top_k=3)[0]] == ["C:3", "B:2", "A:1"]


def test_kind_priority_tables(linker):
    # default: gene_primary (1) before the unknown kinds (4), which keep the reference order
    assert ids(linker, "zzz9") == ["E:5", "D:4", "F:6"]
    assert ids(linker, "zzz9", exact_kind_priority="hgnc") == ["E:5", "D:4", "F:6"]
    assert ids(linker, "zzz9", exact_kind_priority="none") == ["D:4", "E:5", "F:6"]


def test_kind_priority_comes_before_the_entity_prior(linker):
    from dataclasses import replace

    twin = linker.with_settings(replace(linker.settings, exact_tie_break="prior", exact_kind_priority="hgnc"))
    twin.entity_prior = numpy.asarray([0, 0, 0, 1, 0, 2], dtype=float)
    assert [c.kb_id for c in twin.link(["ZZZ9"], top_k=3)[0]] == ["E:5", "D:4", "F:6"]
    none = linker.with_settings(replace(twin.settings, exact_kind_priority="none"))
    none.entity_prior = twin.entity_prior
    assert [c.kb_id for c in none.link(["ZZZ9"], top_k=3)[0]] == ["F:6", "D:4", "E:5"]


# `S6` is an alias of two entities; only H:8's longer name holds it as a word. `RPA2` is the symbol of I:9 and an
# alias of J:10, whose recommended name holds it as a word.
WORD_ROWS = [
    ("G:7", "S6", "hgnc_alias"), ("G:7", "26S proteasome regulatory subunit 6B", "recommended"),
    ("G:7", "PSMC4", "gene_primary"), ("G:7", "TBP7", "gene_synonym"), ("G:7", "MIP224", "alternative"),
    ("H:8", "S6", "hgnc_alias"), ("H:8", "40S ribosomal protein S6", "recommended"),
    ("I:9", "RPA2", "gene_primary"), ("I:9", "Replication protein A 32 kDa subunit", "recommended"),
    ("J:10", "RPA2", "gene_synonym"), ("J:10", "DNA-directed RNA polymerase I subunit RPA2", "recommended"),
    ("J:10", "POLR1B", "gene_primary"),
]


@pytest.fixture(scope="module")
def word_linker(toy_encoder):
    return KnowledgeBaseLinker.build("words", toy_encoder, ReferenceSet.from_rows(WORD_ROWS), n_trees=2)


def test_kind_classes_merge_the_aliases():
    kinds = -kind_ranks(["recommended", "gene_primary", "alternative", "hgnc_alias", "hgnc_previous", "entry_mnemonic"],
                        "hgnc")
    assert (-kind_classes(kinds)).tolist() == [0, 1, ALIAS_RANK, ALIAS_RANK, ALIAS_RANK, ALIAS_RANK]


def test_an_alias_that_is_a_word_of_a_longer_name_ranks_first(word_linker):
    # Without the name-words key, the prior (G:7 has more names) would pick PSMC4.
    assert ids(word_linker, "S6", exact_kind_priority="hgnc", exact_tie_break="names")[:2] == ["H:8", "G:7"]
    assert ids(word_linker, "s6", exact_kind_priority="hgnc", exact_tie_break="names")[:2] == ["H:8", "G:7"]


def test_a_gene_symbol_ranks_before_an_alias_of_a_longer_name(word_linker):
    assert ids(word_linker, "RPA2", exact_kind_priority="hgnc", exact_tie_break="names")[:2] == ["I:9", "J:10"]


def test_the_name_words_key_comes_before_the_kind_within_the_aliases(toy_encoder):
    # `p38` is an alternative name of K:11 (kind 2) and an HGNC alias of L:12 (kind 3), whose longer name holds it.
    rows = [("K:11", "p38", "alternative"), ("K:11", "GRB2-related adapter protein 2", "recommended"),
            ("K:11", "GRAP2", "gene_primary"), ("K:11", "GADS", "gene_synonym"),
            ("L:12", "p38", "hgnc_alias"), ("L:12", "MAP kinase p38 alpha", "alternative")]
    linker = KnowledgeBaseLinker.build("p38", toy_encoder, ReferenceSet.from_rows(rows), n_trees=2)
    assert ids(linker, "p38", exact_kind_priority="hgnc", exact_tie_break="names") == ["L:12", "K:11"]
    # the keys the fusion reads: L:12's row is the mention as a word of a longer name
    pool = [0, 4]
    keys = linker.fusion("hybrid").exact.keys(pool, {0: 2, 4: 2}, numpy.asarray([0, 1]), "p38")
    assert keys.tiers.tolist() == [2, 2] and keys.words.tolist() == [0, 1]
    assert keys.kinds.tolist() == [-2, -4]  # the linker's default kind table
