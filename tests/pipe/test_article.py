"""`article_docs`: one doc per text of an article, each carrying the others (and its figure's other panels)."""
import pytest
import spacy

from spacy_nseen import article_docs

CAPTIONS = ["Figure 1. MEFs treated with chloroquine (CQ).", "Figure 2A. CQ blocks LC3 turnover.", "Figure 2B. Trp53 levels."]


def test_each_doc_gets_the_other_texts_of_its_article():
    docs = article_docs(spacy.blank("en"), CAPTIONS)
    assert [d.text for d in docs] == CAPTIONS
    assert docs[1]._.article_texts == [CAPTIONS[0], CAPTIONS[2]]
    assert all(d._.figure_texts is None for d in docs)


def test_panels_of_one_figure_get_each_other_as_figure_texts():
    docs = article_docs(spacy.blank("en"), CAPTIONS, figures=["Figure 1", "Figure 2", "Figure 2"])
    assert docs[1]._.figure_texts == [CAPTIONS[2]] and docs[2]._.figure_texts == [CAPTIONS[1]]
    assert docs[0]._.figure_texts == []
    docs = article_docs(spacy.blank("en"), CAPTIONS, figures=[None, "Figure 2", None])
    assert docs[0]._.figure_texts is None and docs[1]._.figure_texts == []


def test_an_article_of_one_text_or_none_is_defined():
    assert article_docs(spacy.blank("en"), []) == []
    (doc,) = article_docs(spacy.blank("en"), ["Only caption."])
    assert doc._.article_texts == []


@pytest.mark.parametrize("texts,figures,error,message", [
    ("one string", None, TypeError, "list of strings"),
    (["fine", 3], None, TypeError, "text 1 is a int"),
    (["a", "b"], ["Figure 1"], ValueError, "2 texts but 1 figure keys"),
])
def test_bad_input_is_a_clear_error(texts, figures, error, message):
    with pytest.raises(error, match=message):
        article_docs(spacy.blank("en"), texts, figures)


def test_docs_carry_their_article_once_and_their_own_lists_win():
    docs = article_docs(spacy.blank("en"), CAPTIONS, figures=["Figure 1", "Figure 2", "Figure 2"])
    assert all(d._.article["texts"] is docs[0]._.article["texts"] for d in docs)  # one list for the article
    assert [d._.article["index"] for d in docs] == [0, 1, 2]
    docs[1]._.article_texts = ["Another text."]
    assert docs[1]._.article_texts == ["Another text."] and docs[2]._.article_texts == CAPTIONS[:2]


def test_docs_of_an_article_keep_their_context_through_a_docbin():
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    docs = article_docs(nlp, CAPTIONS, figures=["Figure 1", "Figure 2", "Figure 2"])
    restored = list(DocBin(docs=docs, store_user_data=True).get_docs(nlp.vocab))
    assert restored[2]._.article_texts == CAPTIONS[:2] and restored[2]._.figure_texts == [CAPTIONS[1]]


def test_the_context_extensions_pickle_for_spacys_multiprocessing():
    import pickle

    from spacy.tokens import Doc

    article_docs(spacy.blank("en"), CAPTIONS)  # registers them
    for name in ("article_texts", "figure_texts"):
        pickle.dumps(Doc.get_extension(name))  # `nlp.pipe(n_process=2)` sends them to the workers
