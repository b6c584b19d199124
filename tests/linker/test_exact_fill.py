"""`LinkerSettings.exact_fill`: ranks 2..k of exactly matching mentions from the cheap sparse searches."""
import numpy
import pytest
import scipy.sparse as sp

from spacy_nseen.linker.kb_linker import Candidate, KnowledgeBaseLinker, LinkerSettings
from spacy_nseen.linker.settings import EXACT_FILLS
from spacy_nseen.reference.reference_set import ReferenceSet
from spacy_nseen.retrieval.sparse import top_k_postings, without_common_terms
from spacy_nseen.text.plurals import number_variants

# Exact matches of one entity (FOXP2, HRAS), of a loose key (FOX-P2), and mentions without an exact match.
MENTIONS = ["FOXP2", "FOX-P2", "hras", "PLCG2", "IKK-beta", "p53", "Forkhead box protein", "PLC gamma"]
# The toy reference has 46 names: "rare" n-grams / words must be allowed in more than 1% of them.
BASE = dict(cache_size=0, sparse_max_df=0.3, fuzzy_weight=0.2, sparse_weight=0.4, token_weight=0.1)


def linked(linker, mentions=MENTIONS, top_k=5, **changes):
    return linker.with_settings(LinkerSettings(**{**BASE, **changes})).link(mentions, top_k=top_k)


def test_settings_validation():
    assert LinkerSettings().exact_fill == "none"
    assert set(EXACT_FILLS) == {"none", "char", "sparse"}
    for value in EXACT_FILLS:
        assert LinkerSettings.from_dict(LinkerSettings(exact_fill=value).to_dict()).exact_fill == value
    with pytest.raises(ValueError, match="exact_fill"):
        LinkerSettings(exact_fill="dense")


@pytest.mark.parametrize("fill", ["char", "sparse"])
def test_exact_entities_unchanged_and_followed_by_others(toy_linker, fill):
    plain = linked(toy_linker)
    filled = linked(toy_linker, exact_fill=fill)
    grew = 0
    for mention, before, after in zip(MENTIONS, plain, filled):
        if toy_linker.exact_names.lookup(mention):
            assert after[: len(before)] == before, mention  # same entities, names, order and scores
            assert all(c.score < 1.0 or c.kb_id in {b.kb_id for b in before} for c in after[len(before):])
            grew += len(after) > len(before)
        else:
            assert after == before, mention  # mentions without an exact match are linked as before
        ids = [c.kb_id for c in after]
        assert len(ids) == len(set(ids)) and len(ids) <= 5
        assert [c.score for c in after] == sorted((c.score for c in after), reverse=True)
        for c in after:
            assert c.name in toy_linker.reference_set.names_of(c.kb_id)
    assert grew >= 3


@pytest.mark.parametrize("fill", ["char", "sparse"])
def test_fill_skips_the_encoder_and_annoy(toy_linker, fill, monkeypatch):
    linker = toy_linker.with_settings(LinkerSettings(**{**BASE, "exact_fill": fill}))
    encoded, queried = [], []
    encode, query = linker.encode, linker.index.query
    monkeypatch.setattr(linker, "encode", lambda strings: encoded.extend(strings) or encode(strings))
    monkeypatch.setattr(linker.index, "query", lambda vectors, *a: queried.append(len(vectors)) or query(vectors, *a))
    [candidates] = linker.link(["FOXP2"], top_k=5)
    assert candidates[0].kb_id == "UniProt:O15409" and candidates[0].score == 1.0 and len(candidates) > 1
    assert encoded == [] and queried == []


def test_sparse_fill_finds_names_by_word(toy_linker):
    # "p53" matches one entity exactly; the fill adds other entities after it, up to top_k
    [plain] = linked(toy_linker, ["p53"], top_k=3)
    [filled] = linked(toy_linker, ["p53"], top_k=3, exact_fill="sparse")
    assert filled[: len(plain)] == plain and len(filled) == 3


