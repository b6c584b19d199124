"""A model soup of the NER: fine-tune forks of one trained NER with other seeds, then average their weights.

An ensemble of NER models would tag at a fraction of the speed the issue requires (150 captions/s); averaging
the weights of models that share a starting point (a "model soup") costs nothing at tagging time. Two commands:

    python -m experiments.ner_soup fork-config configs/ner.cfg training_output/ner/model-best fork.cfg
    python -m spacy train fork.cfg --output FORK ... --system.seed S --training.max_steps 1000   # train-ner's options
    python -m experiments.ner_soup average SOUP FORK_A/model-last FORK_B/model-last [BASE]

`fork-config` writes the NER's training config with every component sourced from the trained pipeline (so
training goes on from its weights, with a fresh optimizer) and `protein_gene` frozen; `average` writes the first
pipeline with the mean of the trainable weights (tok2vec and ner) of all of them. Results:
results/ner/experiments/README.md, "A model soup".
"""
import copy
from pathlib import Path
from typing import List, Sequence

import numpy
import typer
from spacy.language import Language
from thinc.api import Config, Model
from wasabi import msg

AVERAGED_PIPES = ("tok2vec", "ner")
FROZEN_PIPES = ("protein_gene",)
app = typer.Typer(add_completion=False)


def fork_config(config: Config, base: str, frozen: Sequence[str] = FROZEN_PIPES) -> Config:
    """The training config with every pipeline component sourced from the pipeline at `base`.

    config (Config): the NER's training config (not interpolated).
    base (str): the trained pipeline's directory.
    frozen (Sequence[str]): components that are not trained further (those of the pipeline only).
    RETURNS (Config): a new config; `[initialize.components]` is emptied (sourced components keep their data).
    """
    forked = Config(copy.deepcopy(dict(config)))
    pipeline = list(forked["nlp"]["pipeline"])
    forked["components"] = {name: {"source": base} for name in pipeline}
    forked["initialize"]["components"] = {}
    forked["training"]["frozen_components"] = [name for name in frozen if name in pipeline]
    return forked


def average_weights(models: Sequence[Model]) -> None:
    """Set the first model's parameters to the mean of all the models' (same architecture, walked in step).

    RAISES ValueError: when the models differ in their layers or in a parameter's shape.
    """
    walks: List[List[Model]] = [list(model.walk()) for model in models]
    if len({len(walk) for walk in walks}) != 1:
        raise ValueError("the models to average have different numbers of layers")
    for nodes in zip(*walks):
        if len({node.name for node in nodes}) != 1:
            raise ValueError(f"the models to average differ: layers {sorted({n.name for n in nodes})}")
        for name in nodes[0].param_names:
            if not all(node.has_param(name) for node in nodes):
                continue
            arrays = [node.get_param(name) for node in nodes]
            if len({a.shape for a in arrays}) != 1:
                raise ValueError(f"parameter {name} of layer {nodes[0].name} differs in shape: "
                                 f"{sorted({a.shape for a in arrays})}")
            nodes[0].set_param(name, numpy.mean(numpy.stack(arrays), axis=0).astype(arrays[0].dtype))


def average_pipelines(nlps: Sequence[Language], pipes: Sequence[str] = AVERAGED_PIPES) -> Language:
    """RETURNS (Language): the first pipeline, its `pipes` averaged over all the pipelines."""
    if len(nlps) < 2:
        raise ValueError("a soup needs at least two pipelines")
    for name in pipes:
        average_weights([nlp.get_pipe(name).model for nlp in nlps])
    return nlps[0]


@app.command("fork-config")
def fork_config_cli(config_path: Path, base: str, output: Path) -> None:
    """Write the training config of a fork of the pipeline at BASE."""
    fork_config(Config().from_disk(config_path, interpolate=False), base).to_disk(output)
    msg.good(f"Wrote {output}")


@app.command("average")
def average_cli(output: Path, pipelines: List[Path]) -> None:
    """Average the tok2vec and ner weights of PIPELINES and save the result (the first one's other parts)."""
    import spacy

    import spacy_nseen  # noqa: F401  (registers the NER's own components and layers)
    from training.ner import bio_tokenizer  # noqa: F401  (the tokenizer callback the configs name)

    average_pipelines([spacy.load(path) for path in pipelines]).to_disk(output)
    msg.good(f"Averaged {len(pipelines)} pipelines into {output}")


if __name__ == "__main__":
    app()
