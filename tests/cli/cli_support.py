"""Shared by the command-line tests: the shipped example and a pipeline that links with a built KB."""
from pathlib import Path
from typing import Sequence

import spacy
from spacy.tokens import Doc

from spacy_nseen import encoder_block
from spacy_nseen.parts.kb_loaders import linker_directory

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CELL_LINES = EXAMPLES / "my_kb" / "cell_lines.tsv"


def link(linker_dir: Path, text: str, names: Sequence[str]) -> Doc:
    """Tag `names` as CELL_LINE (an entity ruler) and link them with the linker directory `linker_dir`."""
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns([{"label": "CELL_LINE", "pattern": n} for n in names])
    nlp.add_pipe("nseen_linker", config={"kbs": {"cells": {"labels": ["CELL_LINE"]}}, "encoder": encoder_block(linker_dir)})
    nlp.get_pipe("nseen_linker").initialize(lambda: [], nlp=nlp, kb_loaders={"cells": linker_directory(linker_dir)})
    return nlp(text)
