"""A tiny pipeline saved to disk (blank English + entity ruler + nseen_linker over the toy linkers of
`tests/conftest.py`), and a synthetic caption corpus, for the corpus annotation tests."""
import json
from pathlib import Path
from typing import Callable, Dict

import pytest
import spacy
from corpus_support import CHEMICALS, PROTEINS, caption_texts

from spacy_nseen.parts.kb_loaders import linker_directory_block
from tests.conftest import encoder_block


@pytest.fixture(scope="session")
def tiny_pipeline(tmp_path_factory, linker_dirs: Dict[str, Path]) -> str:
    """RETURNS (str): The path of a saved pipeline whose entity ruler finds the toy names."""
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    nlp.add_pipe("nseen_linker", config={"kbs": {"uniprot": {"labels": ["PROTEIN"]}, "chebi": {"labels": ["CHEMICAL"]}},
                                         "encoder": encoder_block()})
    nlp.config["initialize"]["components"]["nseen_linker"] = {
        "kb_loaders": {kb: linker_directory_block(linker_dirs[kb]) for kb in ("uniprot", "chebi")}
    }
    nlp.initialize()  # clears the ruler's patterns: add them after
    ruler.add_patterns([{"label": "PROTEIN", "pattern": p} for p in PROTEINS]
                       + [{"label": "CHEMICAL", "pattern": c} for c in CHEMICALS])
    path = tmp_path_factory.mktemp("pipeline") / "tiny"
    nlp.to_disk(path)
    return str(path)


@pytest.fixture
def write_jsonl() -> Callable[..., Path]:
    """Write a JSONL corpus of `n` captions (and optional raw extra lines appended as bytes)."""

    def write(path: Path, n: int, extra: bytes = b"") -> Path:
        lines = [json.dumps({"id": f"c{i}", "text": t, "pmc": "PMC1"}, ensure_ascii=False) for i, t in enumerate(caption_texts(n))]
        path.write_bytes(("\n".join(lines) + "\n").encode("utf-8") + extra)
        return path

    return write
