"""The pipeline parts of `training.benchmark.benchmark`: assembling a pipeline, its throughput with and without
`nseen_linker`, and load time and memory measured in fresh processes (`training.benchmark.benchmark_probe`)."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from wasabi import msg

from training.benchmark.benchmark_probe import resident_files
from training.benchmark.benchmark_texts import benchmark_texts, write_benchmark_texts
from training.common.bioid import Mention

# Bio-ID entity types → the pipeline's entity labels, and labels → reference sets (the component's defaults).
TYPE_LABELS = {"protein": "PROTEIN", "gene": "GENE", "chemical": "CHEMICAL"}
LABEL_KBS = {"PROTEIN": "uniprot", "GENE": "uniprot", "CHEMICAL": "chebi"}


def per_second(count: int, seconds: float) -> float:
    return round(count / seconds, 1) if seconds > 0 else float("inf")


def cpu_seconds() -> float:
    """RETURNS (float): CPU time of this process (all threads) and of its finished child processes."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


# Pipeline ----------------------------------------------------------------------------------------------


def ruler_pipeline(mentions: Sequence[Mention], linker_dirs: Dict[str, Path], ner: Optional[str] = None):
    """An NER pipeline + nseen_linker over the linkers. The NER is the pipeline `ner` (a path or package), or
    else spacy.blank("en") + an entity ruler of the gold mention strings."""
    import spacy

    from spacy_nseen.encoder.weights_io import read_encoder_config
    from spacy_nseen.encoder.layer import ARCHITECTURE

    from spacy_nseen.parts.kb_loaders import linker_directory, linker_directory_block
    from spacy_nseen.parts.knowledge_bases import label_blocks
    from spacy_nseen.pipe.config import DEFAULT_ENCODER

    # the trained shape, and the component's default for everything else (precision, batch size)
    encoder = {**DEFAULT_ENCODER, "@architectures": ARCHITECTURE, **read_encoder_config(next(iter(linker_dirs.values())))}
    kbs = label_blocks({label: kb for label, kb in LABEL_KBS.items() if kb in linker_dirs})
    if ner:
        nlp = spacy.load(ner, exclude=["nseen_linker"])
        pipe = nlp.add_pipe("nseen_linker", config={"encoder": encoder, "kbs": kbs})
        pipe.initialize(lambda: [], nlp=nlp, kb_loaders={kb: linker_directory(path) for kb, path in linker_dirs.items()})
        return nlp
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    nlp.add_pipe("nseen_linker", config={"encoder": encoder, "kbs": kbs})
    nlp.config["initialize"]["components"]["nseen_linker"] = {
        "kb_loaders": {kb: linker_directory_block(path) for kb, path in linker_dirs.items()}
    }
    nlp.initialize()
    # after initialize(), which empties the ruler
    patterns = {(TYPE_LABELS[m.entity_type.lower()], m.text) for m in mentions if m.entity_type.lower() in TYPE_LABELS and m.text.strip()}
    ruler.add_patterns([{"label": label, "pattern": text} for label, text in sorted(patterns)])
    return nlp


def pipeline_throughput(nlp, texts: Sequence[str], threads: int, n_process: int = 2) -> Dict[str, Any]:
    """Docs/s and words/s of the pipeline with and without the linker, in one process and in n_process."""
    import torch

    out: Dict[str, Any] = {"docs": len(texts)}
    linker = nlp.get_pipe("nseen_linker")

    def run(disable: List[str], processes: int) -> Dict[str, float]:
        for kb_linker in linker.linkers.values():
            kb_linker.clear_cache()
        start, cpu_start = time.perf_counter(), cpu_seconds()
        words = sum(len(doc) for doc in nlp.pipe(texts, disable=disable, n_process=processes))
        seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu_start
        return {"seconds": round(seconds, 4), "cpu_seconds": round(cpu, 4), "docs_per_s": per_second(len(texts), seconds), "words_per_s": per_second(words, seconds), "words": words}

    list(nlp.pipe(texts[:64]))  # warm-up
    out["without_linker"] = run(["nseen_linker"], 1)
    out["with_linker"] = run([], 1)
    torch.set_num_threads(1)
    try:
        out[f"without_linker_n_process={n_process}"] = run(["nseen_linker"], n_process)
        out[f"with_linker_n_process={n_process}"] = run([], n_process)
    finally:
        torch.set_num_threads(threads)
    out["linker_overhead"] = round(out["with_linker"]["seconds"] / max(out["without_linker"]["seconds"], 1e-9) - 1.0, 3)
    out["linker_overhead_cpu"] = round(out["with_linker"]["cpu_seconds"] / max(out["without_linker"]["cpu_seconds"], 1e-9) - 1.0, 3)
    return out


def drop_page_cache() -> bool:
    """Empty the kernel's page cache (root only). RETURNS (bool): whether it worked."""
    try:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


PROJECT_DIR = Path(__file__).resolve().parents[2]  # where `python -m training.benchmark.benchmark_probe` runs


def probe_command(pipeline_dir: Path, threads: int, texts_path: Optional[Path] = None, exclude: Sequence[str] = ()) -> List[str]:
    """RETURNS (List[str]): the command line of one `benchmark_probe` process."""
    command = [sys.executable, "-m", "training.benchmark.benchmark_probe", str(pipeline_dir), "--threads", str(threads)]
    command += ["--texts", str(texts_path)] if texts_path else []
    for name in exclude:
        command += ["--exclude", name]
    return command


