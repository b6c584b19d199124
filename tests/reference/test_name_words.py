from spacy_nseen.reference.name_words import NameWords, contains_words, words
from spacy_nseen.reference.reference_set import ReferenceSet


def test_words_are_casefolded_runs_of_letters_and_digits():
    assert words("MAP kinase p38-alpha (MXI2)") == ["map", "kinase", "p38", "alpha", "mxi2"]
    assert words("Aβ") == ["aβ"]
    assert words("--") == []


def test_contains_words_needs_a_longer_name_and_consecutive_words():
    assert contains_words(["map", "kinase", "p38", "alpha"], ["p38"])
    assert contains_words(["histone", "h3", "lysine"], ["histone", "h3"])
    assert not contains_words(["p38"], ["p38"])  # the mention itself is not a longer name
    assert not contains_words(["h3", "histone", "x"], ["histone", "h3"])  # order matters
    assert not contains_words(["p38alpha", "kinase"], ["p38"])  # whole words only
    assert not contains_words(["a", "b"], [])


def test_longer_name_entities_reads_only_each_entitys_own_names():
    reference = ReferenceSet.from_rows([
        ("B:1", "40S ribosomal protein S6", "recommended"), ("A:0", "S6", "hgnc_alias"), ("B:1", "S6", "hgnc_alias"),
        ("A:0", "26S proteasome regulatory subunit 6B", "recommended"),
    ])
    found = NameWords(reference)
    a, b = reference.entity_index("A:0"), reference.entity_index("B:1")
    assert sorted(found.rows_of(b).tolist()) == [0, 2]
    assert found.longer_name_entities([a, b], "S6") == {b} and found.longer_name_entities([a, b], "s6") == {b}
    assert found.longer_name_entities([a], "S6") == set()
    assert found.longer_name_entities([b], "") == set() and found.longer_name_entities([b], "—") == set()


def test_a_name_of_a_related_molecule_does_not_count():
    from spacy_nseen.reference.name_words import names_the_mention

    mention = words("PTB")
    assert not names_the_mention("PTB-like protein", "PTB", mention)  # relational head: PTBP2
    assert not names_the_mention("Neurally-enriched homolog of PTB", "PTB", mention)  # after "of"
    assert names_the_mention("Polypyrimidine tract-binding protein PTB", "PTB", mention)
    assert not contains_words(["similar", "to", "ptb"], mention)
    reference = ReferenceSet.from_rows([
        ("A:1", "PTB", "hgnc_alias"), ("A:1", "Polypyrimidine tract-binding protein 1", "recommended"),
        ("B:2", "PTB", "hgnc_alias"), ("B:2", "PTB-like protein", "alternative"),
    ])
    found = NameWords(reference)
    assert found.longer_name_entities([reference.entity_index("B:2")], "PTB") == set()


def test_each_answer_is_read_once_per_entity_and_mention(monkeypatch):
    import spacy_nseen.reference.name_words as module

    reference = ReferenceSet.from_rows([
        ("B:1", "40S ribosomal protein S6", "recommended"), ("A:0", "S6", "hgnc_alias"), ("B:1", "S6", "hgnc_alias"),
    ])
    found = NameWords(reference)
    a, b = reference.entity_index("A:0"), reference.entity_index("B:1")
    assert found.longer_name_entities([a, b], "S6") == {b}
    monkeypatch.setattr(module, "names_the_mention", lambda *args: True)  # would now say yes to every name
    assert found.longer_name_entities([b, a], "S6") == {b}  # the answers kept
    assert found.longer_name_entities([a], "s") == {a}  # a new mention is read
    monkeypatch.setattr(module, "MAX_ANSWERS", 1)
    found.longer_name_entities([a, b], "protein")
    assert len(found._answers) == 1


def test_discovered_names_are_not_read():
    reference = ReferenceSet.from_rows([("E:1", "p38", "synonym"), ("E:2", "p38", "synonym")])
    grown = reference.with_names([1, 0], ["p38 kinase X", "MAP kinase p38 alpha"], ["discovered", "alternative"])
    assert NameWords(grown).longer_name_entities([0, 1], "p38") == {0}
