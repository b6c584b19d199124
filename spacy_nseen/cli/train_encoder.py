"""`python -m spacy_nseen train-encoder NAMES.tsv OUTPUT`: an encoder trained on your own names."""

import json
import time
from pathlib import Path

import torch
import typer

from ..encoder.layer import encoder_defaults
from ..encoder.vocab import DEFAULT_NORMALIZATION, normalizer
from ..encoder.weights_io import save_encoder
from ..progress import Progress
from ..reference.names_tsv import read_names_tsv
from . import app
from .errors import reported_errors

# the encoder shape's defaults are the registered architecture's (the project's trained encoders: depth 2,
# hidden 64, char 48, set by project.yml's encoder_* vars)
ENCODER = encoder_defaults()


@app.command("train-encoder")
def train_encoder(
    names: Path = typer.Argument(..., help="Names file: kb_id<TAB>name[<TAB>kind] per line (header optional)"),
    output: Path = typer.Argument(..., help="Encoder directory to write (give it to build-kb --encoder)"),
    max_steps: int = typer.Option(
        1000, "--max-steps", help="Optimisation steps over all rounds (the same encoder on any machine)"
    ),
    rounds: int = typer.Option(
        2, "--rounds", help="Rounds; the nearest names of other entities are added as negatives after each but the last"
    ),
    depth: int = typer.Option(
        ENCODER["depth"], "--depth", help="BiLSTM layers (the paper's 4; the project's trained encoders: 2)"
    ),
    hidden_width: int = typer.Option(ENCODER["hidden_width"], "--hidden-width", help="LSTM width per direction"),
    char_width: int = typer.Option(ENCODER["char_width"], "--char-width", help="Character embedding width"),
    output_width: int = typer.Option(ENCODER["output_width"], "--output-width", help="Embedding width"),
    vocab_size: int = typer.Option(ENCODER["vocab_size"], "--vocab-size", help="Character table size"),
    max_length: int = typer.Option(ENCODER["max_length"], "--max-length", help="Characters kept per name"),
    char_normalization: str = typer.Option(
        DEFAULT_NORMALIZATION,
        "--char-normalization",
        help="What the encoder reads: fold (case folded, Greek spelled out, dashes unified) or nfc (the name as written)",
    ),
    batch_pairs: int = typer.Option(256, "--batch-pairs", help="Labelled pairs per step"),
    learning_rate: float = typer.Option(2e-3, "--learning-rate", help="AdamW learning rate"),
    threads: int = typer.Option(1, "--threads", help="torch threads"),
    seed: int = typer.Option(0, "--seed", help="Random seed"),
) -> None:
    """Train a Siamese character encoder (NSEEN) on the names of your knowledge base."""
    try:
        normalizer(char_normalization)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--char-normalization") from None
    torch.set_num_threads(threads)
    start = time.monotonic()
    config = dict(
        vocab_size=vocab_size,
        char_width=char_width,
        hidden_width=hidden_width,
        depth=depth,
        output_width=output_width,
        dropout=ENCODER["dropout"],
        pooling=ENCODER["pooling"],
        max_length=max_length,
    )
    with reported_errors():
        reference = read_names_tsv(names)
    # Training-only code (spacy_nseen.encoder_training) is imported here, never by the component.
    from ..encoder_training.names import train_encoder_on_names
    from ..encoder_training.siamese import StepStats, TrainingSettings

    settings = TrainingSettings(batch_pairs=batch_pairs, learning_rate=learning_rate, seed=seed)
    with Progress("training", total=max_steps, unit="steps") as bar:

        def on_step(stats: "StepStats") -> None:
            bar.update(1, loss=f"{stats.loss:.4f}")

        result = train_encoder_on_names(
            reference,
            config,
            max_steps=max_steps,
            rounds=rounds,
            settings=settings,
            on_step=on_step,
            char_normalization=char_normalization,
        )
    save_encoder(result.encoder, output)
    summary = {
        "names_file": str(names),
        "names": len(reference),
        "entities": reference.n_entities,
        "encoder": config,
        "char_normalization": char_normalization,
        "max_steps": max_steps,
        "pairs": result.pair_counts,
        "rounds": result.rounds,
        "seed": seed,
        "seconds": round(time.monotonic() - start, 1),
    }
    (output / "training_summary.json").write_text(json.dumps(summary, indent=2), encoding="utf8")
    last = result.rounds[-1]
    print(
        f"train-encoder: {len(reference):,} names of {reference.n_entities:,} entities, {max_steps} steps, "
        f"last round's mean loss {last['mean_loss']:.4f}, {summary['seconds']} s -> {output}"
    )
