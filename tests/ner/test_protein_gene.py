"""`nseen_protein_gene`: PROTEIN or GENE by the caption's context, trained through spaCy's update loop."""
import json

import numpy
import pytest
import spacy
from spacy.tokens import Span
from spacy.training import Example

from spacy_nseen.errors import ArtifactError
from spacy_nseen.ner.protein_gene import (
    GENE,
    PROTEIN,
    SETTINGS_FILE,
    WEIGHTS_FILE,
    ProteinGeneLabeler,
    entity_features,
    hashed,
    word_shape,
)
from spacy_nseen.retrieval.array_io import save_npz

GENE_CONTEXTS = ["Cells were transfected with siRNA against {} for 48 h.", "{} mRNA levels were measured by qPCR.",
                 "MEFs from {} knockout mice were used.", "Knockdown of {} by shRNA reduced growth."]
PROTEIN_CONTEXTS = ["Immunoblot of {} in lysates with an anti-actin control.", "{} puncta were counted per cell.",
                    "Cells were stained with an antibody against {} protein.", "Western blot of phosphorylated {}."]
NAMES = ["Atg5", "Becn1", "Ulk1", "Sqstm1", "Tfeb", "Rab7", "Lamp2", "Pik3c3"]


def _doc(nlp, template: str, name: str, label: str):
    doc = nlp.make_doc(template.format(name))
    start = doc.text.index(name)
    doc.ents = [doc.char_span(start, start + len(name), label=label)]
    return doc


def _examples(nlp):
    docs = [_doc(nlp, t, n, GENE) for t in GENE_CONTEXTS for n in NAMES]
    docs += [_doc(nlp, t, n, PROTEIN) for t in PROTEIN_CONTEXTS for n in NAMES]
    return [Example(nlp.make_doc(d.text), d) for d in docs]


@pytest.fixture
def trained():
    nlp = spacy.blank("en")
    labeler = nlp.add_pipe("nseen_protein_gene", config={"n_features": 4096, "margin": 0.2})
    examples = _examples(nlp)
    nlp.initialize(lambda: examples)
    for _ in range(8):
        nlp.update(examples)  # spaCy's own update loop calls the component's update
    return nlp, labeler


def test_features_read_the_entity_its_neighbours_and_the_caption():
    nlp = spacy.blank("en")
    doc = nlp("siRNA against Atg5 reduced LC3 puncta")
    features = entity_features(doc, 2, 3)
    assert {"m=atg5", "shape=Xxxd", "case=title", "L1=against", "L2=sirna", "R1=reduced", "L12=sirna|against",
            "rw=puncta", "cw=lc3", "ntok=1"} <= set(features)
    assert word_shape("LC3-IIIII") == "XXd-XX" and word_shape("p62") == "xdd"
    columns = hashed(features, 64)
    assert columns.dtype == numpy.int64 and columns.min() >= 0 and columns.max() < 64
    assert hashed(features, 64).tolist() == columns.tolist()  # stable (CRC-32, not Python's salted hash)


def test_an_untrained_labeler_changes_nothing():
    nlp = spacy.blank("en")
    labeler = nlp.add_pipe("nseen_protein_gene")
    doc = _doc(nlp, GENE_CONTEXTS[0], "Atg5", PROTEIN)
    assert [e.label_ for e in labeler(doc).ents] == [PROTEIN]


def test_trained_it_gives_the_label_of_the_context_and_keeps_the_spans(trained):
    nlp, labeler = trained
    # a name it never saw, tagged with the wrong label by "the NER"
    gene = _doc(nlp, GENE_CONTEXTS[1], "Vps34", PROTEIN)
    protein = _doc(nlp, PROTEIN_CONTEXTS[1], "Vps34", GENE)
    other = nlp.make_doc("Vps34 was imaged in HeLa cells")
    other.ents = [Span(other, 0, 1, label="PROTEIN"), Span(other, 4, 5, label="CELL")]
    out = [labeler(d) for d in (gene, protein, other)]
    assert [e.label_ for e in out[0].ents] == [GENE] and [e.label_ for e in out[1].ents] == [PROTEIN]
    assert [(e.start, e.end) for e in out[2].ents] == [(0, 1), (4, 5)] and out[2].ents[1].label_ == "CELL"
    assert labeler.gene_probability(gene, 0, 1) > 0.7 and labeler.gene_probability(protein, 0, 1) < 0.3


def test_a_relabelled_entity_keeps_its_kb_id_and_its_id(trained):
    nlp, labeler = trained
    doc = nlp.make_doc(GENE_CONTEXTS[1].format("Vps34"))
    doc.ents = [Span(doc, 0, 1, label=PROTEIN, kb_id="UniProt:Q8NEB9", span_id="ruler-7")]
    ent = labeler(doc).ents[0]
    assert (ent.label_, ent.kb_id_, ent.id_) == (GENE, "UniProt:Q8NEB9", "ruler-7")


