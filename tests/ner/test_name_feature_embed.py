"""spacy_nseen.NameFeatureHashEmbed.v1: MultiHashEmbed's columns plus the name features, read by a trainable tok2vec."""
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.language import Language
from spacy.training import Example
from spacy.util import registry

from spacy_nseen.ner.name_feature_embed import name_feature_extractor
from spacy_nseen.ner.name_features import EXTENSION

ATTRS = ["NORM", "PREFIX", "SUFFIX", "SHAPE"]
EMBED = {"@architectures": "spacy_nseen.NameFeatureHashEmbed.v1", "width": 16, "attrs": ATTRS,
         "rows": [100, 50, 50, 50], "name_labels": 1, "feature_rows": 20, "feature_width": 8}
TOK2VEC = {"model": {"@architectures": "spacy.Tok2Vec.v2", "embed": EMBED,
                     "encode": {"@architectures": "spacy.MaxoutWindowEncoder.v2", "width": 16, "depth": 1,
                                "window_size": 1, "maxout_pieces": 2}}}


def test_the_extractor_appends_the_codes_and_zeros_for_a_doc_without_them() -> None:
    nlp = spacy.blank("en")
    with_codes, without = nlp.make_doc("VPS30 binds"), nlp.make_doc("VPS30 binds")
    with_codes._.set(EXTENSION, numpy.array([[4, 0], [0, 1]], dtype=numpy.uint64))
    extractor = name_feature_extractor(ATTRS, 2)
    got, _ = extractor([with_codes, without], is_train=False)
    assert got[0].shape == (2, len(ATTRS) + 2)
    assert got[0][:, -2:].tolist() == [[4, 0], [0, 1]] and got[1][:, -2:].tolist() == [[0, 0], [0, 0]]
    assert got[0][:, :-2].tolist() == with_codes.to_array(ATTRS).tolist()


def test_features_of_another_number_of_labels_are_an_error() -> None:
    doc = spacy.blank("en").make_doc("VPS30 binds")
    doc._.set(EXTENSION, numpy.zeros((2, 3), dtype=numpy.uint64))
    with pytest.raises(ValueError, match="name_labels"):
        name_feature_extractor(ATTRS, 2)([doc], is_train=False)


def test_rows_must_match_the_attributes() -> None:
    make = registry.architectures.get("spacy_nseen.NameFeatureHashEmbed.v1")
    with pytest.raises(ValueError, match="Mismatched"):
        make(width=8, attrs=ATTRS, rows=[10, 10], name_labels=1, feature_rows=5, feature_width=4)
    with pytest.raises(ValueError, match="feature_rows"):
        make(width=8, attrs=ATTRS, rows=[10] * 4, name_labels=1, feature_rows=0, feature_width=4)


def build(tmp_path: Path) -> Language:
    names = tmp_path / "proteins.txt"
    names.write_text("VPS30\nAtg14\n", encoding="utf8")
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_name_features", config={"labels": ["PROTEIN"]})
    nlp.add_pipe("tok2vec", config=TOK2VEC)
    ner = nlp.add_pipe("ner")
    ner.add_label("PROTEIN")
    nlp.config["initialize"]["components"]["nseen_name_features"] = {"names_paths": {"PROTEIN": str(names)}}
    return nlp


def test_the_tok2vec_reads_the_features_the_component_writes(tmp_path: Path) -> None:
    nlp = build(tmp_path)
    nlp.initialize()
    doc = nlp("VPS30 and Atg14")
    assert doc._.get(EXTENSION).tolist() == [[4], [0], [4]]
    tok2vec = nlp.get_pipe("tok2vec").model
    plain = nlp.make_doc("VPS30 and Atg14")
    assert not numpy.allclose(tok2vec.predict([doc])[0], tok2vec.predict([plain])[0])


def test_training_with_the_component_annotating_and_saving_round_trip(tmp_path: Path) -> None:
    nlp = build(tmp_path)
    optimizer = nlp.initialize()
    doc = nlp.make_doc("VPS30 and Atg14 bind")
    example = Example.from_dict(doc, {"entities": [(0, 5, "PROTEIN"), (10, 15, "PROTEIN")]})
    for _ in range(20):
        nlp.update([example], sgd=optimizer, annotates=["nseen_name_features"])
    nlp.to_disk(tmp_path / "nlp")
    loaded = spacy.load(tmp_path / "nlp")
    text = "VPS30 and Atg14 bind"
    assert [(e.text, e.label_) for e in loaded(text).ents] == [(e.text, e.label_) for e in nlp(text).ents]
    assert loaded(text)._.get(EXTENSION).tolist() == [[4], [0], [4], [0]]


def test_static_vectors_are_one_more_column_and_round_trip(tmp_path: Path) -> None:
    embed = dict(EMBED, include_static_vectors=True)
    tok2vec = {"model": dict(TOK2VEC["model"], embed=embed)}
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_name_features", config={"labels": ["PROTEIN"]})
    nlp.add_pipe("tok2vec", config=tok2vec)
    names = tmp_path / "proteins.txt"
    names.write_text("VPS30\n", encoding="utf8")
    nlp.config["initialize"]["components"]["nseen_name_features"] = {"names_paths": {"PROTEIN": str(names)}}
    nlp.vocab.set_vector("VPS30", numpy.ones((4,), dtype="float32"))
    nlp.vocab.set_vector("binds", -numpy.ones((4,), dtype="float32"))
    nlp.initialize()
    model = nlp.get_pipe("tok2vec").model
    before = model.predict([nlp("VPS30 binds")])[0]
    nlp.vocab.set_vector("VPS30", 5 * numpy.ones((4,), dtype="float32"))
    assert not numpy.allclose(model.predict([nlp("VPS30 binds")])[0][0], before[0])
    nlp.to_disk(tmp_path / "nlp")
    loaded = spacy.load(tmp_path / "nlp")
    got = loaded.get_pipe("tok2vec").model.predict([loaded("VPS30 binds")])[0]
    assert numpy.allclose(got, model.predict([nlp("VPS30 binds")])[0], atol=1e-5)

