"""Determinism (issue 7): the same seed gives the same pairs, the same trained weights on CPU, the same
Annoy index file and the same links; `nlp.pipe(n_process=2)` links as one process does."""
import hashlib
from pathlib import Path
from typing import List

import numpy
import pytest
import torch
from rel_support import SEED, TOY_REFERENCE, make_pipeline, train_tiny_encoder

from spacy_nseen.encoder.layer import get_char_vocab, get_torch_module
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.linker.storage import INDEX_FILE
from spacy_nseen.reference.reference_set import ReferenceSet
from spacy_nseen.retrieval.name_index import AnnoyNameIndex
from training.pairs.make_pairs import build_pair_store
from training.pairs.pair_store import PairStore

PAIR_ARRAYS = ("strings", "string_entity", "entity_ids", "left", "right", "label", "set_id")
MENTIONS = [
    "PLCG2", "PLC-gamma-2", "plcγ2", "FOXP2", "forkhead box p2", "Ras", "H-Ras", "mTOR", "AKT", "p62",
    "androgen receptor", "phospholipase C gamma 2", "unknown protein", "\x00", "🧬", "", "γ" * 200,
]


def pair_arrays(store: PairStore) -> dict:
    return {name: numpy.asarray(getattr(store, name)) for name in PAIR_ARRAYS} | {"set_names": list(store.set_names)}


@pytest.fixture(scope="module")
def families(tmp_path_factory) -> Path:
    reference = ReferenceSet.from_tsv(TOY_REFERENCE)
    path = tmp_path_factory.mktemp("families") / "toy_families.tsv"
    rows = [f"FAM:{i % 3}\t{kb_id}" for i, kb_id in enumerate(reference.kb_ids)]
    path.write_text("family_id\tkb_id\n" + "\n".join(rows) + "\n", encoding="utf8")
    return path


def test_same_seed_same_pairs(families, tmp_path):
    first, _ = build_pair_store(TOY_REFERENCE, families, seed=7)
    second, _ = build_pair_store(TOY_REFERENCE, families, seed=7)
    other, _ = build_pair_store(TOY_REFERENCE, families, seed=8)
    a, b, c = pair_arrays(first), pair_arrays(second), pair_arrays(other)
    assert a.keys() == b.keys()
    for name in a:
        assert numpy.array_equal(a[name], b[name]), name
    assert not all(numpy.array_equal(a[name], c[name]) for name in ("left", "right")), "the seed is used"
    first.save(tmp_path / "pairs.npz")
    loaded = pair_arrays(PairStore.load(tmp_path / "pairs.npz"))
    for name in a:
        assert numpy.array_equal(loaded[name], a[name]), name


def state_dict(encoder) -> dict:
    return get_torch_module(encoder).state_dict()


@pytest.fixture(scope="module")
def two_trainings(rel_encoder, rel_uniprot_reference):
    """The session's tiny encoder and a second one trained from scratch with the same seed and settings."""
    return [rel_encoder, train_tiny_encoder(rel_uniprot_reference, seed=SEED)]


def test_same_seed_same_weights(two_trainings, rel_uniprot_reference):
    first, second = two_trainings
    a, b = state_dict(first), state_dict(second)
    assert a.keys() == b.keys()
    assert all(torch.equal(a[key], b[key]) for key in a)
    assert get_char_vocab(first).chars == get_char_vocab(second).chars
    untrained = train_tiny_encoder(rel_uniprot_reference, seed=SEED, epochs=0)
    assert not all(torch.equal(a[key], state_dict(untrained)[key]) for key in a), "training changed the weights"


def test_same_vectors_and_seed_same_index_file(tmp_path):
    """The index is built single-threaded: with several threads Annoy stores trees in finishing order."""
    vectors = numpy.random.default_rng(0).normal(size=(3_000, 16)).astype(numpy.float32)
    digests = set()
    for i in range(3):
        AnnoyNameIndex.build(vectors, n_trees=8, seed=5).save(tmp_path / f"{i}.ann")
        digests.add(hashlib.sha256((tmp_path / f"{i}.ann").read_bytes()).hexdigest())
    assert len(digests) == 1


def test_same_seed_same_linker_files_and_links(two_trainings, rel_uniprot_reference, tmp_path):
    """Two trainings → two linkers → identical index files and identical links."""
    saved: List[Path] = []
    for i, encoder in enumerate(two_trainings):
        linker = KnowledgeBaseLinker.build("uniprot", encoder, rel_uniprot_reference, n_trees=10, seed=SEED)
        linker.to_disk(tmp_path / f"linker{i}")
        saved.append(tmp_path / f"linker{i}")
    assert (saved[0] / INDEX_FILE).read_bytes() == (saved[1] / INDEX_FILE).read_bytes()
    links = [KnowledgeBaseLinker.from_disk(path).link(MENTIONS, top_k=5) for path in saved]
    assert links[0] == links[1]
    for mode in ("hybrid", "dense"):
        # a reloaded linker links as the one that was saved
        built = KnowledgeBaseLinker.build("uniprot", two_trainings[0], rel_uniprot_reference, n_trees=10, seed=SEED)
        assert built.link(MENTIONS, mode=mode) == KnowledgeBaseLinker.from_disk(saved[0]).link(MENTIONS, mode=mode)


def links_of(docs) -> list:
    return [
        [(ent.start_char, ent.end_char, ent.kb_id_, ent._.kb_id, [tuple(c[:2]) for c in ent._.kb_candidates]) for ent in doc.ents]
        for doc in docs
    ]


def scores_of(docs) -> list:
    return [score for doc in docs for ent in doc.ents for *_, score in ent._.kb_candidates]


@pytest.mark.slow
def test_two_processes_link_as_one(rel_linkers):
    """`nlp.pipe(n_process=2)` gives the same ids and candidates as one process. Candidate scores agree to
    1e-5: a batch's float sums depend on which mentions share it (different batches per process)."""
    nlp = make_pipeline({kb: linker for kb, linker in rel_linkers.items()}, with_ner=True)
    texts = [MENTIONS[i % len(MENTIONS)] + ("" if i < len(MENTIONS) else f" {i}") for i in range(400)]
    one = list(nlp.pipe(texts, batch_size=32))
    two = list(nlp.pipe(texts, batch_size=32, n_process=2))
    assert [doc.text for doc in two] == texts
    assert links_of(two) == links_of(one)
    numpy.testing.assert_allclose(scores_of(two), scores_of(one), atol=1e-5)
    # the same docs in the same batches give bit-identical results
    again = list(nlp.pipe(texts, batch_size=32))
    assert links_of(again) == links_of(one) and scores_of(again) == scores_of(one)


def test_a_pickled_pipe_links_identically(rel_linkers):
    """The pipe's pickled state (what a spawned worker process receives) is rebuilt from its files."""
    import pickle

    nlp = make_pipeline(rel_linkers, with_ner=True)
    copy = pickle.loads(pickle.dumps(nlp.get_pipe("nseen_linker")))
    docs = [nlp.get_pipe("rel_whole_doc_entity")(nlp.make_doc(text)) for text in MENTIONS if text]
    expected = [nlp.get_pipe("nseen_linker")(doc) for doc in docs]
    linked = [copy(nlp.get_pipe("rel_whole_doc_entity")(nlp.make_doc(doc.text))) for doc in docs]
    assert links_of(linked) == links_of(expected) and scores_of(linked) == scores_of(expected)
