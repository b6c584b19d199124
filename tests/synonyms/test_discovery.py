import math

from spacy.util import registry

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.synonyms.combination import ScoreCombiner
from spacy_nseen.synonyms.context_layer import ARCHITECTURE, set_word_vocab
from spacy_nseen.synonyms.contexts import ContextCollector
from spacy_nseen.synonyms.discovery import DiscoverySettings, SynonymScorer, discover, entity_contexts, query_mentions
from spacy_nseen.synonyms.name_lookup import NameLookup
from spacy_nseen.synonyms.word_vocab import WordVocab

TEXTS = [
    ("d1", "Oncogenic HRAS drives growth of the cells.", ["HRAS"]),
    ("d2", "Oncogenic HRAS1 drives growth of the cells.", ["HRAS1"]),
    ("d3", "Mutant HRAS1 was expressed in the cells.", ["HRAS1"]),
    ("d4", "FOXP2 binds DNA in neurons.", ["FOXP2"]),
    ("d5", "FOXP2 binds DNA in neurons again.", ["FOXP2"]),
]


def stats():
    collector = ContextCollector(max_contexts=4)
    for doc_id, text, mentions in TEXTS:
        entities = [{"start": text.index(m), "end": text.index(m) + len(m), "text": m, "label": "PROTEIN",
                     "kb_id": None, "kb_score": None, "kb_candidates": None} for m in mentions]
        collector.add_record({"id": doc_id, "text": text, "entities": entities})
    return collector.finish()


def test_queries_are_frequent_mentions_that_name_no_entity(toy_linker: KnowledgeBaseLinker) -> None:
    lookup = NameLookup(toy_linker.reference_set)
    assert query_mentions(stats(), lookup, {"PROTEIN"}, DiscoverySettings(min_mentions=2)) == ["HRAS1"]
    assert query_mentions(stats(), lookup, {"CHEMICAL"}, DiscoverySettings(min_mentions=1)) == []


def test_discover_proposes_an_entity_with_scores_and_examples(toy_linker: KnowledgeBaseLinker) -> None:
    corpus = stats()
    lookup = NameLookup(toy_linker.reference_set)
    vocab = WordVocab.from_texts([t for _, t, _ in TEXTS], min_count=1)
    layer = registry.architectures.get(ARCHITECTURE)(n_words=vocab.size, word_width=8, hidden_width=4, window=5)
    set_word_vocab(layer, vocab)
    contexts = entity_contexts(corpus, lookup, {"PROTEIN"}, 6, 8)
    assert [c.doc_id for c in contexts["UniProt:P01112"]] == ["d1"]
    scorer = SynonymScorer(toy_linker, lookup, layer, ScoreCombiner(), contexts, top_k=5)
    rows = discover(corpus, scorer, "uniprot", {"PROTEIN"}, DiscoverySettings(min_mentions=2, n_examples=2))
    assert [row.mention for row in rows] == ["HRAS1"]
    row = rows[0]
    assert row.kb == "uniprot" and 0.0 < row.score < 1.0 and not math.isnan(row.string_score)
    assert row.n_mentions == 2 and row.n_documents == 2 and len(row.examples) == 2 and "[[HRAS1]]" in row.examples[0]
    assert not lookup.names_entity("HRAS1", row.kb_id)
    if row.kb_id == "UniProt:P01112":
        assert not math.isnan(row.context_score)


def test_context_weight_reorders_candidates_and_zero_keeps_the_linker_order(toy_linker: KnowledgeBaseLinker) -> None:
    lookup = NameLookup(toy_linker.reference_set)
    scorer = SynonymScorer(toy_linker, lookup, None, ScoreCombiner(), {}, top_k=5)
    candidates = scorer.candidates(["HRAS1"])
    linked = [c.kb_id for c in toy_linker.link(["HRAS1"], top_k=5)[0]]
    assert [c.kb_id for c in scorer.score([[]], candidates)[0]] == [k for k in linked if not lookup.names_entity("HRAS1", k)]
