"""What `KnowledgeBaseLinker.add_names` costs on a full linker, against a full rebuild of its indexes.

Loads a linker directory (read only), adds `--n-names` new names (made from random existing names of random
entities: the name with its spaces and hyphens dropped plus ` X`, so each is new and string-close to its entity),
and measures: the seconds of `add_names`, of saving the grown linker (to a scratch directory, removed after) and of
loading it back; whether the same mentions get the same links before and after (reference names as mentions, not
close to any added name), whether the added names are found (as written, and lower-cased without their middle
character: a near miss), whether the saved copy links as the grown one; and the seconds of a full rebuild
(`KnowledgeBaseLinker.build`: encode every name, Annoy, TF-IDF, token index, exact keys) of the same names.
No Bio-ID data is read. Writes a JSON and a Markdown report with the command.

    python -m experiments.add_names_speed --linker /work/pipelines/full/nseen_linker/kb_uniprot \
        --out results/synonyms/add_names
"""

import argparse
import json
import os
import resource
import shlex
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

import numpy
import torch

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.reference.short_form_names import derived_rows


def made_up_names(linker: KnowledgeBaseLinker, n: int, seed: int) -> List[Tuple[str, str, str]]:
    """RETURNS: `n` (kb_id, name, "discovered") triples of random entities, each a variant of one of its names."""
    reference = linker.reference_set
    rng = numpy.random.default_rng(seed)
    derived = derived_rows(reference)
    rows = [int(r) for r in rng.permutation(len(reference)) if int(r) not in derived]
    out: List[Tuple[str, str, str]] = []
    seen = set()
    for row in rows:
        entity = int(reference.name_entity[row])
        name = reference.names[row].replace(" ", "").replace("-", "") + " X"
        if entity in seen or len(name) < 5:
            continue
        seen.add(entity)
        out.append((reference.kb_ids[entity], name, "discovered"))
        if len(out) == n:
            break
    return out


def probe_mentions(linker: KnowledgeBaseLinker, n: int, seed: int) -> List[str]:
    """RETURNS: `n` random reference names (derived short forms left out), as mentions."""
    reference = linker.reference_set
    derived = derived_rows(reference)
    rows = [int(r) for r in numpy.random.default_rng(seed + 1).permutation(len(reference))[: 2 * n]]
    return [reference.names[r] for r in rows if r not in derived][:n]


def links(linker: KnowledgeBaseLinker, mentions: Sequence[str]) -> List[List[Tuple[str, str, float]]]:
    linker.clear_cache()
    return [[(c.kb_id, c.name, c.score) for c in found] for found in linker.link(list(mentions), top_k=5)]


CPU_SECONDS: Dict[str, float] = {}  # step → CPU seconds of this process and its children (robust to a busy machine)


def cpu_now() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(make, step: str = ""):
    """RETURNS: the value and the wall seconds of `make()`; its CPU seconds go to CPU_SECONDS[step]."""
    start, cpu = time.perf_counter(), cpu_now()
    value = make()
    if step:
        CPU_SECONDS[step] = round(cpu_now() - cpu, 3)
    return value, round(time.perf_counter() - start, 3)


