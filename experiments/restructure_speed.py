"""Old code vs new code on the full-size trained linkers: identical outputs, and an interleaved speed comparison.

    # identity: dump the links of one code root (run once per root, then compare the JSON files)
    python -m experiments.restructure_speed dump OLD_ROOT old.json
    python -m experiments.restructure_speed dump NEW_ROOT new.json
    # speed: alternate old/new rounds (each a fresh process importing that root), mentions/s per round
    python -m experiments.restructure_speed speed OLD_ROOT NEW_ROOT --rounds 3 --warm-up \\
        --output results/restructure_speed.md

A root is a checkout (the folder holding `spacy_nseen/`). The data: Bio-ID under `$NSEEN_MIRROR/bioid`
(default `../shared/data`), the trained linkers and pipeline under `$NSEEN_TRAINING_OUTPUT` (default
`training_output`).

Each code root is put first on `sys.path` of a child process, so `spacy_nseen` is imported from it. The linking
workload: Bio-ID mentions (`mentions.tsv.gz`, routed by entity type: protein/gene → uniprot_multi and
uniprot_hgnc, chemical → chebi), linked with `KnowledgeBaseLinker.link` then `link_probabilities` (the NIL
decision); the dump also runs the saved pipeline on Bio-ID captions and records every entity's ids, scores,
candidates and extension attributes.
"""
import argparse
import csv
import gzip
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

DATA = Path(os.environ.get("NSEEN_MIRROR", "../shared/data")).resolve() / "bioid"
# The trained linkers and pipeline (read only): `training_output/` of the checkout, or NSEEN_TRAINING_OUTPUT.
OUTPUT = Path(os.environ.get("NSEEN_TRAINING_OUTPUT", "training_output")).resolve()
LINKERS = {"uniprot_multi": ("protein", "gene"), "chebi": ("chemical",), "uniprot_hgnc": ("protein", "gene")}
BATCH = 256
SPAN_ATTRIBUTES = ("kb_id", "kb_score", "kb_candidates", "kb_taxon", "kb_taxon_evidence", "kb_xrefs")


def read_tsv(path: Path, limit: int) -> List[Dict[str, str]]:
    csv.field_size_limit(sys.maxsize)
    with gzip.open(path, "rt", encoding="utf8") as f:
        rows = []
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            rows.append(row)
            if len(rows) >= limit:
                break
    return rows


def mentions_of(types: Tuple[str, ...], n: int, distinct: bool = False) -> List[str]:
    """The first `n` Bio-ID mentions of these entity types (all occurrences, or each distinct string once)."""
    rows = read_tsv(DATA / "mentions.tsv.gz", 10 ** 7)
    found = [r["mention"] for r in rows if r["entity_type"] in types]
    return (list(dict.fromkeys(found)) if distinct else found)[:n]


def link_all(n: int, distinct: bool = False, batch: int = BATCH) -> Tuple[Dict[str, Any], float, int]:
    """Link the workload with every linker, `batch` mentions a call (as the component's batches).
    RETURNS: ids+scores+probabilities, seconds linking, mentions."""
    from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker

    out: Dict[str, Any] = {}
    seconds, count = 0.0, 0
    for name, types in LINKERS.items():
        linker = KnowledgeBaseLinker.from_disk(OUTPUT / "linkers" / name)
        mentions = mentions_of(types, n, distinct)
        linker.link(["warm up"], top_k=5)
        linker.clear_cache()
        results: List[Any] = []
        probabilities: Any = []
        start = time.perf_counter()
        for i in range(0, len(mentions), batch):
            chunk = mentions[i:i + batch]
            found = linker.link(chunk, top_k=5)
            results.extend(found)
            p = linker.link_probabilities(chunk, found)
            probabilities = None if p is None else list(probabilities) + list(p)
        seconds += time.perf_counter() - start
        count += len(mentions)
        out[name] = {
            "links": [[[c.kb_id, c.name, c.score] for c in cands] for cands in results],
            "probabilities": None if probabilities is None else [float(p) for p in probabilities],
        }
    return out, seconds, count


def run_pipeline(n_captions: int) -> List[Any]:
    import spacy

    nlp = spacy.load(OUTPUT / "pipeline")
    texts = [r["text"] for r in read_tsv(DATA / "captions.tsv.gz", n_captions)]
    out = []
    for doc in nlp.pipe(texts):
        ents = [[e.start_char, e.end_char, e.label_, e.kb_id_] + [getattr(e._, a) for a in SPAN_ATTRIBUTES]
                for e in doc.ents]
        out.append({"ents": ents, "organisms": doc._.organisms})
    return out


