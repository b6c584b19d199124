"""The docs of one article, each carrying the article's other texts: the context `nseen_linker` reads.

Figure captions are short. Which organism a caption's `Trp53` is, and what its `CQ` abbreviates, is often written
in another caption of the same article (`mouse embryonic fibroblasts`, `chloroquine (CQ)`). Give a pipeline the
captions of one article through `article_docs` and the linker reads the others as organism evidence and for
abbreviation definitions (`doc._.article_texts`, and `doc._.figure_texts` for the other panels of a figure).
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
    RETURNS (List[Doc]): one doc per text, in order.
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
    docs = [nlp.make_doc(text) for text in texts]
    for i, doc in enumerate(docs):
        doc._.article_texts = [text for j, text in enumerate(texts) if j != i]
        if figures is not None and figures[i] is not None:
            doc._.figure_texts = [text for j, text in enumerate(texts) if j != i and figures[j] == figures[i]]
    return docs
