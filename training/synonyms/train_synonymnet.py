"""Train SynonymNet on the synonym pairs of a reference set (train entities), choose the epoch on the dev entities,
fit the string + context combination on the dev entities, save the model.

    python -m training.synonyms.train_synonymnet corpus/synonyms/uniprot_pairs.json CONTEXTS... \\
        --out training_output/synonyms/uniprot --loss siamese --max-minutes 12

The word vocabulary is read from all contexts of the contexts files (unlabelled text, no labels). Each step
draws up to `--contexts` contexts of each name at random. `--loss siamese` trains on the labelled pairs (eq. 5-6);
`--loss triplet` on (anchor, positive, negative) triples of the train pairs sharing an anchor (eq. 7). After each
epoch the context-only AUC on the dev pairs is measured; the best epoch's weights are kept. Writes
`OUT/synonymnet.json` + `OUT/synonymnet.safetensors` (the combination in its `extra`) and `OUT/training.json`.
"""

import json
import random
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy
import torch
import typer
from wasabi import msg

from spacy_nseen.linker.nil_metrics import roc_auc
from spacy_nseen.synonyms.combination import ScoreCombiner
from spacy_nseen.synonyms.context_layer import (
    build_synonymnet,
    get_torch_module,
    pair_scores,
    pair_scores_torch,
    save_synonymnet,
    set_word_vocab,
)
from spacy_nseen.synonyms.contexts import MentionContext, MentionStats
from spacy_nseen.synonyms.synonymnet import LOSSES, siamese_loss, triplet_loss
from spacy_nseen.synonyms.word_vocab import WordVocab
from training.common.data_errors import run_cli
from training.synonyms.make_pairs import read_all_contexts

Pair = Dict[str, object]


def name_contexts(names: Dict[str, Dict[str, object]], stats: Dict[str, MentionStats]) -> Dict[str, List[MentionContext]]:
    """RETURNS (Dict[str, List[MentionContext]]): name key -> the pooled contexts of its surfaces."""
    out: Dict[str, List[MentionContext]] = {}
    for key, info in names.items():
        pooled: List[MentionContext] = []
        for surface in info["surfaces"]:  # type: ignore[attr-defined]
            if surface in stats:
                pooled.extend(stats[surface].contexts)
        out[key] = pooled
    return out


def sample(contexts: Sequence[MentionContext], k: int, rng: random.Random) -> List[MentionContext]:
    """RETURNS (List[MentionContext]): up to k contexts drawn at random."""
    return list(contexts) if len(contexts) <= k else rng.sample(list(contexts), k)


def fixed(contexts: Sequence[MentionContext], k: int) -> List[MentionContext]:
    """RETURNS (List[MentionContext]): the first k contexts (the evaluation's deterministic choice)."""
    return list(contexts)[:k]