def child(args: argparse.Namespace) -> None:
    """In a process whose sys.path starts with the code root: dump outputs, or time one round."""
    import spacy_nseen

    if args.command == "dump":
        links, _, _ = link_all(args.mentions)
        data = {"code": spacy_nseen.__file__, "links": links, "pipeline": run_pipeline(args.captions)}
        Path(args.output).write_text(json.dumps(data, sort_keys=True), encoding="utf8")
        print(f"{spacy_nseen.__file__}: wrote {args.output}")
    else:
        _, seconds, count = link_all(args.mentions, distinct=True)
        print(json.dumps({"code": spacy_nseen.__file__, "seconds": seconds, "mentions": count}))


def in_root(root: str, argv: List[str]) -> str:
    env = {**os.environ, "PYTHONPATH": root, "OMP_NUM_THREADS": "1"}
    script = f"import sys; sys.path.insert(0, {root!r}); sys.argv = {['x'] + argv!r}; " \
             f"import runpy; runpy.run_path({str(Path(__file__).resolve())!r}, run_name='__main__')"
    return subprocess.run([sys.executable, "-c", script], env=env, check=True, capture_output=True, text=True).stdout


def speed(args: argparse.Namespace) -> None:
    rows = []
    for round_ in range(0 if args.warm_up else 1, args.rounds + 1):
        for label, root in (("old", args.old), ("new", args.new)):
            last = in_root(root, ["_time", "--mentions", str(args.mentions)]).strip().splitlines()[-1]
            result = json.loads(last)
            rate = result["mentions"] / result["seconds"]
            rows.append((round_, label, root, result["mentions"], result["seconds"], rate))
            print(f"round {round_} {label}: {rate:.1f} mentions/s", flush=True)
    old = [r[5] for r in rows if r[1] == "old" and r[0] > 0]
    new = [r[5] for r in rows if r[1] == "new" and r[0] > 0]
    lines = ["| round | code | root | mentions | seconds | mentions/s |", "|---|---|---|---|---|---|"]
    lines += [f"| {r} | {label} | `{root}` | {m} | {s:.2f} | {rate:.1f} |" for r, label, root, m, s, rate in rows]
    lines.append(f"\nmean mentions/s: old {sum(old) / len(old):.1f}, new {sum(new) / len(new):.1f} "
                 f"(new/old {sum(new) / sum(old):.3f}); median old {statistics.median(old):.1f}, new "
                 f"{statistics.median(new):.1f} (new/old {statistics.median(new) / statistics.median(old):.3f}); "
                 f"min–max old {min(old):.1f}–{max(old):.1f}, new {min(new):.1f}–{max(new):.1f}")
    table = "\n".join(lines)
    print(table)
    if args.output:
        env = [f"{k}={os.environ[k]}" for k in ("NSEEN_MIRROR", "NSEEN_TRAINING_OUTPUT") if k in os.environ]
        command = " ".join(["OMP_NUM_THREADS=1"] + env + ["python -m experiments.restructure_speed"] + sys.argv[1:])
        Path(args.output).write_text(
            "# Restructure speed: old vs new code, interleaved rounds\n\n"
            f"Command: `{command}`\n\nWorkload per round (a fresh process importing that code root): "
            f"{', '.join(LINKERS)} linkers from `training_output/linkers/`, each linking the first {args.mentions} "
            f"distinct Bio-ID mention strings of its entity types in batches of {BATCH} (cache cleared after a "
            "one-mention warm-up), then the NIL decision (`link_probabilities`) of each batch; seconds are the linking "
            "time only (loading excluded). Round 0 (if any) is a warm-up pair, left out of the means.\n\n" + table + "\n",
            encoding="utf8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    dump = sub.add_parser("dump")
    dump.add_argument("root")
    dump.add_argument("output")
    dump.add_argument("--mentions", type=int, default=3000)
    dump.add_argument("--captions", type=int, default=300)
    timed = sub.add_parser("_time")
    timed.add_argument("--mentions", type=int, default=3000)
    run = sub.add_parser("speed")
    run.add_argument("old")
    run.add_argument("new")
    run.add_argument("--rounds", type=int, default=3)
    run.add_argument("--mentions", type=int, default=3000)
    run.add_argument("--output", default=None)
    run.add_argument("--warm-up", action="store_true", help="a round 0 of each, left out of the means")
    args = parser.parse_args()
    if args.command == "dump" and os.environ.get("_RESTRUCTURE_CHILD") != "1":
        os.environ["_RESTRUCTURE_CHILD"] = "1"
        print(in_root(args.root, sys.argv[1:]), end="")
    elif args.command in ("dump", "_time"):
        child(args)
    else:
        speed(args)


if __name__ == "__main__":
    main()
