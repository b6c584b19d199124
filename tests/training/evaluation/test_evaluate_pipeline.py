"""The end-to-end evaluation on a tiny pipeline: entity ruler → nseen_linker over the eval fixtures' linkers."""
import json
from collections import Counter
from pathlib import Path
from typing import Dict, Iterator

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin, Span

from spacy_nseen.encoder.layer import ARCHITECTURE, set_char_vocab
from spacy_nseen.encoder.vocab import CharVocab
from spacy_nseen.encoder.weights_io import read_encoder_config
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.parts.kb_loaders import linker_directory_block
from spacy_nseen.pipe.config import DEFAULT_ENCODER
from spacy_nseen.reference.reference_set import ReferenceSet
from training.common.bioid import read_captions
from training.evaluation.evaluate_pipeline import evaluate_pipeline
from training.ner.bio_tokenizer import customize_tokenizer
from training.ner.ner_corpus import caption_to_doc, parse_labels

FIX = Path(__file__).parents[2] / "fixtures" / "eval"
PATTERNS = [("PROTEIN", "AK1"), ("GENE", "AK2"), ("CHEMICAL", "ATP"), ("PROTEIN", "Flag"), ("GENE", "Mk1"),
            ("PROTEIN", "Beta protein"), ("CHEMICAL", "water")]
# xrefs the test writer puts on spans: P00002 ~ NCBI gene:5 is right, P00001 -> 999 is wrong
XREFS = {"UniProt:P00002": "5", "UniProt:P00001": "999"}


@Language.component("test_organism_writer")
def organism_writer(doc: Doc) -> Doc:
    """Stands in for the species-aware linker: every UniProt link is human and carries the XREFS."""
    for ent in doc.ents:
        if ent.kb_id_.startswith("UniProt:"):
            ent._.kb_taxon = 9606
            if ent.kb_id_ in XREFS:
                ent._.kb_xrefs = {"NCBIGene": XREFS[ent.kb_id_]}
    return doc


@pytest.fixture(scope="module")
def linker_dirs(tmp_path_factory, new_toy_encoder) -> Dict[str, Path]:
    root = tmp_path_factory.mktemp("e2e_linkers")
    encoder = new_toy_encoder()
    references = {kb: ReferenceSet.from_tsv(FIX / f"reference_{kb}.tsv") for kb in ("uniprot", "chebi")}
    set_char_vocab(encoder, CharVocab.from_texts([n for r in references.values() for n in r.names], 160))
    for kb, reference in references.items():
        KnowledgeBaseLinker.build(kb, encoder, reference, n_trees=2).to_disk(root / kb)
    return {kb: root / kb for kb in references}


def make_pipeline(linker_dirs: Dict[str, Path], path: Path, writer: bool) -> Path:
    encoder = {**DEFAULT_ENCODER, "@architectures": ARCHITECTURE, **read_encoder_config(linker_dirs["uniprot"])}
    nlp = customize_tokenizer(spacy.blank("en"))
    ruler = nlp.add_pipe("entity_ruler")
    nlp.add_pipe("nseen_linker", config={"encoder": encoder,
                                         "kbs": {"uniprot": {"labels": ["PROTEIN", "GENE"]}, "chebi": {"labels": ["CHEMICAL"]}}})
    if writer:
        nlp.add_pipe("test_organism_writer")
    nlp.config["initialize"]["components"]["nseen_linker"] = {"kb_loaders": {k: linker_directory_block(p) for k, p in linker_dirs.items()}}
    nlp.initialize()
    ruler.add_patterns([{"label": label, "pattern": text} for label, text in PATTERNS])
    nlp.to_disk(path)
    return path


@pytest.fixture(scope="module")
def dev(tmp_path_factory) -> Dict[str, Path]:
    """The fixture captions as a dev DocBin (gold format 2) and as one made before `mentions` was stored."""
    root = tmp_path_factory.mktemp("e2e_dev")
    nlp = customize_tokenizer(spacy.blank("en"))
    docs = [caption_to_doc(nlp, cap, parse_labels("protein=PROTEIN,gene=GENE,chemical=CHEMICAL"), "expand", Counter())
            for cap in read_captions(FIX / "captions.tsv", FIX / "mentions.tsv")]
    DocBin(docs=docs, store_user_data=True).to_disk(root / "dev.spacy")
    for doc in docs:
        del doc.user_data["mentions"]
    DocBin(docs=docs, store_user_data=True).to_disk(root / "old.spacy")
    return {"new": root / "dev.spacy", "old": root / "old.spacy"}


@pytest.fixture
def span_extensions() -> Iterator[None]:
    added = [name for name in ("kb_taxon", "kb_xrefs") if not Span.has_extension(name)]
    for name in added:
        Span.set_extension(name, default=None)
    yield
    for name in added:
        Span.remove_extension(name)


def run(model: Path, dev: Path, out: Path, **options) -> Dict:
    args = dict(chebi_secondary=FIX / "chebi_secondary.tsv", equivalence=FIX / "equivalence_classes.json.gz",
                mentions=None, taxa=None, documents="all", headline=None, batch_size=8, article_context=True,
                uniprot_secondary=None)
    evaluate_pipeline(str(model), dev, out, **{**args, **options})
    return json.loads((out / "metrics.json").read_text())


