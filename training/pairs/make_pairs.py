"""Pairs step: generate the labelled training pairs of NSEEN §3.1, with a seed.

    python -m training.pairs.make_pairs uniprot chebi --reference corpus/reference --out corpus/pairs --seed 0

Sets (each counted separately in `<out>/<KB>_pairs_stats.json`):
1. `semantic_positive` (label 1): pairs of names of the same entity. The paper
   takes the cross product; an entity with n names gives n(n-1)/2 unordered
   pairs. It is capped at `--max-positives-per-entity` (default 200) per
   entity: above the cap, every name is paired with the entity's first name
   (so each name keeps a positive, even if that exceeds the cap) and the rest of
   the cap is filled with random pairs. `semantic_negative` (label 0): random
   pairs of names of different entities (and different strings),
   `--negative-ratio` times the number of positives (default 1.0).
2. `variant_<measure>`: each reference name with each of its same-name variants
   (spacy_nseen/name_variants.py), labelled with the measure's similarity.
3. `family_<measure>`: a name of an entity with a name of another entity of the
   same family (UniProt: HGNC gene group, ChEBI: `is_a` siblings);
   `--family-pairs-per-entity` partners (default 5) per family membership.
4. `short_symbol` (label 1) and `short_stem` (label `--stem-label`, default 0.9), for the reference
   sets named by `--short-forms` (default: none; measured without gain, the linkers index the short forms
   instead: `build_linker --short-forms`): each name with the short forms authors write for
   it (spacy_nseen/text/short_forms.py), the symbol inside a descriptive name (`... protein LC3 A` ->
   `LC3 A`) and the family stem without the paralog letter (`ATG9A` -> `ATG9`, `LC3 B` -> `LC3`).
Measures: jaccard3, levenshtein, jaro_winkler (training/pairs/string_similarity.py).

`strings` holds one string per reference row (an ambiguous name appears once per
entity, aligned with the reference TSV rows), then the distinct variant strings.
"""
import json
import time
from pathlib import Path
from typing import Annotated, Dict, List, Optional, Tuple

import numpy as np
import typer
from spacy_nseen.progress import Progress, progress_iter
from wasabi import msg

from training.common.data_errors import DataFileError, run_cli
from spacy_nseen.text.short_forms import STEM_KIND, SYMBOL_KIND, reference_short_forms
from spacy_nseen.text.variants import same_name_variants
from .pair_store import PairStore
from .string_similarity import SIMILARITIES, pairwise_similarity
from training.common.tsv_io import iter_tsv

MEASURES = tuple(SIMILARITIES)


def read_reference(path: Path) -> Tuple[List[str], List[str], np.ndarray]:
    """Read a reference TSV.

    path (Path): `kb_id<TAB>name<TAB>kind` TSV (optionally gzipped).
    RETURNS (Tuple[List[str], List[str], np.ndarray]): entity ids, names (one per
        row) and the int32 entity index of each row.
    """
    entity_index: Dict[str, int] = {}
    names: List[str] = []
    row_entity: List[int] = []
    for row in iter_tsv(path, ("kb_id", "name")):
        if not row["kb_id"] or not row["name"]:
            raise DataFileError(path, f"empty kb_id or name in row {len(names) + 2}", "Rebuild the reference set")
        names.append(row["name"])
        row_entity.append(entity_index.setdefault(row["kb_id"], len(entity_index)))
    if not names:
        raise DataFileError(path, "reference set has no rows", "Rebuild the reference set")
    return list(entity_index), names, np.asarray(row_entity, dtype=np.int32)


