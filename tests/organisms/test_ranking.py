"""The organism signal: a multi-organism reference set, ranking by the assigned organism, restriction."""
from pathlib import Path

import numpy
import pytest
from multi_organism_rows import HUMAN, MOUSE, ROWS, TAXA, YEAST
from thinc.api import Model

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker, LinkerSettings
from spacy_nseen.organisms.ranking import OrganismContext, allowed_mask, organism_match
from spacy_nseen.reference.reference_set import ReferenceSet


@pytest.fixture(scope="module")
def multi_reference() -> ReferenceSet:
    return ReferenceSet.from_rows(ROWS, TAXA)


@pytest.fixture(scope="module")
def multi_linker(toy_encoder: Model, multi_reference: ReferenceSet) -> KnowledgeBaseLinker:
    return KnowledgeBaseLinker.build("uniprot", toy_encoder, multi_reference, n_trees=5, seed=0)


def test_taxa_round_trip_through_tsv_and_arrays(multi_reference: ReferenceSet, tmp_path: Path) -> None:
    path = tmp_path / "multi.tsv.gz"
    multi_reference.to_tsv(path)
    again = ReferenceSet.from_tsv(path)
    assert again.taxa == [HUMAN, MOUSE, YEAST]
    assert again.taxon_of("UniProt:P02340") == MOUSE
    assert ReferenceSet.from_arrays(again.to_arrays()).taxon_of("UniProt:P19073") == YEAST


def test_single_organism_set_has_no_taxa(toy_reference: ReferenceSet) -> None:
    assert toy_reference.entity_taxa is None and toy_reference.taxa == []
    assert "entity_taxa" not in toy_reference.to_arrays()


def test_bad_taxon_is_an_error_naming_the_line(tmp_path: Path) -> None:
    from spacy_nseen.errors import ArtifactError

    path = tmp_path / "bad.tsv"
    path.write_text("kb_id\tname\tkind\ttaxon\nUniProt:X\tfoo\tname\tmouse\n", encoding="utf8")
    with pytest.raises(ArtifactError, match="line 2"):
        ReferenceSet.from_tsv(path)


def test_orthologs_resolve_to_the_assigned_organism(multi_linker: KnowledgeBaseLinker) -> None:
    mouse = OrganismContext(MOUSE, 0.9)
    yeast = OrganismContext(YEAST, 0.9)
    human = OrganismContext(HUMAN, 0.9)
    got = multi_linker.link(["Cdc42", "Cdc42", "Cdc42", "Cellular tumor antigen p53"], top_k=3, organisms=[mouse, yeast, human, mouse])
    assert got[0][0].kb_id == "UniProt:P60766"
    assert got[1][0].kb_id == "UniProt:P19073"
    assert got[2][0].kb_id == "UniProt:P60953"
    assert got[3][0].kb_id == "UniProt:P02340"


def test_weak_evidence_only_breaks_ties_among_exact_matches(multi_linker: KnowledgeBaseLinker) -> None:
    weak = OrganismContext(YEAST, 0.1)  # below organism_min_confidence: no rank among exact matches of its own
    plain = multi_linker.link(["Cdc42"], top_k=3)[0]
    hinted = multi_linker.link(["Cdc42"], top_k=3, organisms=[weak])[0]
    exact = {"UniProt:P60953", "UniProt:P60766", "UniProt:P19073"}
    assert {c.kb_id for c in plain} == {c.kb_id for c in hinted} == exact
    assert all(c.score == 1.0 for c in plain + hinted)
    # the three names read the same to a case-folding encoder (`Cdc42`, `CDC42`): only the weak bonus tells them apart
    assert hinted[0].kb_id == "UniProt:P19073"


def test_restriction_drops_other_organisms(multi_linker: KnowledgeBaseLinker) -> None:
    only_human = OrganismContext(None, 0.0, frozenset({HUMAN}))
    got = multi_linker.link(["Trp53", "Cdc42"], top_k=5, organisms=[only_human, only_human])
    assert all(multi_linker.reference_set.taxon_of(c.kb_id) == HUMAN for cands in got for c in cands)
    # `Trp53` matches only the mouse entry exactly; restricted to human it is searched and still linked
    assert got[0] and got[0][0].kb_id == "UniProt:P04637"


def test_cache_keeps_contexts_apart(multi_linker: KnowledgeBaseLinker) -> None:
    linker = multi_linker.with_settings(LinkerSettings())
    first = linker.link(["Cdc42"], organisms=[OrganismContext(MOUSE, 1.0)])[0][0].kb_id
    second = linker.link(["Cdc42"], organisms=[OrganismContext(YEAST, 1.0)])[0][0].kb_id
    assert (first, second) == ("UniProt:P60766", "UniProt:P19073")


def test_contexts_must_match_mentions(multi_linker: KnowledgeBaseLinker) -> None:
    with pytest.raises(ValueError, match="organism contexts"):
        multi_linker.link(["Cdc42", "TP53"], organisms=[None])


def test_linker_directory_keeps_taxa(multi_linker: KnowledgeBaseLinker, tmp_path: Path) -> None:
    multi_linker.to_disk(tmp_path / "linker")
    loaded = KnowledgeBaseLinker.from_disk(tmp_path / "linker", encoder=multi_linker.encoder)
    assert loaded.reference_set.taxa == [HUMAN, MOUSE, YEAST]
    assert loaded.link(["Cdc42"], organisms=[OrganismContext(YEAST, 1.0)])[0][0].kb_id == "UniProt:P19073"


def test_signal_functions() -> None:
    taxa = numpy.asarray([HUMAN, MOUSE, YEAST], dtype=numpy.int32)
    entities = numpy.asarray([0, 1, 2, 1])
    bonus, confident = organism_match(taxa, entities, OrganismContext(MOUSE, 0.5), 0.3)
    assert bonus.tolist() == [0.0, 0.5, 0.0, 0.5] and confident.tolist() == [0, 1, 0, 1]
    assert allowed_mask(taxa, entities, OrganismContext(allowed=frozenset({HUMAN, YEAST}))).tolist() == [True, False, True, False]
    assert allowed_mask(None, entities, OrganismContext(allowed=frozenset({HUMAN}))) is None
    with pytest.raises(ValueError):
        OrganismContext(MOUSE, 1.5)
