"""Extra names for a reference set before it is built: after its own names, once each, unknown ids listed."""
import numpy

from spacy_nseen.reference.extra_names import with_extra_names
from spacy_nseen.reference.reference_set import DISCOVERED_KIND, ReferenceSet

ROWS = [("E:1", "alpha", "name"), ("E:1", "Alpha one", "synonym"), ("E:2", "beta", "name")]


def test_extra_names_follow_the_names_with_their_sources_counted():
    reference = ReferenceSet.from_rows(ROWS, taxa={"E:1": 9606, "E:2": 10090})
    extra = with_extra_names(
        reference,
        [("captions", [("E:2", "B-1", "discovered"), ("E:1", "alpha", "discovered"), ("E:9", "x", "")]),
         ("abstracts", [("E:1", " a1 ", ""), ("E:2", "B-1", "discovered")])],
    )
    names = extra.reference
    assert list(names.names) == ["alpha", "Alpha one", "beta", "B-1", "a1"]
    assert names.kinds == ["name", "synonym", "name", DISCOVERED_KIND, DISCOVERED_KIND]
    assert [names.kb_ids[int(e)] for e in names.name_entity] == ["E:1", "E:1", "E:2", "E:2", "E:1"]
    numpy.testing.assert_array_equal(names.entity_taxa, reference.entity_taxa)
    assert (extra.added, extra.present, extra.unknown) == ({"captions": 1, "abstracts": 1}, 2, ["E:9"])


def test_without_extra_names_the_set_is_the_same():
    reference = ReferenceSet.from_rows(ROWS)
    extra = with_extra_names(reference, [])
    assert list(extra.reference.names) == list(reference.names) and extra.reference.kinds == reference.kinds
    assert (extra.added, extra.present, extra.unknown) == ({}, 0, [])
