"""nseen_linker with a multi-organism reference set: organism assignment, restriction, NIL model, xrefs."""
from pathlib import Path
from typing import Dict

import pytest
import spacy
from multi_organism_rows import HUMAN, MOUSE, ROWS, TAXA, YEAST
from spacy.tokens import Doc
from thinc.api import Model

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.linker.nil_decision import FEATURES, NilModel
from spacy_nseen.parts.kb_loaders import linker_directory_block
from spacy_nseen.parts.legacy import upgrade_linker_config
from spacy_nseen.reference.reference_set import ReferenceSet


@pytest.fixture(scope="module")
def multi_dir(toy_encoder: Model, tmp_path_factory) -> Path:
    linker = KnowledgeBaseLinker.build("uniprot", toy_encoder, ReferenceSet.from_rows(ROWS, TAXA), n_trees=5, seed=0)
    linker.xrefs = {"UniProt:P04637": {"NCBIGene": "7157"}}
    path = tmp_path_factory.mktemp("multi") / "uniprot"
    linker.to_disk(path)
    return path


@pytest.fixture
def make_nlp(multi_dir: Path, toy_encoder_block: Dict[str, object]):
    """A blank pipeline with an initialised nseen_linker over the multi-organism toy linker."""

    def make(**config) -> spacy.language.Language:
        return build_nlp(multi_dir, toy_encoder_block, **config)

    return make


def build_nlp(multi_dir: Path, block: Dict[str, object], **config) -> spacy.language.Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_linker", config=upgrade_linker_config({"kbs": {"PROTEIN": "uniprot", "GENE": "uniprot"}, "encoder": block, **config}))
    nlp.config["initialize"]["components"]["nseen_linker"] = {"kb_loaders": {"uniprot": linker_directory_block(multi_dir)}}
    nlp.initialize()
    return nlp


def protein_doc(nlp, text: str, mention: str, label: str = "PROTEIN") -> Doc:
    doc = nlp.make_doc(text)
    start = text.index(mention)
    doc.ents = [doc.char_span(start, start + len(mention), label=label)]
    return doc


def test_caption_organism_decides_between_orthologs(make_nlp) -> None:
    nlp = make_nlp()
    yeast = nlp(protein_doc(nlp, "Cdc42 localisation in budding yeast cells.", "Cdc42"))
    mouse = nlp(protein_doc(nlp, "Cdc42 in MEFs from knockout mice.", "Cdc42"))
    assert yeast.ents[0]._.kb_id == "UniProt:P19073" and yeast.ents[0]._.kb_taxon == YEAST
    assert mouse.ents[0]._.kb_id == "UniProt:P60766" and mouse.ents[0]._.kb_taxon == MOUSE
    assert yeast.ents[0]._.kb_taxon_evidence and yeast._.organisms[0] == YEAST


def test_user_given_organisms_and_restriction(make_nlp) -> None:
    nlp = make_nlp()
    doc = protein_doc(nlp, "Cdc42 was purified.", "Cdc42")
    doc._.organisms = [YEAST]
    assert nlp(doc).ents[0]._.kb_id == "UniProt:P19073"
    human_only = make_nlp(organisms=[HUMAN])
    doc = human_only(protein_doc(human_only, "Cdc42 in mouse brain.", "Cdc42"))
    assert doc.ents[0]._.kb_id == "UniProt:P60953"
    assert all(human_only.get_pipe("nseen_linker").linkers["uniprot"].reference_set.taxon_of(c[0]) == HUMAN
               for c in doc.ents[0]._.kb_candidates)


def test_xrefs_and_primary_xref(make_nlp) -> None:
    nlp = make_nlp()
    doc = nlp(protein_doc(nlp, "TP53 in HeLa cells.", "TP53", label="GENE"))
    assert doc.ents[0]._.kb_id == "UniProt:P04637" and doc.ents[0]._.kb_xrefs == {"NCBIGene": "7157"}
    genes = make_nlp(primary_xref={"GENE": "NCBIGene"})
    doc = genes(protein_doc(genes, "TP53 in HeLa cells.", "TP53", label="GENE"))
    assert doc.ents[0]._.kb_id == "NCBIGene:7157" and doc.ents[0].kb_id_ == "NCBIGene:7157"


