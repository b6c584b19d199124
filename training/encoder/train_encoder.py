"""Train one NSEEN encoder from a pair store, with rounds of hard-negative mining (Algorithm 1).

    python -m training.encoder.train_encoder corpus/pairs/uniprot_pairs.npz corpus/reference/uniprot.tsv.gz \
        training_output/uniprot --rounds 3 --max-minutes 40

Writes `<output>/encoder/` (safetensors weights, vocabulary, config), `<output>/linker/` (the encoder
plus the reference set's Annoy index and TF-IDF matrix, loadable by `nseen_linker`), `<output>/log.jsonl`,
`<output>/training_summary.json` and `<output>/checkpoint/` (for `--resume`).
"""
import json
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import numpy
import torch
import typer
from spacy.util import registry
from wasabi import msg

from spacy_nseen.encoder.vocab import DEFAULT_NORMALIZATION, CharVocab, normalizer
from spacy_nseen.encoder.weights_io import load_encoder_weights, save_encoder
from spacy_nseen.encoder.layer import ARCHITECTURE, encoder_defaults, set_char_vocab
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.progress import Progress
from spacy_nseen.reference.reference_set import ReferenceSet
from spacy_nseen.reference.short_form_names import with_short_forms
from spacy_nseen.encoder_training.rounds import RoundReport, train_in_rounds
from spacy_nseen.encoder_training.siamese import SiameseTrainer, StepStats, TrainingSettings

from training.common.data_errors import DataFileError, run_cli
from training.pairs.pair_store import PairStore

# the encoder shape's defaults are the registered architecture's; project.yml gives every one (its encoder_* vars)
ENCODER = encoder_defaults()


def split_dev_names(name_entity: numpy.ndarray, n_dev: int, seed: int) -> numpy.ndarray:
    """Hold out one name each of `n_dev` entities with at least three names (never trained on).

    RETURNS (numpy.ndarray): the held-out name rows.
    """
    rng = numpy.random.default_rng(seed)
    counts = numpy.bincount(name_entity)
    eligible = numpy.flatnonzero(counts >= 3)
    chosen = rng.choice(eligible, size=min(n_dev, len(eligible)), replace=False)
    rows = []
    for entity in numpy.sort(chosen):
        candidates = numpy.flatnonzero(name_entity == entity)
        rows.append(int(rng.choice(candidates)))
    return numpy.asarray(sorted(rows), dtype=numpy.int64)


def dev_hits_at_1(vectors: numpy.ndarray, name_entity: numpy.ndarray, dev_rows: numpy.ndarray) -> float:
    """Hits@1 of the held-out names against all other names (exact search over the name vectors)."""
    if not len(dev_rows):
        return float("nan")
    keep = numpy.ones(len(vectors), dtype=bool)
    keep[dev_rows] = False
    index_rows = numpy.flatnonzero(keep)
    hits = 0
    for start in range(0, len(dev_rows), 256):
        rows = dev_rows[start : start + 256]
        best = numpy.argmax(vectors[rows] @ vectors[index_rows].T, axis=1)
        hits += int((name_entity[index_rows[best]] == name_entity[rows]).sum())
    return hits / len(dev_rows)


def parse_set_weights(text: str) -> Dict[str, float]:
    """Parse `semantic=1,family=0.3` into {"semantic": 1.0, "family": 0.3}."""
    weights: Dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        try:
            weights[key.strip()] = float(value)
        except ValueError:
            raise typer.BadParameter(f"expected prefix=weight, got {part!r}") from None
    return weights


def set_weight(set_name: str, weights: Dict[str, float]) -> float:
    """The weight of the longest prefix of `set_name` in `weights` (1.0 if none)."""
    matches = [k for k in weights if set_name.startswith(k)]
    return weights[max(matches, key=len)] if matches else 1.0


