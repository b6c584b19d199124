"""`ArticleContext`: each text's context read once for the article, equal to the lists of the other texts."""
import random

import pytest

from spacy_nseen.organisms.assign import AssignerSettings, OrganismAssigner
from spacy_nseen.pipe.article_context import ArticleCache, ArticleContext
from spacy_nseen.text.abbreviations import defined_long_forms

PARTS = ["MEFs from mice", "human HeLa cells", "chloroquine (CQ)", "conditioned quiescence (CQ)", "S. pombe red1Δ",
         "yeast cells", "light chain 3 (LC3)", "CQ and LC3", "rat liver", "xenografts in nude mice", "no organism"]
SHORTS = ["CQ", "LC3", "MEFs"]


def random_article(seed: int):
    rng = random.Random(seed)
    n = rng.randint(1, 10)
    texts = [". ".join(rng.choice(PARTS) for _ in range(rng.randint(0, 3))) for _ in range(n)]
    figures = [rng.choice([None, "Figure 1", "Figure 2"]) for _ in range(n)] if seed % 3 else None
    return texts, figures


def lists(texts, figures, i):
    """The other texts of text i's article and of its figure, as `article_docs` gave them before."""
    article = [t for j, t in enumerate(texts) if j != i]
    if figures is None or figures[i] is None:
        return article, None
    return article, [t for j, t in enumerate(texts) if j != i and figures[j] == figures[i]]


@pytest.mark.parametrize("seed", range(40))
def test_each_text_gets_the_context_of_the_other_texts(seed):
    texts, figures = random_article(seed)
    context = ArticleContext(texts, figures)
    assigner = OrganismAssigner(AssignerSettings(graft_host_strength=0.5))
    for i, text in enumerate(texts):
        article, figure = lists(texts, figures, i)
        assert context.article_texts(i) == article and context.figure_texts(i) == figure
        expected = defined_long_forms(text, figure, article)
        assert context.long_forms(i, SHORTS) == {s: lf for s, lf in expected.items() if s in SHORTS}
        article_counts, figure_counts = context.organism_counts(i, assigner)
        assert list(article_counts.items()) == list(assigner.article_counts(article).items())
        assert list(figure_counts.items()) == list(assigner.article_counts(figure or []).items())


def test_each_text_is_scanned_once_per_article_and_assigner_settings():
    scanned = []

    class Counting(OrganismAssigner):
        def scan(self, text, skip=()):
            scanned.append(text)
            return super().scan(text, skip)

    texts = ["mouse cells", "human cells", "rat cells"]
    context = ArticleContext(texts, ["F1", "F1", None])
    for i in range(3):
        context.organism_counts(i, Counting())  # a new assigner per batch, with the same settings
    assert sorted(scanned) == sorted(texts)
    context.organism_counts(0, Counting(AssignerSettings(cell_line_strength=0.5)))
    assert len(scanned) == 6


def test_the_cache_gives_the_docs_of_one_article_one_context():
    cache = ArticleCache(size=2)
    texts = ["a", "b"]
    first = cache.get(texts)
    assert cache.get(list(texts)) is first and cache.get(texts, ["F", None]) is not first
    cache.get(["c"])
    assert cache.get(texts) is not first  # the oldest of three articles is gone: memory stays bounded


@pytest.mark.parametrize("texts,figures,error,message", [
    ("one string", None, TypeError, "list of strings"),
    (["fine", 3], None, TypeError, "text 1 is a int"),
    (["a", "b"], ["Figure 1"], ValueError, "2 texts but 1 figure keys"),
    (["a", "b"], ["Figure 1", ["Figure", 2]], TypeError, "figure key of text 1 is a list"),
])
def test_bad_articles_are_a_clear_error(texts, figures, error, message):
    with pytest.raises(error, match=message):
        ArticleContext(texts, figures)


def test_a_place_outside_the_article_is_a_clear_error():
    with pytest.raises(IndexError, match="text 2 of an article of 2 texts"):
        ArticleContext(["a", "b"]).long_forms(2, ["CQ"])