def test_nil_model_probability_is_the_score_and_threshold_applies(multi_dir: Path, tmp_path: Path, toy_encoder_block) -> None:
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("bias")] = -4.0
    weights[FEATURES.index("exact")] = 8.0  # exact matches are right, everything else NIL
    path = tmp_path / "nil.json"
    NilModel(weights).to_disk(path)
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_linker", config={"kbs": {"uniprot": {"labels": ["PROTEIN"]}}, "encoder": toy_encoder_block,
                                         "decision": {"@misc": "spacy_nseen.NilDecision.v1", "threshold": 0.5}})
    nlp.config["initialize"]["components"]["nseen_linker"] = {"kb_loaders": {"uniprot": linker_directory_block(multi_dir, nil_model=path)}}
    nlp.initialize()
    exact = nlp(protein_doc(nlp, "TP53 levels.", "TP53")).ents[0]
    tag = nlp(protein_doc(nlp, "Flag-tagged constructs.", "Flag")).ents[0]
    assert exact._.kb_id == "UniProt:P04637" and exact._.kb_score > 0.9
    assert tag._.kb_id is None and tag._.kb_score < 0.5 and tag._.kb_candidates and tag.kb_id_ == ""
    # the NIL model is saved with the pipeline and restored by spacy.load
    nlp.to_disk(tmp_path / "pipeline")
    again = spacy.load(tmp_path / "pipeline")
    assert again.get_pipe("nseen_linker").linkers["uniprot"].nil_model.weights == weights
    assert again(protein_doc(again, "Flag-tagged constructs.", "Flag")).ents[0]._.kb_id is None


def test_organism_settings_are_validated(make_nlp) -> None:
    with pytest.raises(ValueError, match="organisms -> no_such_weight"):
        make_nlp(organisms={"@misc": "spacy_nseen.OrganismAssigner.v1", "no_such_weight": 1.0})
    with pytest.raises(ValueError, match="organisms: allowed must be NCBI taxon ids"):
        make_nlp(organisms={"@misc": "spacy_nseen.OrganismAssigner.v1", "allowed": [-1]})
    with pytest.raises(ValueError, match="organisms: allowed must be NCBI taxon ids"):
        make_nlp(organisms=[-1])  # 0.1.0's list, upgraded


def test_the_figure_panels_of_a_split_caption_are_read(make_nlp) -> None:
    nlp = make_nlp()
    alone = nlp(protein_doc(nlp, "C, Cdc42 was purified.", "Cdc42")).ents[0]
    doc = protein_doc(nlp, "C, Cdc42 was purified.", "Cdc42")
    doc._.figure_texts = ["A, Budding yeast cells.", "B, yeast strains."]
    ent = nlp(doc).ents[0]
    assert alone._.kb_taxon != YEAST
    assert ent._.kb_taxon == YEAST and ent._.kb_id == "UniProt:P19073"
    assert any("figure" in e for e in ent._.kb_taxon_evidence)


def test_a_name_cut_from_a_token_reads_the_organism_of_the_token(make_nlp) -> None:
    # what nseen_glued_names leaves: `Cdc42` split off `yCdc42`, the cut recorded in doc._.nseen_cut_tokens
    from spacy_nseen.ner.glued_names import CUT_TOKENS

    if not Doc.has_extension(CUT_TOKENS):  # the component registers it; here no component ran
        Doc.set_extension(CUT_TOKENS, default=None)
    nlp = make_nlp()
    text = "Cdc42 in MEFs from knockout mice. A complementation assay with yCdc42."
    doc = nlp.make_doc(text)
    start = text.index("yCdc42") + 1
    with doc.retokenize() as retokenizer:
        token = doc.char_span(start - 1, start + 5)[0]
        retokenizer.split(token, ["y", "Cdc42"], heads=[(token, 1), (token, 1)])
    doc.ents = [doc.char_span(0, 5, label="PROTEIN"), doc.char_span(start, start + 5, label="PROTEIN")]
    doc._.set(CUT_TOKENS, [[start, start + 5, "yCdc42"]])
    mouse, yeast = nlp(doc).ents
    assert mouse._.kb_taxon == MOUSE and mouse._.kb_id == "UniProt:P60766"
    assert yeast._.kb_taxon == YEAST and yeast._.kb_id == "UniProt:P19073"
    assert yeast._.kb_taxon_evidence[0] == "prefix 'y' in 'yCdc42' → 559292"
