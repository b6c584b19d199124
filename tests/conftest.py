"""Shared fixtures: a tiny NSEEN encoder trained once per session on `fixtures/toy_reference.tsv`,
the linkers built from it, and their saved directories. Also the Hypothesis profiles: `.ci/run` sets
HYPOTHESIS_PROFILE=ci, so CI draws the same examples on every run (a red CI is then the code's, never the draw's);
local runs draw new ones and so keep finding counterexamples, which go into the tests as `@example`."""
import os
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import pytest
import spacy
import torch
from hypothesis import settings
from spacy.language import Language
from spacy.tokens import Doc, Span
from thinc.api import Model

from spacy_nseen.encoder.layer import ARCHITECTURE, build_char_bilstm_encoder
from spacy_nseen.encoder.weights_io import save_encoder
from spacy_nseen.encoder_training.siamese import TrainingSettings, train_on_reference_set
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.parts.kb_loaders import linker_directory_block
from spacy_nseen.parts.legacy import is_legacy_config, upgrade_linker_config
from spacy_nseen.reference.reference_set import ReferenceSet
from spacy_nseen.text.variants import same_name_variants
from training.pairs.string_similarity import levenshtein

torch.set_num_threads(1)

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

FIXTURES = Path(__file__).parent / "fixtures"
TOY_REFERENCE = FIXTURES / "toy_reference.tsv"
TOY_CHEBI = FIXTURES / "toy_chebi.tsv"
# A toy-sized encoder: one BiLSTM layer, trains in a few seconds on one core.
TOY_ENCODER: Dict[str, object] = {
    "vocab_size": 160,
    "char_width": 16,
    "hidden_width": 32,
    "depth": 1,
    "output_width": 32,
    "dropout": 0.0,
    "pooling": "max",
    "max_length": 64,
    "batch_size": 64,
    "precision": "fp32",
}
TOY_EPOCHS = 30
TOY_SEED = 0


def variant_pairs(names: List[str]) -> List[Tuple[str, str, float]]:
    """Syntactic same-name variant pairs with a soft label: Levenshtein similarity of the casefolded
    strings (case-sensitive similarity would label `RAS`/`ras` 0 and push case variants apart)."""
    return [
        (name, variant, levenshtein(name.casefold(), variant.casefold()))
        for name in names
        for variant, _ in same_name_variants(name)
    ]


def build_toy_encoder() -> Model:
    torch.manual_seed(TOY_SEED)
    return build_char_bilstm_encoder(**TOY_ENCODER)


@pytest.fixture(scope="session")
def new_toy_encoder() -> Callable[[], Model]:
    """Build an untrained toy encoder (the toy_encoder's architecture and initial weights)."""
    return build_toy_encoder


@pytest.fixture(scope="session")
def toy_reference() -> ReferenceSet:
    return ReferenceSet.from_tsv(TOY_REFERENCE)


@pytest.fixture(scope="session")
def chebi_reference() -> ReferenceSet:
    return ReferenceSet.from_tsv(TOY_CHEBI)


@pytest.fixture(scope="session")
def toy_training_strings(toy_reference: ReferenceSet) -> List[str]:
    """Every string the toy encoder saw in training (reference names and generated variants)."""
    pairs = variant_pairs(toy_reference.names)
    return sorted(set(toy_reference.names) | {b for _, b, _ in pairs})


@pytest.fixture(scope="session")
def toy_encoder(toy_reference: ReferenceSet) -> Model:
    """The encoder trained on the toy reference set (semantic pairs + syntactic variant pairs)."""
    encoder = build_toy_encoder()
    losses = train_on_reference_set(
        encoder,
        toy_reference.names,
        toy_reference.name_entity,
        extra_pairs=variant_pairs(toy_reference.names),
        epochs=TOY_EPOCHS,
        settings=TrainingSettings(batch_pairs=64, seed=TOY_SEED),
    )
    assert losses[-1] < losses[0] / 4, losses
    return encoder


@pytest.fixture(scope="session")
def toy_linker(toy_encoder: Model, toy_reference: ReferenceSet) -> KnowledgeBaseLinker:
    """The UniProt-like toy linker. Tests must not change it (use `fresh_toy_linker` for that)."""
    return KnowledgeBaseLinker.build("uniprot", toy_encoder, toy_reference, n_trees=10)


@pytest.fixture(scope="session")
def linker_dirs(tmp_path_factory, toy_encoder: Model, toy_reference: ReferenceSet, chebi_reference: ReferenceSet) -> Dict[str, Path]:
    """Saved artifacts: `uniprot` and `chebi` linker directories and the `encoder` directory."""
    root = tmp_path_factory.mktemp("linkers")
    KnowledgeBaseLinker.build("uniprot", toy_encoder, toy_reference, n_trees=10).to_disk(root / "uniprot")
    KnowledgeBaseLinker.build("chebi", toy_encoder, chebi_reference, n_trees=10).to_disk(root / "chebi")
    save_encoder(toy_encoder, root / "encoder")
    return {"uniprot": root / "uniprot", "chebi": root / "chebi", "encoder": root / "encoder"}


@pytest.fixture
def fresh_toy_linker(linker_dirs: Dict[str, Path]) -> KnowledgeBaseLinker:
    """A private copy of the toy linker, loaded from disk (safe to modify)."""
    return KnowledgeBaseLinker.from_disk(linker_dirs["uniprot"])


def linker_config(config: Dict[str, Any]) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): an `nseen_linker` config; the tests write most settings in 0.1.0's flat shape
    (`threshold=0.5`, `kbs={"PROTEIN": "uniprot"}`), which `upgrade_linker_config` puts into the blocks."""
    return upgrade_linker_config(config) if is_legacy_config(config) else config


def encoder_block() -> Dict[str, object]:
    """The component's [encoder] block for the toy encoder."""
    return {"@architectures": ARCHITECTURE, **TOY_ENCODER}


@pytest.fixture
def toy_encoder_block() -> Dict[str, object]:
    return encoder_block()


@pytest.fixture
def make_nlp(linker_dirs: Dict[str, Path]) -> Callable[..., Language]:
    """Build `spacy.blank("en")` with an initialised nseen_linker over the toy linkers."""

    def make(initialize: bool = True, **config) -> Language:
        nlp = spacy.blank("en")
        config = linker_config({"kbs": {"PROTEIN": "uniprot", "CHEMICAL": "chebi"}, "encoder": encoder_block(), **config})
        pipe = nlp.add_pipe("nseen_linker", config=config)
        if initialize:
            nlp.config["initialize"]["components"]["nseen_linker"] = {
                "kb_loaders": {kb: linker_directory_block(linker_dirs[kb]) for kb in pipe.kb_names}
            }
            nlp.initialize()
        return nlp

    return make


@pytest.fixture
def make_doc() -> Callable[..., Doc]:
    """Make a doc of `words` with entity spans `(start, end, label[, kb_id])`, as NER would leave it."""

    def make(nlp: Language, words: List[str], ents: List[Tuple]) -> Doc:
        doc = Doc(nlp.vocab, words=words)
        doc.ents = [Span(doc, ent[0], ent[1], label=ent[2], kb_id=ent[3] if len(ent) > 3 else "") for ent in ents]
        return doc

    return make
