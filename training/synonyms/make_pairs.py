"""Synonym pairs of a reference set from the corpus, split by entity, with no Bio-ID gold.

    python -m training.synonyms.make_pairs CONTEXTS... --linker PIPELINE/nseen_linker/kb_uniprot \\
        --label PROTEIN --label GENE --out corpus/synonyms/uniprot_pairs.json

A **name** is a mention string of the corpus (`spacy-nseen collect-contexts` output) that is a name of 1 to
`--max-entities` entities of the reference set (by loose key: `LC3B`, `Lc3b` and `LC3-B` are one name, their
contexts pooled) and has at least `--min-contexts` contexts. Names that share an entity are joined into groups
(connected components); groups are split into train / dev / test by a hash of the group (`--dev`, `--test`
shares), so no entity is in two splits. **Positives**: two names of one entity. **Negatives**, per positive
(a, b): a random name c of the same split with no entity of a (`random`), and the name of the same split nearest
to a by the NSEEN string encoder with no entity of a (`string_similar`). Every pair carries the NSEEN string
score (cosine of the encoder's vectors). No Bio-ID mention or id is read.
"""

import hashlib
import json
import random
import time
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import numpy
import typer
from wasabi import msg

from spacy_nseen.linker.kb_linker import load_linker
from spacy_nseen.synonyms.contexts import MentionStats, merge, read_contexts
from spacy_nseen.synonyms.name_lookup import NameLookup
from spacy_nseen.text.normalization import loose_key
from training.common.data_errors import run_cli
from training.common.union_find import smallest_members

SPLITS = ("train", "dev", "test")


def read_all_contexts(paths: Sequence[Path]) -> Dict[str, MentionStats]:
    """RETURNS (Dict[str, MentionStats]): the stats of several contexts files merged (up to their sample size)."""
    stats: Dict[str, MentionStats] = {}
    for path in paths:
        more, header = read_contexts(path)
        stats = merge(stats, more, int(header.get("max_contexts", 16)))
    return stats


def names_of_corpus(
    stats: Dict[str, MentionStats],
    lookup: NameLookup,
    labels: Optional[Sequence[str]],
    min_contexts: int,
    max_entities: int,
) -> Dict[str, Dict[str, object]]:
    """RETURNS (Dict[str, Dict[str, object]]): loose key -> {"surfaces": [mention strings, most frequent first],
    "entities": [kb_ids], "n_contexts": int} for the corpus strings that name 1..max_entities entities."""
    grouped: Dict[str, List[MentionStats]] = defaultdict(list)
    for item in stats.values():
        if labels and item.label not in labels:
            continue
        key = loose_key(item.mention)
        if key:
            grouped[key].append(item)
    names: Dict[str, Dict[str, object]] = {}
    for key, items in grouped.items():
        entities = lookup.entities.get(key)
        n_contexts = sum(len(item.contexts) for item in items)
        if not entities or len(entities) > max_entities or n_contexts < min_contexts:
            continue
        items.sort(key=lambda item: (-item.n_mentions, item.mention))
        names[key] = {"surfaces": [item.mention for item in items], "entities": sorted(entities), "n_contexts": n_contexts}
    return names


def groups_of(names: Dict[str, Dict[str, object]]) -> Dict[str, str]:
    """RETURNS (Dict[str, str]): name key -> group id (the smallest entity of its connected component)."""
    entities_of = {key: [str(entity) for entity in info["entities"]] for key, info in names.items()}  # type: ignore[attr-defined]
    group = smallest_members(entities_of.values())
    return {key: group[entities[0]] for key, entities in entities_of.items()}


def split_of(group: str, dev: float, test: float, seed: int) -> str:
    """RETURNS (str): "train", "dev" or "test" for a group, by a hash of its id and the seed."""
    value = int.from_bytes(hashlib.blake2b(f"{seed}:{group}".encode(), digest_size=8).digest(), "big") / 2**64
    return "test" if value < test else "dev" if value < test + dev else "train"


