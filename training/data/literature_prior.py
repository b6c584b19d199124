"""Which of several entities a name usually means: a per-entity prior counted in unlabelled biomedical text.

    python -m training.data.literature_prior corpus/reference_multi/uniprot.tsv.gz \\
        ../shared/data/unlabelled/biomedical_sentences.txt.gz corpus/reference_multi/uniprot_prior.tsv

Aliases are shared (`YAP` is an HGNC alias of YAP1 and of YY1AP1), and the exact tier's tie-breaks (the number of
names, the kind tables) do not know what the literature means by a name. Here every name that points to one gene
only is counted where it occurs in the text (`YAP1`, `Yes-associated protein 1`, `YAP65`, ...), and each gene
gets the sum of its unambiguous names' occurrences. No Bio-ID text is read (the mirror's unlabelled sentences
are PubMed/PMC text of 14 other corpora), so no gold normalisation enters the prior.

A gene is an ortholog group (the entries sharing a primary gene symbol, as `organisms.orthologs` groups them):
`YAP1` names the human and the mouse entry, which is no ambiguity about the gene. Names of 5 characters or fewer
are matched with their case (`CAT` the enzyme, not `cat` the animal), longer ones case-folded; spaces around
hyphens and slashes are closed (`MMP - 2` → `MMP-2`, as the sentences are tokenised). Names that are English
stop words in any case (fly `in`, the rat alias `The`) are not counted.

The TSV written has `kb_id`, `occurrences` (of the gene), `names` (of the entity in the set: the tie-break
`names`) and `prior` = log1p(occurrences) rounded to 0.1, then the names as the tie-break inside equal priors
(`prior + names / 10000`), for the linker's `exact_tie_break = "prior"` (`entity_priors = {"uniprot":
"FILE.tsv:prior"}` at initialize).
"""

import gzip
import math
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, Iterable, List, Set, Tuple

import typer
from spacy.lang.en.stop_words import STOP_WORDS
from wasabi import msg

from training.common.data_errors import run_cli
from training.common.tsv_io import iter_tsv, write_tsv

MAX_WORDS = 6
# the kinds of name a paper writes for the protein itself; previous symbols (`LPS` of IRF6), nomenclature aliases and
# entry mnemonics are mostly other words in running text
COUNTED_KINDS = frozenset({"recommended", "alternative", "gene_primary", "gene_synonym", "hgnc_alias", "name",
                           "primary", "component"})
CASED_MAX = 5
_JOINERS = re.compile(r"\s*([-/])\s*")


def name_key(name: str) -> str:
    """RETURNS (str): the key a name is matched by: spaces around `-`/`/` closed; case-folded when long."""
    text = _JOINERS.sub(r"\1", " ".join(name.split()))
    return text if len(text) <= CASED_MAX else text.casefold()


def gene_groups(rows: Iterable[Tuple[str, str, str]]) -> Dict[str, str]:
    """RETURNS (Dict[str, str]): entity -> its gene (the upper-cased first primary gene symbol, else itself)."""
    group: Dict[str, str] = {}
    for kb_id, name, kind in rows:
        if kind == "gene_primary" and kb_id not in group:
            group[kb_id] = "gene:" + name.upper()
        group.setdefault(kb_id, kb_id)
    return group


def unambiguous_names(rows: Iterable[Tuple[str, str, str]], group: Dict[str, str]) -> Dict[str, str]:
    """RETURNS (Dict[str, str]): name key -> the one gene it names (names of several genes, of fewer than three
    characters, of digits only, or only of kinds outside `COUNTED_KINDS` are left out)."""
    genes: Dict[str, Set[str]] = defaultdict(set)
    counted: Set[str] = set()
    for kb_id, name, kind in rows:
        key = name_key(name)
        if len(key) < 3 or key.replace(" ", "").isdigit() or key.casefold() in STOP_WORDS:
            continue
        genes[key].add(group[kb_id])
        if kind in COUNTED_KINDS:
            counted.add(key)
    return {key: next(iter(g)) for key, g in genes.items() if len(g) == 1 and key in counted}


def count_occurrences(sentences: Iterable[str], names: Dict[str, str]) -> Counter:
    """Count, per gene, the occurrences of its unambiguous names in tokenised sentences (word n-grams up to
    `MAX_WORDS`, longest match first, no overlaps). RETURNS (Counter): gene -> occurrences."""
    counts: Counter = Counter()
    longest = max((k.count(" ") + 1 for k in names), default=1)
    longest = min(longest, MAX_WORDS)
    for sentence in sentences:
        words = _JOINERS.sub(r"\1", sentence.strip()).split()
        i = 0
        while i < len(words):
            step = 1
            for n in range(min(longest, len(words) - i), 0, -1):
                text = " ".join(words[i : i + n])
                gene = names.get(text if len(text) <= CASED_MAX else text.casefold())
                if gene is not None:
                    counts[gene] += 1
                    step = n
                    break
            i += step
    return counts


def prior_rows(rows: List[Tuple[str, str, str]], counts: Counter, group: Dict[str, str]) -> List[Tuple[str, int, int, float]]:
    """RETURNS: per entity (first-row order) `(kb_id, occurrences, names, prior)` (see the module doc)."""
    names = Counter(kb_id for kb_id, _, _ in rows)
    out = []
    for kb_id in dict.fromkeys(k for k, _, _ in rows):
        occurrences = counts[group[kb_id]]
        prior = round(math.log1p(occurrences), 1) + min(names[kb_id], 9999) / 10000
        out.append((kb_id, occurrences, names[kb_id], round(prior, 4)))
    return out


def read_sentences(path: Path) -> Iterable[str]:
    """YIELDS (str): the lines of a (gzipped) text file."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf8") as f:  # type: ignore[operator]
        yield from f


def literature_prior(
    reference: Path = typer.Argument(..., help="Reference set TSV (kb_id, name, kind[, taxon])"),
    text: List[Path] = typer.Argument(..., help="Tokenised sentences, one a line (.gz allowed); no Bio-ID text"),
    output: Path = typer.Option(..., "--output", "-o", help="The prior TSV to write (kb_id, occurrences, names, prior)"),
) -> None:
    """Count how often each gene's unambiguous names occur in unlabelled text: the entity prior of the exact tier."""
    rows = [(r["kb_id"], r["name"], r["kind"]) for r in iter_tsv(reference, ("kb_id", "name", "kind"))]
    group = gene_groups(rows)
    names = unambiguous_names(rows, group)
    counts: Counter = Counter()
    for path in text:
        counts += count_occurrences(read_sentences(path), names)
    out = prior_rows(rows, counts, group)
    write_tsv(output, ("kb_id", "occurrences", "names", "prior"), out)
    seen = sum(1 for _, n, _, _ in out if n)
    msg.good(f"{len(names):,} unambiguous names; {sum(counts.values()):,} occurrences of {len(counts):,} genes; "
             f"{seen:,} of {len(out):,} entities with a count; wrote {output}")


if __name__ == "__main__":
    run_cli(literature_prior)
