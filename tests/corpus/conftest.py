"""A tiny pipeline saved to disk (blank English + entity ruler + nseen_linker over the toy linkers of
`tests/conftest.py`), and a synthetic caption corpus, for the corpus annotation tests."""
import json
import random
from pathlib import Path
from typing import Callable, Dict, List

import pytest
import spacy

from tests.conftest import encoder_block

PROTEINS = ["FOXP2", "PLCγ2", "IKKε", "HRAS", "TP53", "S6K1", "mTOR", "PLC-gamma-1", "p53"]
CHEMICALS = ["caffeine", "ATP", "water", "ethanol", "glucose", "H2O"]
VERBS = ["binds", "phosphorylates", "is inhibited by", "was treated with", "co-localises with"]


@pytest.fixture(scope="session")
def tiny_pipeline(tmp_path_factory, linker_dirs: Dict[str, Path]) -> str:
    """RETURNS (str): The path of a saved pipeline whose entity ruler finds the toy names."""
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "PROTEIN", "pattern": p} for p in PROTEINS]
                       + [{"label": "CHEMICAL", "pattern": c} for c in CHEMICALS])
    nlp.add_pipe("nseen_linker", config={"kbs": {"PROTEIN": "uniprot", "CHEMICAL": "chebi"}, "encoder": encoder_block()})
    nlp.config["initialize"]["components"]["nseen_linker"] = {
        "linkers": {kb: str(linker_dirs[kb]) for kb in ("uniprot", "chebi")}
    }
    nlp.initialize()
    path = tmp_path_factory.mktemp("pipeline") / "tiny"
    nlp.to_disk(path)
    return str(path)


def caption_texts(n: int, seed: int = 0) -> List[str]:
    """RETURNS (List[str]): `n` deterministic synthetic captions mentioning the toy names."""
    rng = random.Random(seed)
    return [
        f"({chr(65 + i % 26)}) {rng.choice(PROTEINS)} {rng.choice(VERBS)} {rng.choice(CHEMICALS)} "
        f"and {rng.choice(PROTEINS)} in HeLa cells (n = {i})."
        for i in range(n)
    ]


@pytest.fixture
def write_jsonl() -> Callable[..., Path]:
    """Write a JSONL corpus of `n` captions (and optional raw extra lines appended as bytes)."""

    def write(path: Path, n: int, extra: bytes = b"") -> Path:
        lines = [json.dumps({"id": f"c{i}", "text": t, "pmc": "PMC1"}, ensure_ascii=False) for i, t in enumerate(caption_texts(n))]
        path.write_bytes(("\n".join(lines) + "\n").encode("utf-8") + extra)
        return path

    return write


def read_shards(output: Path, pattern: str = "shard-*.jsonl") -> List[str]:
    """RETURNS (List[str]): All output lines of a run's shards, in shard order."""
    return [line for f in sorted(output.glob(pattern)) for line in f.read_text(encoding="utf-8").splitlines()]