def make_pairs(
    names: Dict[str, Dict[str, object]],
    vectors: numpy.ndarray,
    splits: Dict[str, str],
    max_positives_per_entity: int,
    seed: int,
) -> List[Dict[str, object]]:
    """RETURNS (List[Dict[str, object]]): pairs {a, b, label, kind, split, string_score} (a, b: name keys)."""
    rng = random.Random(seed)
    keys = sorted(names)
    row = {key: i for i, key in enumerate(keys)}
    by_entity: Dict[str, List[str]] = defaultdict(list)
    for key in keys:
        for kb_id in names[key]["entities"]:  # type: ignore[attr-defined]
            by_entity[kb_id].append(key)
    by_split: Dict[str, List[str]] = defaultdict(list)
    for key in keys:
        by_split[splits[key]].append(key)
    pairs: List[Dict[str, object]] = []
    seen = set()

    def shares(a: str, b: str) -> bool:
        return bool(set(names[a]["entities"]) & set(names[b]["entities"]))  # type: ignore[call-overload]

    def add(a: str, b: str, label: int, kind: str) -> None:
        pair = (min(a, b), max(a, b))
        if pair in seen or a == b:
            return
        seen.add(pair)
        score = float(vectors[row[a]] @ vectors[row[b]])
        pairs.append({"a": a, "b": b, "label": label, "kind": kind, "split": splits[a], "string_score": score})

    split_rows = {split: numpy.array([row[k] for k in members]) for split, members in by_split.items()}
    for kb_id in sorted(by_entity):
        members = by_entity[kb_id]
        candidates = [(a, b) for i, a in enumerate(members) for b in members[i + 1 :]]
        rng.shuffle(candidates)
        for a, b in candidates[:max_positives_per_entity]:
            if splits[a] != splits[b]:
                continue
            before = len(pairs)
            add(a, b, 1, "positive")
            if len(pairs) == before:
                continue
            pool = by_split[splits[a]]
            for _ in range(20):
                c = pool[rng.randrange(len(pool))]
                if not shares(a, c):
                    add(a, c, 0, "random")
                    break
            sims = vectors[split_rows[splits[a]]] @ vectors[row[a]]
            for index in numpy.argsort(-sims)[:50]:
                c = pool[int(index)]
                if c != a and not shares(a, c):
                    add(a, c, 0, "string_similar")
                    break
    return pairs


def main(
    contexts: List[Path] = typer.Argument(..., help="contexts files (spacy-nseen collect-contexts)"),
    linker: Path = typer.Option(..., "--linker", help="The reference set's linker directory (encoder + names)"),
    out: Path = typer.Option(..., "--out", help="The pairs file to write (.json)"),
    label: Optional[List[str]] = typer.Option(None, "--label", help="Entity labels of this reference set (repeatable)"),
    min_contexts: int = typer.Option(2, help="Contexts a name needs"),
    max_entities: int = typer.Option(6, help="Names of more entities are too ambiguous to pair"),
    max_positives_per_entity: int = typer.Option(10, help="Positive pairs per entity at most"),
    dev: float = typer.Option(0.15, help="Share of the entity groups in dev"),
    test: float = typer.Option(0.15, help="Share of the entity groups in test"),
    seed: int = typer.Option(0, help="Seed of the split and the negatives"),
) -> None:
    """Write the synonym pairs of one reference set (positives, random and string-similar negatives), split by entity."""
    started = time.perf_counter()
    stats = read_all_contexts(contexts)
    kb_linker = load_linker(linker, with_nil_model=False, require_prior=False)
    lookup = NameLookup(kb_linker.reference_set)
    names = names_of_corpus(stats, lookup, label, min_contexts, max_entities)
    groups = groups_of(names)
    splits = {key: split_of(groups[key], dev, test, seed) for key in names}
    keys = sorted(names)
    vectors = kb_linker.encode([names[key]["surfaces"][0] for key in keys])  # type: ignore[index]
    pairs = make_pairs(names, vectors, splits, max_positives_per_entity, seed)
    counts = {
        split: {kind: sum(1 for p in pairs if p["split"] == split and p["kind"] == kind) for kind in ("positive", "random", "string_similar")}
        for split in SPLITS
    }
    for key in names:
        names[key]["split"] = splits[key]
        names[key]["group"] = groups[key]
    payload = {
        "linker": str(linker),
        "contexts": [str(p) for p in contexts],
        "labels": label or [],
        "settings": {"min_contexts": min_contexts, "max_entities": max_entities, "dev": dev, "test": test, "seed": seed,
                     "max_positives_per_entity": max_positives_per_entity},
        "counts": counts,
        "names": names,
        "pairs": pairs,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf8")
    msg.good(f"{len(names)} names, {len(pairs)} pairs {counts} -> {out} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    run_cli(main)