def test_an_unsure_labeler_keeps_the_ners_label(trained):
    nlp, labeler = trained
    doc = _doc(nlp, GENE_CONTEXTS[1], "Vps34", PROTEIN)
    p = labeler.gene_probability(doc, 0, 1)
    labeler.margin = min(0.49, abs(p - 0.5) + 0.01)  # just beyond its certainty
    assert [e.label_ for e in labeler(doc).ents] == [PROTEIN]


def test_saved_and_loaded_it_predicts_the_same_and_never_unpickles(trained, tmp_path):
    nlp, labeler = trained
    nlp.to_disk(tmp_path / "nlp")
    assert json.loads((tmp_path / "nlp" / "nseen_protein_gene" / SETTINGS_FILE).read_text())["n_updates"] == labeler.n_updates
    loaded = spacy.load(tmp_path / "nlp")
    doc = _doc(nlp, GENE_CONTEXTS[2], "Vps34", PROTEIN)
    assert loaded.get_pipe("nseen_protein_gene").gene_probability(doc, 4, 5) == pytest.approx(
        labeler.gene_probability(doc, 4, 5), abs=1e-6)
    with numpy.load(tmp_path / "nlp" / "nseen_protein_gene" / WEIGHTS_FILE, allow_pickle=False) as data:
        assert data["weights"].dtype == numpy.float32


def test_a_byte_round_trip_keeps_the_weights_and_the_labels(trained):
    """Regression (issue 51): without to_bytes, `nlp.to_bytes()` dropped the weights and the copy relabelled nothing."""
    nlp, labeler = trained
    copy = spacy.util.load_model_from_config(nlp.config, auto_fill=False)
    copy.from_bytes(nlp.to_bytes())
    copied = copy.get_pipe("nseen_protein_gene")
    assert copied.n_updates == labeler.n_updates > 0
    numpy.testing.assert_array_equal(copied.weights, labeler.weights)
    for template, name, wrong in ((GENE_CONTEXTS[1], "Vps34", PROTEIN), (PROTEIN_CONTEXTS[1], "Vps34", GENE)):
        assert [e.label_ for e in copied(_doc(nlp, template, name, wrong)).ents] == \
            [e.label_ for e in labeler(_doc(nlp, template, name, wrong)).ents] != [wrong]


def test_bytes_of_another_component_or_version_are_refused(trained):
    nlp, labeler = trained
    fresh = ProteinGeneLabeler(nlp, n_features=4096)
    with pytest.raises(ValueError, match="nseen_protein_gene"):
        fresh.from_bytes(b"not msgpack at all")
    import srsly
    with pytest.raises(ValueError, match="format"):
        fresh.from_bytes(srsly.msgpack_dumps({"settings": {"format_version": 99}, "weights": b""}))
    with pytest.raises(ValueError, match="weights"):
        fresh.from_bytes(srsly.msgpack_dumps({"settings": {"format_version": 1, "n_features": 5, "margin": 0.2},
                                              "weights": b"\0" * 8}))


def test_a_missing_truncated_or_foreign_file_names_itself(trained, tmp_path):
    nlp, labeler = trained
    path = tmp_path / "pg"
    labeler.to_disk(path)
    fresh = ProteinGeneLabeler(nlp)
    (path / WEIGHTS_FILE).rename(tmp_path / "kept.npz")
    with pytest.raises(ArtifactError, match=WEIGHTS_FILE):
        fresh.from_disk(path)
    save_npz(path / WEIGHTS_FILE, {"weights": numpy.zeros(10, dtype=numpy.float32)})
    with pytest.raises(ArtifactError, match="truncated or foreign"):
        fresh.from_disk(path)
    (tmp_path / "kept.npz").replace(path / WEIGHTS_FILE)
    settings = json.loads((path / SETTINGS_FILE).read_text())
    (path / SETTINGS_FILE).write_text(json.dumps({**settings, "format_version": 99}))
    with pytest.raises(ArtifactError, match="format_version 99"):
        fresh.from_disk(path)
    (path / SETTINGS_FILE).write_text("{not json")
    with pytest.raises(ArtifactError, match=SETTINGS_FILE):
        fresh.from_disk(path)


@pytest.mark.parametrize("config", [{"n_features": 0}, {"margin": 0.5}, {"margin": -0.1}, {"learn_rate": 0.0}])
def test_bad_settings_are_refused(config):
    with pytest.raises(ValueError, match=next(iter(config))):
        spacy.blank("en").add_pipe("nseen_protein_gene", config=config)