def test_bioid_scores_of_a_pipeline_without_organisms(linker_dirs, dev, tmp_path: Path):
    model = make_pipeline(linker_dirs, tmp_path / "pipeline", writer=False)
    m = run(model, dev["new"], tmp_path / "out", headline=tmp_path / "headline.json")
    b = m["bioid"]
    # nseen_linker registers kb_xrefs, so both primary-id modes are scored; without xrefs they agree
    assert b["primary_modes"][0] == "kb_id" and b["linking_only"]["organism"] is None
    assert b["end_to_end"][b["primary_modes"][-1]] == b["end_to_end"]["kb_id"]
    span = b["end_to_end"]["kb_id"]["span"]
    # gold: AK1, AK2, Mk1, AK1, Beta protein, alpha kinase (+ ATP, water); exact names link right, Flag (NIL)
    # and Mk1 (out of KB) can only be wrong
    assert span["protein_gene"]["gold"] == 6 and span["chemical"]["gold"] == 2
    assert span["protein_gene"]["tp"] == 4 and span["chemical"]["tp"] == 2
    linked_pg = span["protein_gene"]["predicted"]
    assert span["all"]["p"] == round(6 / (linked_pg + 2), 4) and span["all"]["r"] == 0.75
    lo = b["linking_only"]
    # 7 UniProt gold spans... alpha kinase is reached by the class only if its name is known: it is not
    u = lo["uniprot_all_gold"]
    assert u["spans"] == 6 and u["spans_in_kb"] == 5
    assert lo["nil"]["mentions"] == 1 and lo["nil"]["share"] in (0.0, 1.0)
    headline = json.loads((tmp_path / "headline.json").read_text())
    assert headline["e2e_precision"]["value"] == span["all"]["p"]
    assert headline["uniprot_all_gold_linking_only"]["value"] == u["share"]
    assert headline["nil_unlinked_share"]["command"].startswith("python -m training.evaluation.evaluate_pipeline")
    assert "Bio-ID scoring" in (tmp_path / "out" / "metrics.md").read_text()


def test_old_docbin_needs_the_mentions_file(linker_dirs, dev, tmp_path: Path):
    model = make_pipeline(linker_dirs, tmp_path / "pipeline", writer=False)
    with pytest.raises(SystemExit):
        run(model, dev["old"], tmp_path / "old")
    old = run(model, dev["old"], tmp_path / "old", mentions=FIX / "mentions.tsv")
    new = run(model, dev["new"], tmp_path / "new")
    assert old["bioid"] == new["bioid"]


def test_documents_halves_and_headline_only_for_all(linker_dirs, dev, tmp_path: Path):
    model = make_pipeline(linker_dirs, tmp_path / "pipeline", writer=False)
    odd = run(model, dev["new"], tmp_path / "odd", documents="odd")   # P001
    even = run(model, dev["new"], tmp_path / "even", documents="even")  # P002
    assert odd["n_docs"] == even["n_docs"] == 1
    gold = [m["bioid"]["end_to_end"]["kb_id"]["span"]["all"]["gold"] for m in (odd, even)]
    assert gold == [5, 3]
    with pytest.raises(Exception, match="documents all"):
        run(model, dev["new"], tmp_path / "x", documents="odd", headline=tmp_path / "h.json")


def test_organisms_and_primary_id_modes(linker_dirs, dev, tmp_path: Path, span_extensions):
    model = make_pipeline(linker_dirs, tmp_path / "pipeline", writer=True)
    taxa = tmp_path / "taxa.tsv"
    taxa.write_text("kb_id\ttaxon_id\nUniProt:P00001\t9606\nUniProt:P00002\t10090\nUniProt:P00003\t9606\n")
    m = run(model, dev["new"], tmp_path / "out", taxa=taxa)
    b = m["bioid"]
    assert b["primary_modes"] == ["kb_id", "ncbigene"]
    by_uniprot = b["end_to_end"]["kb_id"]["span"]["protein_gene"]
    by_gene = b["end_to_end"]["ncbigene"]["span"]["protein_gene"]
    # AK2 (GENE) -> NCBIGene:5 stays right through the class; no GENE span is linked to P00001
    assert by_uniprot["tp"] == by_gene["tp"] == 4
    org = b["linking_only"]["organism"]
    # gold: AK1, AK1, Beta protein human (written 9606: right); AK2, alpha kinase mouse (written 9606: wrong)
    assert org["spans_gold_covered"] == 5 and org["accuracy_covered"] == 0.6
    assert org["table"]["10090"]["9606"] == 2 and org["table"]["9606"]["9606"] == 3
    report = (tmp_path / "out" / "metrics.md").read_text()
    assert "Organism assignment on gold UniProt spans" in report
    # every gold UniProt span counted once by cause and gold organism: 3 human, 2 mouse
    causes = b["linking_only"]["uniprot_miss_causes"]
    by_organism = {o: sum(c["gold_organism"][o] for c in causes.values()) for o in ("human", "mouse")}
    assert by_organism == {"human": 3, "mouse": 2}
    assert "| outcome | human | mouse | rat | yeast | E. coli | several | other/unknown |" in report
