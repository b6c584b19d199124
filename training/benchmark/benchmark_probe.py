"""Measurements that need a fresh process: pipeline load time (cold and warm) and peak memory.

    python -m training.benchmark.benchmark_probe PIPELINE_DIR [--texts captions.txt] [--exclude nseen_linker] [--mappings]

Prints one JSON object: import and `spacy.load` seconds, and the memory of the process (from
/proc/self/status) after loading and, with --texts, after running every text through the pipeline; with
--mappings also the resident MB of each file the pipeline directory maps (from /proc/self/smaps), to see which
artifact the file-backed part of the peak is.
`training.benchmark.benchmark` runs it in subprocesses; it is a module of its own so that nothing is imported
before the clock starts.
"""
import json
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

STATUS_FIELDS = ("VmHWM", "VmRSS", "RssAnon", "RssFile")
# Proportional set size: a page shared with other processes (or mapped twice in this one, as the Annoy file is:
# by Annoy and by the item-vector view) counts once in total, split among its mappings.
ROLLUP_FIELDS = ("Pss", "Pss_Anon", "Pss_File")


def memory_mb() -> Dict[str, float]:
    """RETURNS (Dict[str, float]): peak RSS (VmHWM), RSS and its anonymous and file-backed parts, and the
    proportional set size (Pss) where the kernel reports it, in MB."""
    values = {}
    for source, wanted in (("/proc/self/status", STATUS_FIELDS), ("/proc/self/smaps_rollup", ROLLUP_FIELDS)):
        try:
            lines = Path(source).read_text().splitlines()
        except OSError:
            continue
        for line in lines:
            key, _, rest = line.partition(":")
            if key in wanted:
                values[key] = round(int(rest.split()[0]) / 1024, 1)
    return values


def resident_files(under: str) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): resident MB (smaps `Rss`, summed over a file's mappings) of each mapped file whose
    path starts with `under`, largest first; empty where /proc/self/smaps is not readable."""
    sizes: Dict[str, float] = {}
    current: Optional[str] = None
    try:
        lines = Path("/proc/self/smaps").read_text().splitlines()
    except OSError:
        return {}
    for line in lines:
        fields = line.split()
        if fields and "-" in fields[0] and not fields[0].endswith(":"):  # a mapping's header: address range first
            current = fields[5] if len(fields) > 5 and fields[5].startswith(under) else None
        elif current is not None and fields[:1] == ["Rss:"]:
            sizes[current] = sizes.get(current, 0.0) + int(fields[1]) / 1024
    return {path: round(mb, 1) for path, mb in sorted(sizes.items(), key=lambda item: -item[1])}


def probe(pipeline: str, texts_path: Optional[str], exclude: List[str], threads: int,
          mappings: bool = False, batch_size: Optional[int] = None, held: Optional[List[object]] = None) -> Dict[str, object]:
    """Measure one load (and run); `held`: a list the loaded pipeline is appended to, to keep it alive."""
    start = time.perf_counter()
    import spacy  # noqa: F401  (imports torch through thinc)
    import torch

    import spacy_nseen  # noqa: F401

    torch.set_num_threads(threads)
    imported = time.perf_counter()
    out: Dict[str, object] = {"import_seconds": round(imported - start, 3), "memory_after_import": memory_mb()}
    nlp = spacy.load(pipeline, exclude=exclude)
    out["load_seconds"] = round(time.perf_counter() - imported, 3)
    out["memory_after_load"] = memory_mb()
    if texts_path:
        texts = Path(texts_path).read_text(encoding="utf8").split("\n")
        run_start = time.perf_counter()
        n_ents = sum(len(doc.ents) for doc in nlp.pipe(texts, batch_size=batch_size))
        out["run_seconds"] = round(time.perf_counter() - run_start, 3)
        out["batch_size"] = batch_size or nlp.batch_size
        out["entities"] = n_ents
        out["memory_after_run"] = memory_mb()
    if mappings:
        out["resident_files_mb"] = resident_files(str(Path(pipeline).resolve()))
    if held is not None:
        held.append(nlp)
    return out


def main(argv: List[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pipeline")
    parser.add_argument("--texts", default=None, help="a text file, one document per line")
    parser.add_argument("--exclude", action="append", default=[], help="a pipe not to load")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--mappings", action="store_true", help="also the resident MB of each mapped pipeline file")
    parser.add_argument("--batch-size", type=int, default=None, help="docs per nlp.pipe batch (default: the config's)")
    parser.add_argument("--hold", action="store_true",
                        help="after printing, keep the pipeline loaded and print the memory again for each line read "
                        "from stdin, until stdin closes (to measure processes that share the pipeline's files)")
    args = parser.parse_args(argv)
    if args.batch_size is not None and args.batch_size < 1:
        parser.error(f"--batch-size must be at least 1, got {args.batch_size}")
    held: List[object] = []
    print(json.dumps(probe(args.pipeline, args.texts, args.exclude, args.threads, args.mappings, args.batch_size, held)),
          flush=True)
    if args.hold:
        for _ in sys.stdin:
            print(json.dumps({"memory_after_run": memory_mb()}), flush=True)
        held.clear()


if __name__ == "__main__":
    main(sys.argv[1:])
