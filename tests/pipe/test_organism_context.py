"""The organism context of a text's mentions (`spacy_nseen.pipe.organism_context`)."""
from spacy_nseen.organisms.assign import OrganismAssigner, SpanOrganism
from spacy_nseen.pipe.organism_context import organism_confidence, organism_contexts

TEXT = "In mouse liver, Cdc42 and ATP."


def test_the_confidence_is_the_assigned_taxon_share_of_the_evidence():
    assert organism_confidence(SpanOrganism(taxon=10090, scores={10090: 3.0, 9606: 1.0, 1: -2.0}, evidence=[])) == 0.75
    assert organism_confidence(SpanOrganism(taxon=None, scores={9606: 1.0}, evidence=[])) == 0.0


def test_only_mentions_of_sets_with_taxa_get_a_context():
    found = organism_contexts(TEXT, [(16, 21), (26, 29)], [True, False], OrganismAssigner())
    assert found.organisms and found.organisms[0] == 10090
    assert found.mentions[0].context.taxon == 10090 and found.mentions[0].evidence
    assert found.mentions[1] == (None, None)
    none = organism_contexts(TEXT, [(16, 21)], [True], None)
    assert none.organisms is None and none.mentions[0].context is None
