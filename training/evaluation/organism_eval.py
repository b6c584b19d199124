"""Organism assignment accuracy on gold UniProt spans, as a confusion table.

The gold organism of a span is the taxon of its gold UniProt id, read from a TSV `kb_id<TAB>taxon_id`
(`UniProt:P04637<TAB>9606`; a header row is allowed); the predicted one is the `ent._.kb_taxon` the pipeline
wrote. Taxa outside the five covered organisms, and unknown ones, fall into one `other/unknown` bucket.
"""
import csv
import gzip
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

TAXA: Dict[int, str] = {9606: "human", 10090: "mouse", 10116: "rat", 559292: "yeast", 83333: "E. coli"}
OTHER = "other/unknown"
BUCKETS: Tuple[str, ...] = tuple(str(t) for t in TAXA) + (OTHER,)


class TaxaFileError(ValueError):
    """The taxa TSV is missing or not `kb_id<TAB>taxon_id`."""


def read_taxa(path: Union[str, Path]) -> Dict[str, int]:
    """Read `kb_id<TAB>taxon_id` rows (plain or .gz; an optional header row).

    RETURNS (Dict[str, int]): CURIE -> NCBI taxon id.
    """
    path = Path(path)
    if not path.exists():
        raise TaxaFileError(f"Taxa file not found: {path}. Make it with the reference-set step "
                            f"(corpus/reference_multi/uniprot_taxa.tsv) or pass another kb_id<TAB>taxon_id TSV.")
    out: Dict[str, int] = {}
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf8", newline="") as f:  # type: ignore[operator]
            for i, row in enumerate(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE), start=1):
                if not row or not row[0].strip():
                    continue
                if len(row) < 2 or not row[1].strip().isdigit():
                    if i == 1:
                        continue  # header row
                    raise TaxaFileError(f"{path}, line {i}: expected kb_id<TAB>taxon_id, got {row!r}")
                out[row[0].strip()] = int(row[1])
    except (OSError, EOFError, UnicodeDecodeError, csv.Error) as e:
        raise TaxaFileError(f"Could not read {path} ({e}); the file is probably truncated: make it again.") from e
    return out


def bucket(taxon: Optional[int]) -> str:
    """RETURNS (str): The taxon id as a string if it is one of the five organisms, else `other/unknown`."""
    return str(taxon) if taxon in TAXA else OTHER


def gold_taxa(gold_ids: Iterable[str], taxa: Mapping[str, int]) -> List[int]:
    """RETURNS (List[int]): The distinct taxa of a span's gold UniProt ids, in id order (unknown ids skipped)."""
    out: List[int] = []
    for i in gold_ids:
        t = taxa.get(i)
        if t is not None and t not in out:
            out.append(t)
    return out


def organism_confusion(pairs: Sequence[Tuple[Sequence[int], Optional[int]]]) -> Dict[str, object]:
    """Confusion table of (gold taxa, predicted taxon) pairs, one per gold UniProt span.

    A span is right if the predicted taxon is one of its gold taxa (ortholog ids of several organisms on one
    mention count as right for any of them); its row is its first gold taxon (`other/unknown` if none).
    RETURNS (Dict[str, object]): `table` (gold bucket -> predicted bucket -> count), `accuracy` over spans
    whose gold taxon is known, `accuracy_covered` over those whose gold taxon is one of the five organisms,
    and the counts.
    """
    table: Dict[str, Counter] = {b: Counter() for b in BUCKETS}
    known = right_known = covered = right_covered = 0
    for golds, pred in pairs:
        row = bucket(golds[0]) if golds else OTHER
        table[row][bucket(pred)] += 1
        if golds:
            ok = pred is not None and pred in golds
            known += 1
            right_known += ok
            if any(g in TAXA for g in golds):
                covered += 1
                right_covered += ok
    return {
        "table": {g: {p: table[g][p] for p in BUCKETS} for g in BUCKETS},
        "accuracy": round(right_known / known, 4) if known else 0.0,
        "accuracy_covered": round(right_covered / covered, 4) if covered else 0.0,
        "spans": len(pairs), "spans_gold_known": known, "spans_gold_covered": covered,
    }


def confusion_markdown(confusion: Mapping[str, object]) -> List[str]:
    """RETURNS (List[str]): Markdown lines of the table (rows gold, columns predicted)."""
    names = {str(t): f"{n} ({t})" for t, n in TAXA.items()}
    names[OTHER] = OTHER
    lines = ["| gold \\ predicted | " + " | ".join(names[b] for b in BUCKETS) + " |",
             "|---" * (len(BUCKETS) + 1) + "|"]
    table = confusion["table"]
    for g in BUCKETS:
        lines.append(f"| {names[g]} | " + " | ".join(str(table[g][p]) for p in BUCKETS) + " |")  # type: ignore[index]
    return lines
