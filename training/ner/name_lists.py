"""The names of the NER's name features (`nseen_name_features` before the tok2vec in `configs/ner.cfg`).

The NER reads, per token and per label, whether it belongs to a listed name, so that a name it never met in
training (a yeast `Vps30`, a rat `Slc9a3r1`, a cell line `Huh7.5`) still looks like one. One list per label:

- `protein`: the names of the UniProt reference set the linker links to (5 organisms), less the experimental-group
  labels that are also aliases (`NTG` "non-transgenic" of OPA1, `KO`; `spacy_nseen.text.tag_names.GROUP_LABELS`);
- `cell`: the Cellosaurus cell-line names;
- `organism`: the species words of the organism evidence (`spacy_nseen.organisms.lexicon.SPECIES_WORDS`: `mice`,
  `S. cerevisiae`, `zebrafish`) and the Cellosaurus species names, also as abbreviated binomials (`M. musculus`).

(The CHEMICAL list is the CHEMICAL gazetteer's, `training.ner.chemical_gazetteer`.) A name is kept when it has
MIN_CHARS to MAX_CHARS characters and the training captions do not mostly leave it without its label: where it
occurs there as whole tokens, in any case (the features match lower-cased), at least `min_labelled` of the
occurrences carry the label (PROTEIN or GENE for `protein`). The UniProt names include yeast and E. coli gene
names that are English words or caption notation (`or`, `to`, `The`, `KO`, `SD`, `ANOVA`: 39,000 of the 69,000
matches in the training captions); names never seen there stay. Only the reference files and the NER's training
captions are read: no Bio-ID normalization.

    python -m training.ner.name_lists protein corpus/reference_multi/uniprot.tsv.gz corpus/ner/train.spacy \\
        corpus/ner/protein_names.txt.gz --stats corpus/ner/protein_names.json
    python -m training.ner.name_lists cell corpus/sources/organisms/cell_line_species.tsv.gz corpus/ner/train.spacy \\
        corpus/ner/cell_names.txt.gz
    python -m training.ner.name_lists organism corpus/sources/organisms/cell_line_species.tsv.gz corpus/ner/train.spacy \\
        corpus/ner/organism_names.txt.gz
"""
from pathlib import Path
from typing import Callable, Collection, Iterable, Optional, Set

import typer

from spacy_nseen.organisms.lexicon import SPECIES_WORDS
from spacy_nseen.text.tag_names import GROUP_LABELS
from training.common.tsv_io import iter_tsv
from training.ner.chemical_gazetteer import name_column, write_selected_names

MIN_CHARS, MAX_CHARS = 2, 60
# the group labels as the name features match them (lower-cased)
GROUP_LABEL_KEYS = frozenset(label.lower() for label in GROUP_LABELS)

app = typer.Typer(add_completion=False, help=__doc__.split("\n\n")[0])


def name_shape_ok(name: str) -> bool:
    """RETURNS (bool): whether a name is long enough and short enough to be listed."""
    return MIN_CHARS <= len(name) <= MAX_CHARS


def protein_names(reference: Path) -> Iterable[str]:
    """RETURNS (Iterable[str]): the reference set's names, less the experimental-group labels (`NTG`, `KO`)."""
    return (name for name in name_column(reference) if name.lower() not in GROUP_LABEL_KEYS)


def species_names(cellosaurus: Path) -> Set[str]:
    """RETURNS (Set[str]): the species words of the organism lexicon, the Cellosaurus species (`Mus musculus`)
    and their abbreviated binomials (`M. musculus`)."""
    names = set(SPECIES_WORDS)
    for row in iter_tsv(cellosaurus, ("species",)):
        species = row["species"].strip()
        if not species:
            continue
        names.add(species)
        words = species.split()
        if len(words) >= 2 and words[0][:1].isupper():
            names.add(f"{words[0][0]}. {' '.join(words[1:])}")
    return names


def write_list(read_names: Callable[[], Iterable[str]], train: Path, output: Path, labels: Collection[str],
               min_labelled: float, stats: Optional[Path], source: Path) -> None:
    """Keep the names (`select_names`, lower-cased matching) and write them, one per line, and their stats."""
    write_selected_names(read_names, source, train, output, min_labelled=min_labelled, stats=stats,
                         stats_head={"source": str(source), "train": str(train), "labels": sorted(labels)},
                         labels=labels, shape_ok=name_shape_ok, lowercase=True)


TRAIN = typer.Argument(..., help="The NER's training DocBin (gold entities)")
OUTPUT = typer.Argument(..., help="The names file to write (one per line; .gz allowed)")
MIN_LABELLED = typer.Option(0.5, help="Drop a name whose training occurrences carry the label less often than this")
STATS = typer.Option(None, help="Write what was kept and dropped (JSON)")


@app.command()
def protein(reference: Path = typer.Argument(..., help="The UniProt reference set TSV (kb_id, name, ...; gzip allowed)"),
            train: Path = TRAIN, output: Path = OUTPUT, min_labelled: float = MIN_LABELLED,
            stats: Optional[Path] = STATS) -> None:
    """The PROTEIN list: UniProt reference names (a PROTEIN or GENE mention counts as labelled)."""
    write_list(lambda: protein_names(reference), train, output, ("PROTEIN", "GENE"), min_labelled, stats, reference)


@app.command()
def cell(cellosaurus: Path = typer.Argument(..., help="The Cellosaurus cell-line TSV (cellosaurus_id, name, species, taxon_id)"),
         train: Path = TRAIN, output: Path = OUTPUT, min_labelled: float = MIN_LABELLED,
         stats: Optional[Path] = STATS) -> None:
    """The CELL list: Cellosaurus cell-line names."""
    write_list(lambda: name_column(cellosaurus), train, output, ("CELL",), min_labelled, stats, cellosaurus)


@app.command()
def organism(cellosaurus: Path = typer.Argument(..., help="The Cellosaurus cell-line TSV (its species column)"),
             train: Path = TRAIN, output: Path = OUTPUT, min_labelled: float = MIN_LABELLED,
             stats: Optional[Path] = STATS) -> None:
    """The ORGANISM list: the organism lexicon's species words and the Cellosaurus species."""
    write_list(lambda: sorted(species_names(cellosaurus)), train, output, ("ORGANISM",), min_labelled, stats, cellosaurus)


if __name__ == "__main__":
    app()
