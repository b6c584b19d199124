"""training.evaluation.evaluate with organism evidence: occurrences linked with their organism, per-organism Hits@1."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from multi_organism_rows import MOUSE, ROWS, TAXA, YEAST  # noqa: E402

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker  # noqa: E402
from spacy_nseen.organisms.ranking import OrganismContext  # noqa: E402
from spacy_nseen.reference.reference_set import ReferenceSet  # noqa: E402
from training.common.bioid import Mention, Query  # noqa: E402
from training.evaluation.evaluate import LinkerRanker, evaluate_rankers  # noqa: E402


def query(text: str, gold: str, caption: str) -> Query:
    mention = Mention("train", "PMC1", caption, "a1", 0, len(text), text, "protein", (gold,))
    return Query(text, frozenset({gold}), mention)


@pytest.fixture(scope="module")
def multi_linker(toy_encoder) -> KnowledgeBaseLinker:
    return KnowledgeBaseLinker.build("uniprot", toy_encoder, ReferenceSet.from_rows(ROWS, TAXA), n_trees=5, seed=0)


def test_organism_evidence_moves_occurrences_and_is_broken_down(multi_linker: KnowledgeBaseLinker) -> None:
    queries = [query("Cdc42", "UniProt:P19073", "c1"), query("Cdc42", "UniProt:P60766", "c2")]
    contexts = {"c1": OrganismContext(YEAST, 1.0), "c2": OrganismContext(MOUSE, 1.0)}
    labels = {"UniProt:P19073": "yeast", "UniProt:P60766": "mouse"}
    rankers = [LinkerRanker(multi_linker), LinkerRanker(multi_linker, name="nseen_species_blind", organisms=False)]
    results = evaluate_rankers(queries, set(TAXA), rankers, ks=(1,),
                               organism_of=lambda q: contexts[q.mention.caption_id],
                               gold_taxon=lambda q: labels[next(iter(q.gold))],
                               taxon_of=multi_linker.reference_set.taxon_of)
    aware, blind = results["systems"]["nseen"], results["systems"]["nseen_species_blind"]
    # the misses of the organism-aware linker are broken down by cause (none here); the species-blind one has none
    assert aware["miss_causes"]["misses"] == 0 and aware["miss_causes"]["occurrences"] == 2
    assert "miss_causes" not in blind
    assert aware["per_occurrence"]["hits@1"] == 1.0
    # one string, one answer for both organisms: right for one of them at most (the human CDC42, which a
    # case-folding encoder reads as the same name, may be that answer)
    assert blind["per_occurrence"]["hits@1"] in (0.0, 0.5)
    assert aware["per_organism_hits@1"] == {"mouse": {"queries": 1, "hits@1": 1.0}, "yeast": {"queries": 1, "hits@1": 1.0}}


def test_organisms_follow_their_mentions_across_link_chunks(multi_linker: KnowledgeBaseLinker, monkeypatch) -> None:
    import training.evaluation.evaluate as evaluate

    monkeypatch.setattr(evaluate, "LINK_CHUNK", 1)
    ranked = LinkerRanker(multi_linker).rank(["Cdc42", "Cdc42"], 1, organisms=[OrganismContext(YEAST, 1.0), OrganismContext(MOUSE, 1.0)])
    assert ranked == [["UniProt:P19073"], ["UniProt:P60766"]]
