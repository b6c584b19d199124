"""The NER soup: a fork's config sources every component; averaging takes the mean of matching weights."""
import numpy
import pytest
import spacy
from thinc.api import Config, Linear, chain

from experiments.ner_soup import average_pipelines, average_weights, fork_config

CONFIG = """
[nlp]
lang = "en"
pipeline = ["tok2vec", "ner", "protein_gene"]

[components]

[components.tok2vec]
factory = "tok2vec"

[components.ner]
factory = "ner"

[components.protein_gene]
factory = "nseen_protein_gene"

[training]
frozen_components = []

[initialize]

[initialize.components]

[initialize.components.ner]
labels = ["PROTEIN"]
"""


def test_fork_config_sources_every_component_and_freezes_protein_gene():
    config = Config().from_str(CONFIG)
    forked = fork_config(config, "/models/base")
    assert forked["components"] == {name: {"source": "/models/base"} for name in ("tok2vec", "ner", "protein_gene")}
    assert forked["training"]["frozen_components"] == ["protein_gene"]
    assert forked["initialize"]["components"] == {}
    assert config["components"]["ner"] == {"factory": "ner"}  # the input is not changed
    assert config["initialize"]["components"] == {"ner": {"labels": ["PROTEIN"]}}
    assert config["training"]["frozen_components"] == []


def _linear(value: float):
    model = chain(Linear(2, 3), Linear(1, 2))
    model.initialize(X=numpy.zeros((1, 3), dtype="f"))
    for node in model.walk():
        for name in node.param_names:
            if node.has_param(name):
                node.set_param(name, numpy.full_like(node.get_param(name), value))
    return model


def test_average_weights_is_the_mean_of_every_parameter():
    models = [_linear(1.0), _linear(2.0), _linear(6.0)]
    average_weights(models)
    for node in models[0].walk():
        for name in node.param_names:
            if node.has_param(name):
                assert numpy.allclose(node.get_param(name), 3.0)
    assert numpy.allclose(models[1].layers[0].get_param("W"), 2.0)  # only the first model changes


def test_average_weights_refuses_models_of_other_shapes():
    other = chain(Linear(4, 3), Linear(1, 4))
    other.initialize(X=numpy.zeros((1, 3), dtype="f"))
    with pytest.raises(ValueError, match="differs in shape"):
        average_weights([_linear(1.0), other])


def test_average_pipelines_needs_two_and_averages_the_ner():
    def trained(seed: int):
        nlp = spacy.blank("en")
        nlp.add_pipe("ner").add_label("PROTEIN")
        spacy.util.fix_random_seed(seed)
        nlp.initialize()
        return nlp

    a, b = trained(0), trained(1)
    expected = (a.get_pipe("ner").model.get_ref("lower").get_param("W")
                + b.get_pipe("ner").model.get_ref("lower").get_param("W")) / 2
    with pytest.raises(ValueError, match="at least two"):
        average_pipelines([a])
    average_pipelines([a, b], pipes=("ner",))
    assert numpy.allclose(a.get_pipe("ner").model.get_ref("lower").get_param("W"), expected)
