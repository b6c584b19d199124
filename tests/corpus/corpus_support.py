"""Helpers of the corpus tests: the toy names, synthetic captions and reading a run's shards."""
import random
from pathlib import Path
from typing import List

PROTEINS = ["FOXP2", "PLCγ2", "IKKε", "HRAS", "TP53", "S6K1", "mTOR", "PLC-gamma-1", "p53"]
CHEMICALS = ["caffeine", "ATP", "water", "ethanol", "glucose", "H2O"]
VERBS = ["binds", "phosphorylates", "is inhibited by", "was treated with", "co-localises with"]


def caption_texts(n: int, seed: int = 0) -> List[str]:
    """RETURNS (List[str]): `n` deterministic synthetic captions mentioning the toy names."""
    rng = random.Random(seed)
    return [
        f"({chr(65 + i % 26)}) {rng.choice(PROTEINS)} {rng.choice(VERBS)} {rng.choice(CHEMICALS)} "
        f"and {rng.choice(PROTEINS)} in HeLa cells (n = {i})."
        for i in range(n)
    ]


def read_shards(output: Path, pattern: str = "shard-*.jsonl") -> List[str]:
    """RETURNS (List[str]): All output lines of a run's shards, in shard order."""
    return [line for f in sorted(output.glob(pattern)) for line in f.read_text(encoding="utf-8").splitlines()]