def train(
    pairs_path: Path = typer.Argument(..., help="Pair store (.npz) from training.pairs.make_pairs"),
    reference_path: Path = typer.Argument(..., help="Reference set TSV the pairs were made from"),
    output: Path = typer.Argument(..., help="Output directory"),
    kb_name: str = typer.Option("", "--kb-name", help="Reference set name (default: output dir name)"),
    vocab_size: int = typer.Option(ENCODER["vocab_size"], help="Character table size"),
    char_width: int = typer.Option(ENCODER["char_width"], help="Character embedding width"),
    hidden_width: int = typer.Option(ENCODER["hidden_width"], help="LSTM width per direction"),
    depth: int = typer.Option(ENCODER["depth"], help="BiLSTM layers (the paper's 4; the project's trained encoders: 2)"),
    output_width: int = typer.Option(ENCODER["output_width"], help="Embedding width"),
    pooling: str = typer.Option(ENCODER["pooling"], help="max, mean or last"),
    max_length: int = typer.Option(ENCODER["max_length"], help="Characters kept per name"),
    char_normalization: str = typer.Option(DEFAULT_NORMALIZATION, help="What the encoder reads: nfc (the name as written, the paper's) or fold (case folded, Greek spelled out, dashes unified)"),
    dropout: float = typer.Option(ENCODER["dropout"], help="Dropout"),
    batch_pairs: int = typer.Option(256, help="Labelled pairs per step"),
    in_batch_weight: float = typer.Option(1.0, help="Weight of the all-in-batch-pairs loss"),
    in_batch_loss: str = typer.Option("infonce", help="In-batch loss: infonce (softmax over each name's in-batch cosines; the measured winner) or contrastive (eq. 1 over all pairs, the paper's recipe)"),
    temperature: float = typer.Option(0.05, help="Softmax temperature of --in-batch-loss infonce"),
    learning_rate: float = typer.Option(2e-3, help="AdamW learning rate"),
    rounds: int = typer.Option(3, help="Training rounds; hard negatives are mined after each but the last"),
    epochs_per_round: float = typer.Option(1.0, help="Epochs over the pair store per round (fractions allowed)"),
    max_steps: int = typer.Option(0, help="Step budget for all rounds (0: epochs_per_round alone); 40% go to the first round, the rest is shared by the others. Makes a run independent of the machine's speed"),
    max_minutes: float = typer.Option(0.0, help="Safety guard in minutes for all rounds (0: none). When it stops training before the step budget, the run is reported as cut short in log.jsonl and training_summary.json"),
    hard_neighbors: int = typer.Option(5, help="Neighbours inspected per name when mining"),
    set_weights: str = typer.Option(
        "semantic=1,variant=1,family=1,hard_negative=1",
        help="Sampling weight per pair set (prefix of the set name); an epoch draws with replacement",
    ),
    n_dev: int = typer.Option(1000, help="Held-out reference names for the dev score"),
    n_trees: int = typer.Option(20, help="Annoy trees of the final index"),
    build_precision: str = typer.Option("bf16", "--build-precision", help="Encoder precision for the reference names of the final index: fp32, bf16 or int8"),
    threads: int = typer.Option(1, help="torch threads"),
    seed: int = typer.Option(0, help="Random seed"),
    resume: bool = typer.Option(False, help="Continue from <output>/checkpoint"),
    short_forms: bool = typer.Option(False, "--short-forms/--no-short-forms",
                                     help="The written linker also indexes the names' short forms (as build_linker --short-forms); training is unchanged"),
) -> None:
    """Train an NSEEN encoder and write it with its index as a linker directory."""
    try:  # TrainingSettings checks the loss settings: before minutes of loading, not after
        TrainingSettings(in_batch_loss=in_batch_loss, temperature=temperature)
    except ValueError as err:
        msg.fail(f"--in-batch-loss / --temperature: {err}", exits=1)
    try:
        normalizer(char_normalization)
    except ValueError as err:
        msg.fail(f"--char-normalization: {err}", exits=1)
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    started = time.monotonic()
    kb_name = kb_name or output.name
    output.mkdir(parents=True, exist_ok=True)
    checkpoint = output / "checkpoint"
    store = PairStore.load(checkpoint / "pairs.npz" if resume and (checkpoint / "pairs.npz").exists() else pairs_path)
    reference = ReferenceSet.from_tsv(reference_path)
    strings = store.strings.tolist()
    if strings[: len(reference)] != reference.names:
        raise DataFileError(pairs_path, f"its first strings are not the names of {reference_path}", "Run the pairs step again on this reference set.")
    n_names = len(reference)
    name_entity = reference.name_entity.astype(numpy.int64)
    dev_rows = split_dev_names(name_entity, n_dev, seed)
    dev_mask = numpy.zeros(len(strings), dtype=bool)
    dev_mask[dev_rows] = True
    config = dict(vocab_size=vocab_size, char_width=char_width, hidden_width=hidden_width, depth=depth,
                  output_width=output_width, dropout=dropout, pooling=pooling, max_length=max_length)
    encoder = registry.architectures.get(ARCHITECTURE)(**config)
    set_char_vocab(encoder, CharVocab.from_texts(strings, vocab_size, char_normalization))
    state: Dict[str, Any] = {"round": 0, "seconds": 0.0, "steps": 0}
    if resume and (checkpoint / "state.json").exists():
        load_encoder_weights(encoder, checkpoint / "encoder")
        state = json.loads((checkpoint / "state.json").read_text())
        msg.info(f"Resuming after round {state['round']} ({state['seconds']:.0f}s trained)")
    string_entity = store.string_entity.astype(numpy.int64).copy()
    string_entity[dev_rows] = -1
    keep = ~(dev_mask[store.left] | dev_mask[store.right])
    settings = TrainingSettings(batch_pairs=batch_pairs, in_batch_weight=in_batch_weight, in_batch_loss=in_batch_loss,
                                temperature=temperature, learning_rate=learning_rate, seed=seed + state["round"])
    weights = parse_set_weights(set_weights)
    pair_weight = numpy.asarray([set_weight(name, weights) for name in store.set_names])[store.set_id[keep].astype(numpy.int64)]
    trainer = SiameseTrainer(encoder, strings, string_entity, store.left[keep], store.right[keep], store.label[keep], settings,
                             pair_weight=None if numpy.all(pair_weight == 1.0) else pair_weight)
    if resume and (checkpoint / "optimizer.pt").exists():
        trainer.optimizer.load_state_dict(torch.load(checkpoint / "optimizer.pt", weights_only=True))
    msg.info(f"{kb_name}: {n_names} names, {len(reference.kb_ids)} entities, {int(keep.sum())} training pairs "
             f"({len(dev_rows)} names held out for the dev score), encoder {config}")
    log_path = output / "log.jsonl"
    train_rows = numpy.flatnonzero(~dev_mask[:n_names])
    bar: Optional[Progress] = None
    losses: List[float] = []
    names_seen = 0

    def on_round_start(round_no: int, round_steps: Optional[int]) -> None:
        nonlocal bar, names_seen
        bar = Progress(f"round {round_no + 1}/{rounds}", total=round_steps, unit="steps")
        losses.clear()
        names_seen = 0

    def on_step(stats: StepStats) -> None:
        nonlocal names_seen
        losses.append(stats.loss)
        names_seen += stats.n_strings
        bar.update(1, loss=f"{numpy.mean(losses[-100:]):.4f}")

    def on_round_end(report: RoundReport) -> None:
        bar.close()
        round_no, done = report.round_no, report.result
        if report.cut_short:
            msg.warn(f"round {round_no + 1}: safety guard reached after {len(losses)} of {report.step_budget} steps: training cut short")
        dev = dev_hits_at_1(done.vectors, name_entity, dev_rows)
        added = 0
        if round_no < rounds - 1:
            added = store.append(done.hard_left, done.hard_right, 0.0, f"hard_negative_round{round_no + 1}")
        train_seconds = done.train_seconds
        record = {
            "round": round_no + 1,
            "steps": len(losses),
            "step_budget": report.step_budget,
            "cut_short_by_time_guard": report.cut_short,
            "epoch_losses": done.epoch_losses,
            "mean_loss": float(numpy.mean(losses)) if losses else None,
            "train_seconds": round(train_seconds, 1),
            "names_per_second": round(names_seen / max(train_seconds, 1e-9), 1),
            "pairs_per_second": round(len(losses) * batch_pairs / max(train_seconds, 1e-9), 1),
            "dev_hits_at_1": round(dev, 4),
            "hard_negatives_added": added,
            "mining_seconds": round(done.mining_seconds, 1),
        }
        with log_path.open("a", encoding="utf8") as file_:
            file_.write(json.dumps(record) + "\n")
        msg.row([f"round {round_no + 1}", f"loss {record['mean_loss']:.4f}" if losses else "loss -", f"dev H@1 {dev:.4f}",
                 f"+{added} hard negatives", f"{record['names_per_second']:.0f} names/s"], widths=(9, 14, 14, 22, 16))
        state.update({"round": round_no + 1, "seconds": report.seconds, "steps": trainer.steps_done})
        save_encoder(encoder, checkpoint / "encoder")
        torch.save(trainer.optimizer.state_dict(), checkpoint / "optimizer.pt")
        store.save(checkpoint / "pairs.npz")
        (checkpoint / "state.json").write_text(json.dumps(state))

    # the names are encoded after the training in every round: the dev score, and the mining of all but the last
    trained = train_in_rounds(
        trainer, reference.names, name_entity, rounds=rounds, max_steps=max_steps, first_share=0.4 if rounds > 1 else 1.0,
        epochs_per_round=epochs_per_round, max_seconds=max_minutes * 60.0 if max_minutes > 0 else None,
        start_round=state["round"], seconds_done=state["seconds"], mine_rows=train_rows, n_neighbors=hard_neighbors,
        seed=seed, hard_negative_weight=set_weight("hard_negative", weights), encode=True,
        on_round_start=on_round_start, on_step=on_step, on_round_end=on_round_end)
    if trained.stopped_before is not None:
        msg.warn(f"Safety guard of {max_minutes} minutes reached before round {trained.stopped_before + 1}: training cut short")
    cut_short = trained.cut_short
    save_encoder(encoder, output / "encoder")
    t2 = time.monotonic()
    indexed = with_short_forms(reference) if short_forms else reference
    linker = KnowledgeBaseLinker.build(kb_name, encoder, indexed, n_trees=n_trees, seed=seed, build_precision=build_precision)
    linker.to_disk(output / "linker")
    summary = {
        "kb": kb_name,
        "encoder": config,
        "char_normalization": char_normalization,
        "linker_short_forms": short_forms,
        "rounds": rounds,
        "pair_counts": store.counts(),
        "max_steps": max_steps,
        "training": {"batch_pairs": batch_pairs, "in_batch_weight": in_batch_weight, "in_batch_loss": in_batch_loss,
                     "temperature": temperature, "learning_rate": learning_rate, "seed": seed},
        "steps": int(state["steps"]),
        "cut_short_by_time_guard": cut_short,
        "training_seconds": round(state["seconds"], 1),
        "index_seconds": round(time.monotonic() - t2, 1),
        "total_seconds": round(time.monotonic() - started, 1),
        "dev_names": int(len(dev_rows)),
    }
    (output / "training_summary.json").write_text(json.dumps(summary, indent=2))
    msg.good(f"Saved {output / 'linker'} ({summary['training_seconds']}s training, {summary['index_seconds']}s index)")


if __name__ == "__main__":
    run_cli(train)