def test_fill_is_off_without_short_cut_or_in_dense_mode(toy_linker):
    assert linked(toy_linker, exact_short_cut=False) == linked(toy_linker, exact_short_cut=False, exact_fill="sparse")
    linker = toy_linker.with_settings(LinkerSettings(**{**BASE, "exact_fill": "sparse"}))
    assert linker.link(MENTIONS, top_k=5, mode="dense") == toy_linker.with_settings(LinkerSettings(**BASE)).link(
        MENTIONS, top_k=5, mode="dense")


def test_char_fill_without_rare_ngrams_adds_nothing(toy_linker):
    assert linked(toy_linker, sparse_max_df=0.0, exact_fill="char") == linked(toy_linker, sparse_max_df=0.0)


@pytest.mark.parametrize("text,variants", [
    ("amino acids", ["amino acid"]), ("folate", ["folates"]), ("polyamines", ["polyamine"]),
    ("families", ["family"]), ("family", ["families"]), ("glucose", ["glucoses"]),
    ("nucleus", []), ("glass", []), ("LPS", []), ("RNAs", []), ("Ca", []), ("NP-40", []), ("5mC", []),
])
def test_number_variants(text, variants):
    assert number_variants(text) == variants


def test_sparse_fill_adds_the_other_number(toy_encoder):
    reference = ReferenceSet.from_rows(
        [("C:1", "amino acids", "synonym"), ("C:2", "amino acid", "primary"), ("C:2", "aminoacid", "synonym"),
         ("C:3", "acid", "primary"), ("C:4", "amine", "primary"), ("C:5", "folate", "synonym"), ("C:6", "folates", "primary")]
    )
    linker = KnowledgeBaseLinker.build("toy", toy_encoder, reference, n_trees=2)
    for fill, found in [("none", False), ("sparse", True)]:
        # rare = in at most 1% of the 7 names: none, so only the number variant can fill
        linker.settings = LinkerSettings(cache_size=0, exact_fill=fill)
        first, second = linker.link(["amino acids", "folate"], top_k=3)
        assert first[0] == Candidate("C:1", "amino acids", 1.0) and second[0] == Candidate("C:5", "folate", 1.0)
        assert (len(first) > 1 and first[1].kb_id == "C:2") == found
        assert (len(second) > 1 and second[1].kb_id == "C:6") == found


@pytest.mark.parametrize("fill", ["char", "sparse"])
def test_fill_does_not_depend_on_the_batch(toy_linker, fill):
    together = linked(toy_linker, exact_fill=fill)
    alone = [linked(toy_linker, [m], exact_fill=fill)[0] for m in MENTIONS]
    assert together == alone


def test_top_k_postings_best_first_ties_by_index():
    postings = sp.csr_matrix(numpy.array([[1.0, 0.0, 1.0, 0.5], [0.0, 1.0, 0.0, 0.0]], dtype=numpy.float32))
    queries = sp.csr_matrix(numpy.array([[1.0, 0.0], [0.0, 0.0], [1.0, 2.0]], dtype=numpy.float32))
    ids, scores = top_k_postings(queries, postings, 2)
    assert ids.tolist() == [[0, 2], [-1, -1], [1, 0]]
    assert scores.tolist() == [[1.0, 1.0], [0.0, 0.0], [2.0, 1.0]]
    ids, _ = top_k_postings(queries, postings, 5)
    assert ids[0].tolist() == [0, 2, 3, -1, -1]


def test_without_common_terms_drops_terms_of_many_names():
    df = numpy.array([3, 1, 0], dtype=numpy.int32)  # the names of each term
    queries = sp.csr_matrix(numpy.array([[0.5, 0.5, 0.0], [0.0, 0.0, 1.0], [0.7, 0.0, 0.0]], dtype=numpy.float32))
    rare = without_common_terms(queries, df, max_count=1)
    assert rare.toarray().tolist() == [[0.0, 0.5, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]
    assert without_common_terms(queries, df, max_count=3).toarray().tolist() == queries.toarray().tolist()