def measure(directory: Path, n_names: int, n_probes: int, seed: int, rebuild: bool) -> Dict[str, Any]:
    linker, load_seconds = timed(lambda: KnowledgeBaseLinker.from_disk(directory), "load")
    names = made_up_names(linker, n_names, seed)
    probes = probe_mentions(linker, n_probes, seed)
    links(linker, probes)  # a first pass reads the memory-mapped files from disk: the timed passes find them cached
    before, link_before_seconds = timed(lambda: links(linker, probes))
    n_built = len(linker.reference_set)
    added, add_seconds = timed(lambda: linker.add_names(names, "benchmark"), "add_names")
    after, link_after_seconds = timed(lambda: links(linker, probes))
    unchanged_top1 = sum(a[:1] == b[:1] for a, b in zip(after, before))
    unchanged_top5 = sum(a == b for a, b in zip(after, before))
    written = [name for _, name, _ in names]
    near = [(name[: len(name) // 2] + name[len(name) // 2 + 1 :]).lower() for name in written]
    found_written = links(linker, written)
    found_near = links(linker, near)
    ids = [kb_id for kb_id, _, _ in names]
    scratch = Path(tempfile.mkdtemp(prefix="nseen_add_names_"))
    try:
        _, save_seconds = timed(lambda: linker.to_disk(scratch / "linker"), "save")
        loaded, reload_seconds = timed(lambda: KnowledgeBaseLinker.from_disk(scratch / "linker"))
        probe_all = probes + written + near
        same_after_reload = links(loaded, probe_all) == links(linker, probe_all)
        added_file_bytes = (scratch / "linker" / "added_names.npz").stat().st_size
        del loaded
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    report: Dict[str, Any] = {
        "linker": str(directory),
        "names_before": n_built,
        "entities": linker.reference_set.n_entities,
        "names_given": len(names),
        "names_added": added,
        "load_seconds": load_seconds,
        "add_names_seconds": add_seconds,
        "save_seconds": save_seconds,
        "reload_seconds": reload_seconds,
        "added_names_file_bytes": added_file_bytes,
        "probe_mentions": len(probes),
        "link_probes_seconds_before": link_before_seconds,
        "link_probes_seconds_after": link_after_seconds,
        "probes_same_top1": unchanged_top1,
        "probes_same_top5": unchanged_top5,
        "added_found_as_written_top1": sum(
            bool(f) and f[0][:2] == (i, w) for f, i, w in zip(found_written, ids, written)
        ),
        "added_found_near_miss_top1": sum(bool(f) and f[0][:2] == (i, w) for f, i, w in zip(found_near, ids, written)),
        "added_near_miss_right_entity_top1": sum(bool(f) and f[0][0] == i for f, i in zip(found_near, ids)),
        "near_misses_matching_exactly": sum(bool(linker.exact_names.lookup(m)) for m in near),
        "names_added_to_several_entities": sum(n > 1 for n in Counter(written).values()),
        "probes_changed": [
            {"mention": m, "before": b[:2], "after": a[:2]} for m, a, b in zip(probes, after, before) if a != b
        ],
        "same_links_after_save_and_load": same_after_reload,
        "metadata": linker.names_metadata(),
    }
    if rebuild:
        rebuilt, rebuild_seconds = timed(
            lambda: KnowledgeBaseLinker.build(
                linker.name, linker.encoder, linker.reference_set, n_trees=linker.index.n_trees, build_precision="bf16"
            ),
            "rebuild",
        )
        report["rebuild_seconds"] = rebuild_seconds
        report["rebuild_parts_seconds"] = rebuilt.build_seconds
        report["speed_up"] = round(rebuild_seconds / max(add_seconds, 1e-6), 1)
        report["speed_up_cpu"] = round(CPU_SECONDS["rebuild"] / max(CPU_SECONDS["add_names"], 1e-6), 1)
        del rebuilt
    report["cpu_seconds"] = dict(CPU_SECONDS)
    return report


def markdown(report: Dict[str, Any], command: str) -> str:
    r = report
    cpu = r.get("cpu_seconds", {})
    rebuild = (
        f"| full rebuild of the same {r['names_before'] + r['names_added']:,} names (encode, Annoy, TF-IDF, token "
        f"index, exact keys; `KnowledgeBaseLinker.build`, bf16) | {r['rebuild_seconds']} s | {cpu.get('rebuild')} s |\n"
        if "rebuild_seconds" in r
        else ""
    )
    before, after = r["link_probes_seconds_before"], r["link_probes_seconds_after"]
    add = f"**{r['add_names_seconds']} s** | **{cpu.get('add_names')} s**"
    exact_near = r["near_misses_matching_exactly"]
    ratio = (
        f"`add_names` takes 1/{r['speed_up_cpu']} of the rebuild's CPU time (1/{r['speed_up']} of its wall time). "
        if "speed_up_cpu" in r
        else ""
    )
    return f"""# Adding names to a built linker (`KnowledgeBaseLinker.add_names`)

Command (from the repository root, `OMP_NUM_THREADS=1`, one torch thread, `nice -n 19` on the shared 2-core machine,
load average {r["load_average"]}):

```
{command}
```

Linker: `{r["linker"]}` ({r["names_before"]:,} names of {r["entities"]:,} entities). {r["names_given"]:,} made-up
names (a random existing name of a random entity, spaces and hyphens dropped, ` X` appended; no Bio-ID data) are
added as kind `discovered`.

Wall seconds depend on what else the machine runs (a `nice -n 19` job gets little of a busy CPU); CPU seconds (of
the process and its children, `getrusage`) do not, so the comparison is made on them.

| step | wall | CPU |
|---|---|---|
| load the linker | {r["load_seconds"]} s | {cpu.get("load")} s |
| `add_names` ({r["names_added"]:,} names: exact keys merged, vectors encoded, TF-IDF and token rows) | {add} |
{rebuild}| save the grown linker (`to_disk`: every file written again) | {r["save_seconds"]} s | {cpu.get("save")} s |
| load it back | {r["reload_seconds"]} s | |
| link {r["probe_mentions"]:,} probe mentions before / after `add_names` (top 5, link cache cleared) | {before} s / {after} s | |

{ratio}The added names' vectors take {r["added_names_file_bytes"]:,} bytes (`added_names.npz`).

What the linker does with them:
- {r["probes_same_top1"]:,} of {r["probe_mentions"]:,} probe mentions (random reference names) keep their best
  entity, {r["probes_same_top5"]:,} their whole top 5 with the same scores;
- {r["added_found_as_written_top1"]:,} of {r["names_added"]:,} added names link to their entity (by the added
  name) as written ({r["names_added_to_several_entities"]:,} made-up strings were added to two entities, orthologs
  whose names gave the same string: one of the two ranks first); as a near miss (lower-cased, its middle character
  dropped; {exact_near:,} of these match some name exactly), {r["added_near_miss_right_entity_top1"]:,} link to
  their entity, {r["added_found_near_miss_top1"]:,} through the added name itself (the dense and sparse side
  blocks; the others mostly to an ortholog or to the original name the made-up one was made from);
- probes whose links changed: `{json.dumps(r["probes_changed"])}`;
- the saved and loaded copy links the probes, the added names and the near misses as the grown linker:
  {r["same_links_after_save_and_load"]};
- metadata: `{json.dumps(r["metadata"])}`.
"""


def main(argv: Sequence[str] = ()) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--linker", type=Path, required=True, help="a linker directory (read only)")
    parser.add_argument("--out", type=Path, required=True, help="report path without suffix (.json and .md written)")
    parser.add_argument("--n-names", type=int, default=1000)
    parser.add_argument("--n-probes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-rebuild", action="store_true", help="skip the full rebuild")
    parser.add_argument("--markdown-only", action="store_true", help="write the .md again from the saved .json")
    args = parser.parse_args(list(argv) or None)
    if args.markdown_only:
        saved = json.loads(args.out.with_suffix(".json").read_text(encoding="utf8"))
        args.out.with_suffix(".md").write_text(markdown(saved, saved["command"]), encoding="utf8")
        return
    torch.set_num_threads(1)
    report = measure(args.linker, args.n_names, args.n_probes, args.seed, not args.no_rebuild)
    report["load_average"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    command = "nice -n 19 python -m experiments.add_names_speed " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    report["command"] = command
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(report, indent=2), encoding="utf8")
    args.out.with_suffix(".md").write_text(markdown(report, command), encoding="utf8")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main(sys.argv[1:])