def score_pairs(model, pairs: Sequence[Pair], contexts: Dict[str, List[MentionContext]], k: int) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): the context-only scores of pairs (name keys a, b)."""
    inputs = [(fixed(contexts[str(p["a"])], k), fixed(contexts[str(p["b"])], k)) for p in pairs]
    return pair_scores(model, inputs)


def self_pair_examples(
    train: Sequence[Pair], pooled: Dict[str, List[MentionContext]], per_name: int, rng: random.Random
) -> List[Pair]:
    """RETURNS (List[Pair]): for each train name with at least 4 contexts, `per_name` positives of the name with
    itself (two disjoint halves of its contexts: `pair_inputs`) and as many negatives with another train name."""
    names = sorted({str(p[side]) for p in train for side in ("a", "b")})
    rich = [n for n in names if len(pooled[n]) >= 4]
    out: List[Pair] = []
    for name in rich:
        for _ in range(per_name):
            out.append({"a": name, "b": name, "label": 1, "kind": "self"})
            other = names[rng.randrange(len(names))]
            if other != name:
                out.append({"a": name, "b": other, "label": 0, "kind": "self_random"})
    return out


def pair_inputs(
    pair: Pair, pooled: Dict[str, List[MentionContext]], k: int, rng: random.Random
) -> Tuple[List[MentionContext], List[MentionContext]]:
    """RETURNS (Tuple): the contexts of both sides; a name paired with itself gets two disjoint halves."""
    a, b = str(pair["a"]), str(pair["b"])
    if a != b:
        return sample(pooled[a], k, rng), sample(pooled[b], k, rng)
    shuffled = rng.sample(list(pooled[a]), len(pooled[a]))
    half = len(shuffled) // 2
    return shuffled[:half][:k], shuffled[half:][:k]


def triples(pairs: Sequence[Pair]) -> List[Tuple[str, str, str]]:
    """RETURNS (List[Tuple[str, str, str]]): (anchor, positive, negative) from pairs sharing their first name."""
    positives: Dict[str, List[str]] = {}
    negatives: Dict[str, List[str]] = {}
    for p in pairs:
        (positives if p["label"] == 1 else negatives).setdefault(str(p["a"]), []).append(str(p["b"]))
    return [(a, b, c) for a, bs in positives.items() for b in bs for c in negatives.get(a, [])]


def main(
    pairs_path: Path = typer.Argument(..., help="The pairs file (training.synonyms.make_pairs)"),
    contexts: List[Path] = typer.Argument(..., help="The contexts files the pairs were made from"),
    out: Path = typer.Option(..., "--out", help="Output directory of the model"),
    loss: str = typer.Option("siamese", help=f"One of {LOSSES}"),
    n_contexts: int = typer.Option(8, "--contexts", help="Contexts per name (P = Q)"),
    window: int = typer.Option(20, help="Words read on each side of the mention"),
    word_width: int = typer.Option(64),
    hidden_width: int = typer.Option(64),
    leaky: bool = typer.Option(True, "--leaky/--no-leaky", help="The leaky unit (--no-leaky: the ablation)"),
    margin: float = typer.Option(0.3, help="The loss margin m"),
    batch_size: int = typer.Option(32),
    learning_rate: float = typer.Option(2e-3),
    max_epochs: int = typer.Option(30),
    max_minutes: float = typer.Option(12.0, help="Stop after this many minutes of training"),
    max_words: int = typer.Option(20000, help="Word vocabulary size"),
    seed: int = typer.Option(0),
    threads: int = typer.Option(1),
    self_pairs: int = typer.Option(0, help="Siamese: per train name with 4+ contexts, this many pairs of the name with "
                                           "itself (disjoint halves of its contexts) and as many random negatives"),
) -> None:
    """Train the context model on the train entities' pairs; choose the epoch on the dev entities."""
    if loss not in LOSSES:
        msg.fail(f"--loss must be one of {LOSSES}, got {loss!r}", exits=2)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rng = random.Random(seed)
    data = json.loads(pairs_path.read_text(encoding="utf8"))
    stats = read_all_contexts(contexts)
    names = data["names"]
    pooled = name_contexts(names, stats)
    vocab = WordVocab.from_texts((c.text for item in stats.values() for c in item.contexts), max_words=max_words)
    model = build_synonymnet(vocab.size, word_width, hidden_width, leaky, 0.1, window, n_contexts, 64)
    set_word_vocab(model, vocab)
    module = get_torch_module(model)
    optimizer = torch.optim.Adam(module.parameters(), lr=learning_rate)
    train = [p for p in data["pairs"] if p["split"] == "train"]
    dev = [p for p in data["pairs"] if p["split"] == "dev"]
    dev_labels = numpy.array([p["label"] for p in dev])
    examples: List = train if loss == "siamese" else triples(train)
    if loss == "siamese" and self_pairs > 0:
        examples = examples + self_pair_examples(train, pooled, self_pairs, rng)
    msg.info(f"{len(train)} train pairs ({len(examples)} {loss} examples), {len(dev)} dev pairs, {vocab.size} words")
    started = time.perf_counter()
    cpu_started = time.process_time()
    best: Optional[Dict[str, object]] = None
    history = []
    for epoch in range(max_epochs):
        module.train()
        rng.shuffle(examples)
        total = 0.0
        for start in range(0, len(examples), batch_size):
            batch = examples[start : start + batch_size]
            if loss == "siamese":
                inputs = [pair_inputs(p, pooled, n_contexts, rng) for p in batch]
                scores = pair_scores_torch(model, inputs)
                labels = torch.tensor([float(p["label"]) for p in batch])
                value = siamese_loss(scores, labels, margin)
            else:
                anchors = [sample(pooled[a], n_contexts, rng) for a, _, _ in batch]
                positives = [sample(pooled[b], n_contexts, rng) for _, b, _ in batch]
                negatives = [sample(pooled[c], n_contexts, rng) for _, _, c in batch]
                scores = pair_scores_torch(model, list(zip(anchors, positives)) + list(zip(anchors, negatives)))
                value = triplet_loss(scores[: len(batch)], scores[len(batch) :], margin)
            optimizer.zero_grad()
            value.backward()
            optimizer.step()
            total += float(value.detach()) * len(batch)
        dev_scores = score_pairs(model, dev, pooled, n_contexts)
        auc = roc_auc(dev_scores, dev_labels)
        minutes = (time.perf_counter() - started) / 60
        history.append({"epoch": epoch + 1, "loss": total / max(len(examples), 1), "dev_context_auc": auc, "minutes": round(minutes, 2)})
        msg.text(f"epoch {epoch + 1}: loss {total / max(len(examples), 1):.4f}, dev context AUC {auc:.4f} ({minutes:.1f} min)")
        if best is None or auc > float(best["auc"]):  # type: ignore[arg-type]
            best = {"auc": auc, "epoch": epoch + 1, "state": {k: v.detach().clone() for k, v in module.state_dict().items()}}
        if minutes >= max_minutes:
            break
    assert best is not None
    module.load_state_dict(best["state"])  # type: ignore[arg-type]
    dev_scores = score_pairs(model, dev, pooled, n_contexts)
    dev_string = numpy.array([p["string_score"] for p in dev], dtype=numpy.float64)
    combiner = ScoreCombiner.fit(dev_string, dev_scores.astype(numpy.float64), dev_labels)
    settings = {"loss": loss, "contexts": n_contexts, "window": window, "word_width": word_width,
                "hidden_width": hidden_width, "leaky": leaky, "margin": margin, "batch_size": batch_size,
                "learning_rate": learning_rate, "seed": seed, "max_words": max_words, "self_pairs": self_pairs}
    save_synonymnet(model, out, {"combination": combiner.to_json(), "settings": settings, "pairs": str(pairs_path),
                                 "best_epoch": best["epoch"], "dev_context_auc": best["auc"]})
    report = {"settings": settings, "history": history, "best_epoch": best["epoch"], "dev_context_auc": best["auc"],
              "combination": combiner.to_json(), "wall_seconds": round(time.perf_counter() - started, 1),
              "cpu_seconds": round(time.process_time() - cpu_started, 1)}
    (out / "training.json").write_text(json.dumps(report, indent=2), encoding="utf8")
    msg.good(f"best epoch {best['epoch']} (dev context AUC {best['auc']:.4f}) -> {out}")


if __name__ == "__main__":
    run_cli(main)