def _entity_groups(row_entity: np.ndarray, n_entities: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows grouped by entity: (order, start, count) so rows of e are order[start[e]:start[e]+count[e]]."""
    order = np.argsort(row_entity, kind="stable").astype(np.int32)
    count = np.bincount(row_entity, minlength=n_entities).astype(np.int64)
    start = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.int64)
    return order, start, count


def semantic_positives(
    order: np.ndarray, start: np.ndarray, count: np.ndarray, cap: int, rng: np.random.Generator
) -> Tuple[np.ndarray, np.ndarray]:
    """All pairs of names of the same entity, capped per entity (see module docstring).

    RETURNS (Tuple[np.ndarray, np.ndarray]): Left and right row indices.
    """
    left: List[np.ndarray] = []
    right: List[np.ndarray] = []
    for e in np.flatnonzero(count >= 2):
        rows = order[start[e] : start[e] + count[e]]
        n = rows.size
        i, j = np.triu_indices(n, k=1)
        if i.size > cap:
            star = i == 0
            rest = np.flatnonzero(~star)
            extra = max(0, cap - (n - 1))
            keep = np.concatenate([np.flatnonzero(star), np.sort(rng.choice(rest, size=extra, replace=False))])
            i, j = i[keep], j[keep]
        left.append(rows[i])
        right.append(rows[j])
    if not left:
        return np.zeros(0, np.int32), np.zeros(0, np.int32)
    return np.concatenate(left).astype(np.int32), np.concatenate(right).astype(np.int32)


def semantic_negatives(
    names: List[str], row_entity: np.ndarray, n_pairs: int, rng: np.random.Generator
) -> Tuple[np.ndarray, np.ndarray]:
    """Random pairs of names of different entities (and different strings), distinct.

    RETURNS (Tuple[np.ndarray, np.ndarray]): Left and right row indices.
    """
    n_rows = row_entity.size
    if len(set(row_entity.tolist())) < 2 or n_pairs <= 0:
        return np.zeros(0, np.int32), np.zeros(0, np.int32)
    keys = np.zeros(0, dtype=np.int64)
    for _ in range(50):
        need = n_pairs - keys.size
        if need <= 0:
            break
        a = rng.integers(0, n_rows, size=need * 2 + 16)
        b = rng.integers(0, n_rows, size=a.size)
        ok = row_entity[a] != row_entity[b]
        ok &= np.fromiter((names[x] != names[y] for x, y in zip(a, b)), bool, a.size)
        lo, hi = np.minimum(a[ok], b[ok]), np.maximum(a[ok], b[ok])
        new = lo.astype(np.int64) * n_rows + hi
        keys = np.concatenate([keys, new[~np.isin(new, keys)]])
        _, first = np.unique(keys, return_index=True)
        keys = keys[np.sort(first)]
    keys = keys[:n_pairs]
    return (keys // n_rows).astype(np.int32), (keys % n_rows).astype(np.int32)


def family_pairs(
    names: List[str],
    order: np.ndarray,
    start: np.ndarray,
    count: np.ndarray,
    families: Dict[str, List[int]],
    per_entity: int,
    rng: np.random.Generator,
) -> Tuple[np.ndarray, np.ndarray]:
    """Pairs of names of two entities of the same family (distinct, different strings).

    families (Dict[str, List[int]]): family id -> member entity indices.
    per_entity (int): Partners drawn per family membership.
    RETURNS (Tuple[np.ndarray, np.ndarray]): Left and right row indices.
    """
    ent_a: List[np.ndarray] = []
    ent_b: List[np.ndarray] = []
    for members in families.values():
        m = np.asarray(sorted(set(members)), dtype=np.int64)
        if m.size < 2:
            continue
        k = min(per_entity, m.size - 1)
        pos = np.repeat(np.arange(m.size), k)
        offset = rng.integers(1, m.size, size=pos.size)
        ent_a.append(m[pos])
        ent_b.append(m[(pos + offset) % m.size])
    if not ent_a:
        return np.zeros(0, np.int32), np.zeros(0, np.int32)
    a, b = np.concatenate(ent_a), np.concatenate(ent_b)
    row_a = order[start[a] + (rng.random(a.size) * count[a]).astype(np.int64)]
    row_b = order[start[b] + (rng.random(b.size) * count[b]).astype(np.int64)]
    ok = np.fromiter((names[x] != names[y] for x, y in zip(row_a, row_b)), bool, row_a.size)
    lo, hi = np.minimum(row_a[ok], row_b[ok]), np.maximum(row_a[ok], row_b[ok])
    keys = lo.astype(np.int64) * len(names) + hi
    _, first = np.unique(keys, return_index=True)
    keys = keys[np.sort(first)]
    return (keys // len(names)).astype(np.int32), (keys % len(names)).astype(np.int32)


def read_families(path: Path, entity_index: Dict[str, int]) -> Dict[str, List[int]]:
    """Read a families TSV (`family_id<TAB>kb_id`), keeping entities of the reference set.

    RETURNS (Dict[str, List[int]]): family id -> member entity indices.
    """
    families: Dict[str, List[int]] = {}
    for row in iter_tsv(path, ("family_id", "kb_id")):
        e = entity_index.get(row["kb_id"])
        if e is not None:
            families.setdefault(row["family_id"], []).append(e)
    return families


def build_pair_store(
    reference: Path,
    families_path: Path,
    *,
    seed: int = 0,
    negative_ratio: float = 1.0,
    max_positives_per_entity: int = 200,
    family_pairs_per_entity: int = 5,
    workers: int = 1,
    casefold_labels: bool = True,
    short_forms: bool = False,
    stem_label: float = 0.9,
) -> Tuple[PairStore, Dict[str, object]]:
    """Generate all pair sets of one reference set.

    reference (Path): The reference TSV.
    families_path (Path): The families TSV (may be missing: no family pairs).
    seed (int): Random seed; the same inputs and seed give the same store.
    negative_ratio (float): Random negatives per positive.
    max_positives_per_entity (int): Cap on positive pairs per entity.
    family_pairs_per_entity (int): Partners per family membership.
    workers (int): Threads for rapidfuzz.
    casefold_labels (bool): Compute the similarity labels on case-folded strings, so a pure case
        variant (`RAS`/`ras`) is labelled 1 instead of being pushed apart (case-sensitive Levenshtein
        of `RAS` and `ras` is 0).
    short_forms (bool): Add the `short_symbol` and `short_stem` sets (module docstring, set 4).
    stem_label (float): The label of a name and its family stem, in [0, 1].
    RETURNS (Tuple[PairStore, Dict[str, object]]): The store and statistics.
    """
    if not 0.0 <= stem_label <= 1.0:
        raise ValueError(f"stem_label must be in [0, 1], got {stem_label}")
    rng = np.random.default_rng(seed)
    entity_ids, names, row_entity = read_reference(reference)
    store = PairStore(names, row_entity, entity_ids, seed=seed)
    order, start, count = _entity_groups(row_entity, len(entity_ids))
    stats: Dict[str, object] = {"reference": str(reference), "seed": seed, "entities": len(entity_ids), "names": len(names)}
    timings: Dict[str, float] = {}

    t = time.time()
    left, right = semantic_positives(order, start, count, max_positives_per_entity, rng)
    store.append(left, right, 1.0, "semantic_positive")
    n_neg = int(round(left.size * negative_ratio))
    nl, nr = semantic_negatives(names, row_entity, n_neg, rng)
    store.append(nl, nr, 0.0, "semantic_negative")
    stats["entities_over_positive_cap"] = int(np.sum(count * (count - 1) // 2 > max_positives_per_entity))
    timings["semantic"] = time.time() - t

    t = time.time()
    first_row: Dict[str, int] = {}
    for i, name in enumerate(names):
        first_row.setdefault(name, i)
    var_left: List[int] = []
    var_strings: List[str] = []
    kinds: Dict[str, int] = {}
    for name, i in progress_iter(first_row.items(), "variants", total=len(first_row), unit="names"):
        for variant, kind in same_name_variants(name):
            var_left.append(i)
            var_strings.append(variant)
            kinds[kind] = kinds.get(kind, 0) + 1
    var_right = store.add_strings(var_strings)
    vl = np.asarray(var_left, dtype=np.int32)
    stats["variant_kinds"] = kinds
    stats["variant_strings_new"] = int(np.sum(store.string_entity == -1))
    timings["variants"] = time.time() - t

    t = time.time()
    fl = fr = np.zeros(0, np.int32)
    if families_path.exists():
        entity_index = {e: i for i, e in enumerate(entity_ids)}
        fams = read_families(families_path, entity_index)
        fl, fr = family_pairs(names, order, start, count, fams, family_pairs_per_entity, rng)
        stats["families_used"] = sum(1 for m in fams.values() if len(set(m)) >= 2)
    else:
        msg.warn(f"No families file {families_path}: no family pairs")
    timings["families"] = time.time() - t

    t = time.time()
    all_strings = store.strings
    with Progress("similarity labels", total=2 * len(MEASURES), unit="pair sets") as bar:
        for prefix, a, b in (("variant", vl, var_right), ("family", fl, fr)):
            sa, sb = all_strings[a].tolist(), all_strings[b].tolist()
            if casefold_labels:
                sa, sb = [x.casefold() for x in sa], [x.casefold() for x in sb]
            for measure in MEASURES:
                labels = pairwise_similarity(measure, sa, sb, workers=workers)
                store.append(a, b, labels, f"{prefix}_{measure}")
                bar.update(1)
    timings["labels"] = time.time() - t

    if short_forms:
        t = time.time()
        forms = reference_short_forms(names, row_entity.tolist())
        for kind, label in ((SYMBOL_KIND, 1.0), (STEM_KIND, stem_label)):
            chosen = [(row, form) for row, form, k in forms if k == kind]
            left_rows = np.asarray([row for row, _ in chosen], dtype=np.int32)
            store.append(left_rows, store.add_strings([form for _, form in chosen]), label, f"short_{kind}")
        timings["short_forms"] = time.time() - t
    counts = store.counts()
    stats["pairs"] = counts
    stats["pairs_total"] = len(store)
    stats["label_mean"] = {
        name: round(float(store.label[store.set_mask(name)].mean()), 4) if counts[name] else None
        for name in store.set_names
    }
    stats["settings"] = {
        "negative_ratio": negative_ratio,
        "max_positives_per_entity": max_positives_per_entity,
        "family_pairs_per_entity": family_pairs_per_entity,
        "casefold_labels": casefold_labels,
        "short_forms": short_forms,
        "stem_label": stem_label if short_forms else None,
    }
    stats["seconds"] = {k: round(v, 2) for k, v in timings.items()}
    return store, stats


def make_pairs(
    kbs: List[str] = typer.Argument(..., help="Reference sets: uniprot, chebi (files <reference>/<KB>.tsv.gz)"),
    reference_dir: Path = typer.Option(Path("corpus/reference"), "--reference", help="The parse step's output directory"),
    out: Path = typer.Option(Path("corpus/pairs"), "--out", "-o", help="Output directory"),
    seed: int = typer.Option(0, help="Random seed"),
    negative_ratio: float = typer.Option(1.0, help="Random negatives per positive pair"),
    max_positives_per_entity: int = typer.Option(200, help="Cap on positive pairs per entity"),
    family_pairs_per_entity: int = typer.Option(5, help="Partners per entity and family"),
    workers: int = typer.Option(1, help="Threads for the string similarities"),
    casefold_labels: bool = typer.Option(True, help="Similarity labels on case-folded strings"),
    short_forms_for: Annotated[Optional[List[str]], typer.Option(
        "--short-forms", help="Reference sets that get the short-form pair sets (repeat the option); none by default: "
                              "measured without gain (results/encoder_experiments/README.md)")] = None,
    stem_label: Annotated[float, typer.Option(min=0.0, max=1.0, help="Label of a name and its family stem (ATG9A, ATG9)")] = 0.9,
) -> None:
    """Generate the semantic, variant and family pair sets into OUT/<KB>_pairs.npz."""
    for kb in kbs:
        start = time.time()
        reference = reference_dir / f"{kb}.tsv.gz"
        msg.info(f"{kb}: generating pairs from {reference}")
        store, stats = build_pair_store(
            reference,
            reference_dir / f"{kb}_families.tsv",
            seed=seed,
            negative_ratio=negative_ratio,
            max_positives_per_entity=max_positives_per_entity,
            family_pairs_per_entity=family_pairs_per_entity,
            workers=workers,
            casefold_labels=casefold_labels,
            short_forms=kb in (short_forms_for or ()),
            stem_label=stem_label,
        )
        out.mkdir(parents=True, exist_ok=True)
        store.save(out / f"{kb}_pairs.npz")
        stats["seconds"]["total"] = round(time.time() - start, 2)  # type: ignore[index]
        (out / f"{kb}_pairs_stats.json").write_text(json.dumps(stats, indent=2) + "\n")
        msg.good(f"{kb}: {len(store):,} pairs, {len(store.strings):,} strings -> {out / (kb + '_pairs.npz')} in {time.time() - start:.1f}s")
        msg.table([(name, f"{n:,}") for name, n in stats["pairs"].items()])  # type: ignore[union-attr]


if __name__ == "__main__":
    run_cli(make_pairs)
