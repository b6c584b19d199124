"""Build a linker directory (Annoy index + TF-IDF matrix) from a trained encoder and a reference set.

    python -m training.linker.build_linker training_output/uniprot/encoder corpus/reference/uniprot.tsv.gz \
        training_output/uniprot/linker --kb-name uniprot

The reference set may differ from the one the encoder was trained on (e.g. with HGNC names added):
the names are embedded with the trained encoder, nothing is retrained.
"""
import json
import time
from pathlib import Path

import torch
import typer
from wasabi import msg

from spacy_nseen.encoder.weights_io import build_encoder_from_disk
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker, LinkerSettings
from spacy_nseen.reference.reference_set import ReferenceSet
from spacy_nseen.reference.short_form_names import with_short_forms
from spacy_nseen.reference.xrefs import read_xrefs
from training.common.data_errors import run_cli
from training.linker.settings_spec import is_config_spec, parse_variant, settings_from_config


def linker_settings(spec: str) -> LinkerSettings:
    """RETURNS (LinkerSettings): a reference set's settings in a pipeline config ('configs/pipeline.cfg#chebi'), or
    the defaults with the changes of a 'key=value,key=value' spec."""
    if is_config_spec(spec):
        return settings_from_config(spec)
    return parse_variant(f"settings:{spec}", LinkerSettings())[1]


def build_linker(
    encoder_dir: Path = typer.Argument(..., help="Trained encoder directory (encoder.safetensors, ...)"),
    reference_path: Path = typer.Argument(..., help="Reference set TSV (kb_id, name, kind)"),
    output: Path = typer.Argument(..., help="Linker directory to write"),
    kb_name: str = typer.Option("", "--kb-name", help="Reference set name (default: the TSV's stem)"),
    n_trees: int = typer.Option(20, help="Annoy trees"),
    search_k: int = typer.Option(-1, help="Annoy search_k (-1: n_trees × n)"),
    tfidf: bool = typer.Option(True, help="Also build the TF-IDF matrix for hybrid re-ranking"),
    threads: int = typer.Option(1, help="torch threads"),
    seed: int = typer.Option(0, help="Annoy seed"),
    build_precision: str = typer.Option("bf16", "--build-precision",
                                        help="Encoder precision for the reference names: fp32, bf16 or int8"),
    settings: str = typer.Option(
        "", "--settings",
        help="Settings saved with the linker: a reference set of a pipeline config ('configs/pipeline.cfg#chebi') "
             "or changes of the defaults ('exact_tie_break=names,fuzzy_weight=0.2')"),
    xrefs: str = typer.Option("", "--xrefs", help="A kb_id<TAB>xref TSV (e.g. UniProt → NCBIGene) saved with the linker"),
    short_forms: bool = typer.Option(False, "--short-forms/--no-short-forms",
                                     help="Also index the names' short forms (`LC3` of `... LC3 B`; reference/short_form_names.py)"),
) -> None:
    """Embed every reference name and write a complete linker directory."""
    torch.set_num_threads(threads)
    kb_name = kb_name or reference_path.name.split(".")[0]
    start = time.monotonic()
    encoder = build_encoder_from_disk(encoder_dir)
    reference = ReferenceSet.from_tsv(reference_path)
    if short_forms:
        n_names = len(reference)
        reference = with_short_forms(reference)
        msg.info(f"{kb_name}: {len(reference) - n_names:,} short forms added to {n_names:,} names")
    loaded = time.monotonic()
    linker = KnowledgeBaseLinker.build(kb_name, encoder, reference, n_trees=n_trees, search_k=search_k, seed=seed,
                                       settings=linker_settings(settings), with_tfidf=tfidf, build_precision=build_precision)
    built = time.monotonic()
    if xrefs:
        linker.xrefs = {k: v for k, v in read_xrefs(xrefs).items() if k in reference}
    linker.to_disk(output)
    sizes = {p.name: p.stat().st_size for p in output.iterdir() if p.is_file()}
    stats = {
        "kb": kb_name,
        "names": len(reference),
        "stored_vectors": linker.index.n_vectors,
        "stored_tfidf_rows": linker.tfidf.n_rows if linker.tfidf is not None else None,
        "stored_token_rows": linker.tokens.n_rows if linker.tokens is not None else None,
        "entities": reference.n_entities,
        "n_trees": n_trees,
        "load_seconds": round(loaded - start, 2),
        "build_seconds": round(built - loaded, 2),
        "build_parts_seconds": linker.build_seconds,
        "build_precision": build_precision,
        "save_seconds": round(time.monotonic() - built, 2),
        "bytes": sizes,
        "entities_with_xrefs": len(linker.xrefs),
    }
    (output / "build_stats.json").write_text(json.dumps(stats, indent=2))
    msg.good(f"{kb_name}: {len(reference):,} names ({linker.index.n_vectors:,} distinct encoder inputs) indexed in "
             f"{stats['build_seconds']}s -> {output}")


if __name__ == "__main__":
    run_cli(build_linker)
