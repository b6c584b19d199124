"""`ContextEvidence`: the counts of a context without one of its texts equal the counts of the others."""
import random

import pytest

from spacy_nseen.organisms.assign import OrganismAssigner, context_counts
from spacy_nseen.organisms.context_evidence import ContextEvidence
from spacy_nseen.organisms.lexicon import FISSION_YEAST, YEAST

WORDS = ["mouse", "human", "rat", "mice", "yeast", "S. pombe", "S. cerevisiae", "zebrafish", "red1Δ", "HeLa cells",
         "fission yeast", "Drosophila", "E. coli", "xenografts in nude mice", "budding yeast"]


def random_texts(rng: random.Random, n: int):
    return [" and ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 4))) + " cells." for _ in range(n)]


def left_to_right(assigner: OrganismAssigner, texts):
    """The counts as the assigner summed them before `ContextEvidence`: text by text, left to right."""
    scans = [assigner.scan(t) for t in texts]
    named = set().union(*(s.named_taxa() for s in scans))
    fission = FISSION_YEAST in named and YEAST not in named
    out = {}
    for s in scans:
        if fission or s.names_fission_yeast():
            s = s.in_fission_yeast()
        for taxon, value in s.counts().items():
            out[taxon] = out.get(taxon, 0.0) + value
    return out


@pytest.mark.parametrize("seed", range(30))
def test_counts_without_a_text_are_the_counts_of_the_others(seed):
    rng = random.Random(seed)
    assigner = OrganismAssigner()
    texts = random_texts(rng, rng.randint(1, 12))
    context = assigner.context_evidence(texts)
    for i in range(len(texts)):
        others = texts[:i] + texts[i + 1:]
        expected = context_counts([assigner.scan(t) for t in others])
        got = context.counts_without(i)
        assert list(got.items()) == list(expected.items())  # same taxa, same order, same floats
        old = left_to_right(assigner, others)
        assert list(got) == list(old) and all(abs(got[t] - old[t]) < 1e-9 for t in old)


def test_a_context_of_fission_yeast_reads_yeast_for_it_unless_the_left_out_text_was_the_only_one_to_say_so():
    assigner = OrganismAssigner()
    texts = ["S. pombe cells.", "yeast red1Δ cells.", "yeast cells."]
    context = assigner.context_evidence(texts)
    assert set(context.counts_without(1)) == {FISSION_YEAST}
    assert YEAST in context.counts_without(0)  # without the S. pombe text, `yeast` is budding yeast


def test_no_texts_and_bad_places():
    context = ContextEvidence([])
    assert context.counts_without() == {}
    with pytest.raises(IndexError, match="text 0 of a context of 0 texts"):
        context.counts_without(0)
