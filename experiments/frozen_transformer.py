"""A frozen transformer for `configs/ner_trf.cfg`: `spacy train` does not initialise a frozen component (its listener
then has no width), so this saves a pipeline holding only the initialised transformer and writes a copy of the config
that sources it, frozen and annotating (results/ner_pretrain/README.md, "The MiniLM accurate variant").

    PYTHONPATH=MINILM_SITE python -m experiments.frozen_transformer configs/ner_trf.cfg MODEL_DIR \\
        training_output/minilm/base training_output/minilm/ner_trf_frozen.cfg
"""
import re
from pathlib import Path

import spacy
import typer
from spacy.training import Example
from spacy.util import load_config, load_model_from_config
from wasabi import msg

app = typer.Typer(add_completion=False, help=__doc__.split("\n\n")[0])

_TRANSFORMER_BLOCK = re.compile(
    r'\[components\.transformer\]\nfactory = "transformer"[\s\S]*?\[components\.transformer\.model\.transformer_config\]\n'
)


def frozen_config(text: str, source: str) -> str:
    """RETURNS (str): the config text with `[components.transformer]` sourced from `source`, frozen and annotating."""
    if not _TRANSFORMER_BLOCK.search(text):
        raise ValueError("the config has no [components.transformer] block ending in its transformer_config")
    text = _TRANSFORMER_BLOCK.sub(f'[components.transformer]\nsource = "{source}"\n', text)
    old = 'frozen_components = []\nannotating_components = ["name_features"]'
    if old not in text:
        raise ValueError(f"the config's [training] does not read {old!r}")
    return text.replace(old, 'frozen_components = ["transformer"]\nannotating_components = ["name_features", "transformer"]')


@app.command()
def main(
    config: Path = typer.Argument(..., help="configs/ner_trf.cfg"),
    model_dir: Path = typer.Argument(..., help="The transformer's directory (paths.transformer)"),
    base: Path = typer.Argument(..., help="Writes the pipeline holding only the initialised transformer here"),
    output: Path = typer.Argument(..., help="Writes the frozen config here"),
) -> None:
    """Save the initialised transformer and the config that sources it frozen."""
    nlp = load_model_from_config(load_config(config, overrides={"paths.transformer": str(model_dir)}), auto_fill=True)
    docs = [nlp.make_doc("LC3 and p62 in HeLa cells")]
    nlp.get_pipe("transformer").initialize(lambda: [Example(doc, doc) for doc in docs], nlp=nlp)
    holder = spacy.blank(nlp.lang)
    holder.add_pipe("transformer", source=nlp)
    holder.to_disk(base)
    output.write_text(frozen_config(config.read_text(encoding="utf8"), str(base)), encoding="utf8")
    msg.good(f"Wrote {base} and {output}")


if __name__ == "__main__":
    app()
