"""The docs of one article, each carrying the article's other texts: the context `nseen_linker` reads.

Figure captions are short. Which organism a caption's `Trp53` is, and what its `CQ` abbreviates, is often written
in another caption of the same article (`mouse embryonic fibroblasts`, `chloroquine (CQ)`). Give a pipeline the
captions of one article through `article_docs` and the linker reads the others as organism evidence and for
abbreviation definitions (`doc._.article_texts`, and `doc._.figure_texts` for the other panels of a figure).
Each doc carries its article (`doc._.article`: the texts, shared by the article's docs, and its place), and the
linker reads each text of the article once for all of them (`article_context.ArticleContext`): linking an
article of n texts costs n texts' work, not n².
"""

from typing import Hashable, List, Optional, Sequence

from spacy.language import Language
from spacy.tokens import Doc

from .extensions import register_extensions


def article_docs(
    nlp: Language, texts: Sequence[str], figures: Optional[Sequence[Optional[Hashable]]] = None
) -> List[Doc]:
    """Make a doc of each text of one article, each given the other texts as `doc._.article_texts`.

    nlp (Language): the pipeline whose tokenizer makes the docs (run them with `nlp.pipe(docs)`).
    texts (Sequence[str]): the article's texts, e.g. its figure captions, in order.
    figures (Optional[Sequence[Optional[Hashable]]]): per text, the figure it belongs to when captions come split
        into panels (`"Figure 2"` for panels 2A and 2B; None: no figure); the other panels of the same figure
        become `doc._.figure_texts`, closer evidence than the article's.
    RETURNS (List[Doc]): one doc per text, in order; `doc._.article_texts` and `doc._.figure_texts` give its
        context as lists (read from `doc._.article`; set them to give a doc other context).
    """
    if isinstance(texts, str):
        raise TypeError("article_docs needs the article's texts as a list of strings, not one string")
    texts = list(texts)
    bad = [i for i, text in enumerate(texts) if not isinstance(text, str)]
    if bad:
        raise TypeError(f"article_docs: text {bad[0]} is a {type(texts[bad[0]]).__name__}, not a string")
    if figures is not None and len(figures) != len(texts):
        raise ValueError(f"article_docs: {len(texts)} texts but {len(figures)} figure keys")
    register_extensions()
    figure_keys = None if figures is None else list(figures)
    docs = [nlp.make_doc(text) for text in texts]
    for i, doc in enumerate(docs):
        doc._.article = {"texts": texts, "figures": figure_keys, "index": i}
    return docs
