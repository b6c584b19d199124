"""Helpers of the reliability suite (imported by its conftest and tests): the tiny encoder, pipelines, docs."""
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import spacy
import torch
from spacy.language import Language
from spacy.tokens import Doc, Span
from thinc.api import Model

from spacy_nseen.encoder.layer import ARCHITECTURE, build_char_bilstm_encoder
from spacy_nseen.encoder_training.siamese import TrainingSettings, train_on_reference_set
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.parts.legacy import is_legacy_config, upgrade_linker_config
from spacy_nseen.reference.reference_set import ReferenceSet

torch.set_num_threads(1)

FIXTURES = Path(__file__).parent.parent / "fixtures"
TOY_REFERENCE = FIXTURES / "toy_reference.tsv"
TOY_CHEBI = FIXTURES / "toy_chebi.tsv"
KBS = {"PROTEIN": "uniprot", "CHEMICAL": "chebi"}
# Robustness, not accuracy: the smallest encoder that still learns something. `max_length` is kept
# short so the truncation rule is easy to exercise.
TINY_ENCODER: Dict[str, object] = {
    "vocab_size": 128,
    "char_width": 16,
    "hidden_width": 16,
    "depth": 1,
    "output_width": 16,
    "dropout": 0.0,
    "pooling": "max",
    "max_length": 32,
    "batch_size": 64,
    "precision": "fp32",
}
TINY_EPOCHS = 3
SEED = 0


def build_tiny_encoder(seed: int = SEED) -> Model:
    torch.manual_seed(seed)
    return build_char_bilstm_encoder(**TINY_ENCODER)


def train_tiny_encoder(reference: ReferenceSet, seed: int = SEED, epochs: float = TINY_EPOCHS) -> Model:
    encoder = build_tiny_encoder(seed)
    train_on_reference_set(
        encoder, reference.names, reference.name_entity, epochs=epochs, settings=TrainingSettings(batch_pairs=64, seed=seed)
    )
    return encoder


def tiny_encoder_block() -> Dict[str, object]:
    """The component's [encoder] block for the tiny encoder."""
    return {"@architectures": ARCHITECTURE, **TINY_ENCODER}


@Language.component("rel_whole_doc_entity")
def whole_doc_entity(doc: Doc) -> Doc:
    """A stand-in NER: the whole doc is one PROTEIN entity (nothing when the doc has no token)."""
    doc.ents = [Span(doc, 0, len(doc), label="PROTEIN")] if len(doc) else []
    return doc


def make_pipeline(linkers: Dict[str, KnowledgeBaseLinker], with_ner: bool, **config) -> Language:
    """`spacy.blank("en")` (+ the whole-doc stand-in NER) + an `nseen_linker` with the given linkers."""
    nlp = spacy.blank("en")
    if with_ner:
        nlp.add_pipe("rel_whole_doc_entity")
    config = {"kbs": KBS, "encoder": tiny_encoder_block(), **config}
    pipe = nlp.add_pipe("nseen_linker", config=upgrade_linker_config(config) if is_legacy_config(config) else config)
    for linker in linkers.values():
        pipe.add_linker(linker)
    return nlp


def doc_with_ents(nlp: Language, words: Sequence[str], ents: Iterable[Tuple[int, int, str]], spaces: Optional[List[bool]] = None) -> Doc:
    """A doc of `words` with `doc.ents` set by hand to `(start, end, label)` spans."""
    doc = Doc(nlp.vocab, words=list(words), spaces=spaces)
    doc.ents = [Span(doc, start, end, label=label) for start, end, label in ents]
    return doc