def probe(pipeline_dir: Path, threads: int, texts_path: Optional[Path] = None, exclude: Sequence[str] = ()) -> Dict[str, Any]:
    result = subprocess.run(probe_command(pipeline_dir, threads, texts_path, exclude), capture_output=True, text=True,
                            check=True, cwd=PROJECT_DIR)
    return json.loads(result.stdout.strip().splitlines()[-1])


def probe_pair(pipeline_dir: Path, threads: int, texts_path: Path) -> List[Dict[str, Any]]:
    """Two probes run side by side on the same texts (as two workers of the service or of `annotate` run): each one's
    proportional set size counts half of every file page both map."""
    command = probe_command(pipeline_dir, threads, texts_path) + ["--hold"]
    workers = [subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=PROJECT_DIR)
               for _ in range(2)]
    try:
        for worker in workers:  # each prints a first reading once its texts are done, then waits for a line on stdin
            assert worker.stdout is not None
            worker.stdout.readline()
        readings = []  # read again once both have run every text and still hold the pipeline
        for worker in workers:
            assert worker.stdin is not None and worker.stdout is not None
            worker.stdin.write("measure\n")
            worker.stdin.flush()
            readings.append(worker.stdout.readline())
    finally:
        for worker in workers:
            if worker.stdin is not None:
                worker.stdin.close()
            worker.wait(timeout=60)
    return [json.loads(line) for line in readings]


def pipeline_maps_left(pipeline_dir: Path) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): the files of `pipeline_dir` this process still maps (resident MB): a pipeline
    left loaded here would share its pages with the probes and halve their proportional set size."""
    return resident_files(str(Path(pipeline_dir).resolve()))


def load_and_memory(pipeline_dir: Path, texts_path: Path, threads: int) -> Dict[str, Any]:
    """Cold and warm `spacy.load` and peak memory, each in a fresh process (this one must no longer map the
    pipeline's files: `pipeline_maps_left`)."""
    import gc

    gc.collect()  # a Language's reference cycles keep a deleted pipeline (and its file mappings) until collected
    left = pipeline_maps_left(pipeline_dir)
    if left:
        msg.warn(f"The benchmark process still maps {len(left)} pipeline files: the probes' PSS is shared with it")
    cold_dropped = drop_page_cache()
    cold = probe(pipeline_dir, threads)
    warm = [probe(pipeline_dir, threads) for _ in range(3)]
    without = [probe(pipeline_dir, threads, exclude=["nseen_linker"]) for _ in range(3)]
    run = probe(pipeline_dir, threads, texts_path)
    run_without = probe(pipeline_dir, threads, texts_path, exclude=["nseen_linker"])
    pair = probe_pair(pipeline_dir, threads, texts_path)
    return {
        "parent_maps_pipeline_files": bool(left),
        "two_processes_after_run": [reading["memory_after_run"] for reading in pair],
        "cold": cold, "cold_after_dropping_page_cache": cold_dropped,
        "warm_load_seconds": min(w["load_seconds"] for w in warm), "warm_import_seconds": min(w["import_seconds"] for w in warm),
        "warm_load_seconds_without_linker": min(w["load_seconds"] for w in without),
        "after_load": warm[-1]["memory_after_load"], "after_load_without_linker": without[-1]["memory_after_load"],
        "after_run": run["memory_after_run"], "after_run_without_linker": run_without["memory_after_run"],
        "peak_rss_mb": run["memory_after_run"]["VmHWM"], "peak_rss_mb_without_linker": run_without["memory_after_run"]["VmHWM"],
    }


def run_pipeline(results: Dict[str, Any], todo: set, all_mentions: Sequence[Mention], loaded: Dict[str, Any],
                 linkers: Sequence[Path], captions: Path, split: str, max_captions: int, pipeline: Optional[str], ner: Optional[str],
                 threads: int, work: Path) -> None:
    """The pipeline and load/memory sections."""
    import spacy

    msg.divider("Pipeline")
    texts = benchmark_texts(captions, split, max_captions)
    nlp, pipeline_name = None, f"{ner} + nseen_linker" if ner else "entity ruler (gold Bio-ID mention strings) + nseen_linker"
    if pipeline:
        try:
            nlp, pipeline_name = spacy.load(pipeline), pipeline
        except (OSError, IOError) as err:
            msg.warn(f"Cannot load the pipeline {pipeline} ({err}): using an entity ruler instead.")
    if nlp is None:
        nlp = ruler_pipeline(all_mentions, {kb: p for kb, p in zip(loaded, linkers)}, ner)
    if "pipeline" in todo:
        results["pipeline"] = {"name": pipeline_name, "components": nlp.pipe_names, **pipeline_throughput(nlp, texts, threads)}
    pipeline_dir = Path(pipeline) if pipeline and Path(pipeline).is_dir() and pipeline_name == pipeline else work / "pipeline"
    if pipeline_dir == work / "pipeline":
        nlp.to_disk(pipeline_dir)
    texts_path = work / "captions.txt"
    write_benchmark_texts(texts_path, texts)
    del nlp
    if "load" in todo:
        msg.divider("Load time and memory (fresh processes)")
        results["load_memory"] = load_and_memory(pipeline_dir, texts_path, threads)
