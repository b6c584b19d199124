"""`spacy_nseen.NameFeatureHashEmbed.v1`: spaCy's `MultiHashEmbed` with more columns, the name features.

The same layers as `spacy.MultiHashEmbed.v2` (one `HashEmbed` of `width` per token attribute, concatenated, with
the vocab's static vectors projected to `width` when `include_static_vectors`, a Maxout to `width`), plus one
small `HashEmbed` (`feature_width`) per column of `doc._.nseen_name_features`, the place of each token in a name
of each label's list that the `nseen_name_features` component writes before the tok2vec runs. A doc that
component has not seen (the few docs spaCy passes to `initialize` to infer shapes) gets code 0 (O) in every
column; a doc with another number of columns than
`name_labels` is an error that says so.
"""

from typing import Callable, List, Tuple, Union, cast

import numpy
from spacy.ml.staticvectors import StaticVectors
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import HashEmbed, Maxout, Model, chain, concatenate, list2ragged, ragged2list, with_array
from thinc.types import Floats2d, Ints2d, Ragged

from .name_features import EXTENSION


def name_feature_extractor(columns: List[Union[str, int]], name_labels: int) -> Model[List[Doc], List[Ints2d]]:
    """RETURNS: a layer giving, per doc, its tokens' `columns` attributes and then their `name_labels` codes."""
    return Model("extract_name_features", _extract_forward, attrs={"columns": columns, "name_labels": name_labels})


def _extract_forward(
    model: Model[List[Doc], List[Ints2d]], docs: List[Doc], is_train: bool
) -> Tuple[List[Ints2d], Callable]:
    columns, name_labels = model.attrs["columns"], model.attrs["name_labels"]
    features: List[Ints2d] = []
    for doc in docs:
        attrs = doc.to_array(columns).reshape((len(doc), len(columns))).astype(numpy.uint64)
        codes = doc._.get(EXTENSION)
        if codes is None:
            codes = numpy.zeros((len(doc), name_labels), dtype=numpy.uint64)
        codes = numpy.asarray(codes, dtype=numpy.uint64)
        if codes.shape != (len(doc), name_labels):
            raise ValueError(
                f"doc._.{EXTENSION} has shape {codes.shape}, but the tok2vec embeds {name_labels} name "
                f"labels for {len(doc)} tokens: the nseen_name_features component's labels and the "
                "embedding's name_labels must agree"
            )
        # two (len(doc), n) uint64 arrays side by side: a 2-d integer array
        features.append(model.ops.asarray2i(cast(Ints2d, numpy.hstack([attrs, codes])), dtype="uint64"))
    return features, lambda d_features: []


@registry.architectures("spacy_nseen.NameFeatureHashEmbed.v1")
def name_feature_hash_embed(
    width: int,
    attrs: List[Union[str, int]],
    rows: List[int],
    name_labels: int,
    feature_rows: int,
    feature_width: int,
    include_static_vectors: bool = False,
) -> Model[List[Doc], List[Floats2d]]:
    """Hash embeddings of `attrs` (`rows` each, `width` wide) and of each name-feature column (`feature_rows`,
    `feature_width` wide), mixed to `width`.

    width (int): the output width and the width of every attribute's table.
    attrs (List[str]): the token attributes to embed (e.g. NORM, PREFIX, SUFFIX, SHAPE).
    rows (List[int]): the rows of each attribute's table, as many as `attrs`.
    name_labels (int): the columns of `doc._.nseen_name_features` (the component's number of labels).
    feature_rows (int): the rows of each name-feature table (a column has 5 codes).
    feature_width (int): the width of each name-feature table.
    include_static_vectors (bool): also embed the vocab's static vectors (e.g. floret ones, loaded by
        `[initialize] vectors`), projected to `width`; spaCy refuses to initialize without vectors then.
    """
    if len(rows) != len(attrs):
        raise ValueError(f"Mismatched lengths: {len(rows)} rows for {len(attrs)} attrs")
    if min(name_labels, feature_rows, feature_width) < 1:
        raise ValueError(
            f"name_labels, feature_rows and feature_width must be at least 1, got "
            f"{name_labels}, {feature_rows}, {feature_width}"
        )
    embeddings: List[Model[Ints2d, Floats2d]] = [
        HashEmbed(width, n_rows, column=i, seed=8 + i, dropout=0.0) for i, n_rows in enumerate(rows)
    ]
    embeddings += [
        HashEmbed(feature_width, feature_rows, column=len(rows) + i, seed=8 + len(rows) + i, dropout=0.0)
        for i in range(name_labels)
    ]
    concat_width = width * (len(rows) + int(include_static_vectors)) + feature_width * name_labels
    extract = name_feature_extractor(list(attrs), name_labels)
    mix: Model[Ragged, Ragged] = with_array(Maxout(width, concat_width, nP=3, dropout=0.0, normalize=True))
    if not include_static_vectors:
        # the layer tree of the pipelines trained before static vectors were an option (their weights load)
        return chain(extract, list2ragged(), with_array(concatenate(*embeddings)), mix, ragged2list())
    hashed: Model[List[Doc], Ragged] = chain(
        extract, cast(Model[List[Ints2d], Ragged], list2ragged()), with_array(concatenate(*embeddings))
    )
    return chain(concatenate(hashed, StaticVectors(width, dropout=0.0)), mix, ragged2list())
