"""Swiss-Prot names of every other organism (the mirror's `names_by_organism_extra.tsv.gz`) for a reference set.

The extra file holds 499,212 reviewed entries of 13,577 taxa (UniProt ≈ 2018_10), most with only the primary
gene name and the entry mnemonic (`uniprot_other/README_extra.md`). Which taxa a reference set takes is a
selection (`parse_selection`): taxon ids, `model` (the organisms biologists name in captions: the ones the
organism assigner's lexicon knows, and the human viruses of `VIRUS_SPECIES`) or `all` (every taxon).

Viral entries are filed under strains and isolates (`Human herpesvirus 8 type P (isolate GK18)`, 55 HIV-1
isolates); a caption names the virus (`KSHV`, `HIV-1`), so their taxon becomes the species' (`VIRUS_SPECIES`).
An entry mnemonic is kept only for an entry without a gene name (otherwise it repeats the gene name or is an
opaque code such as `KITH` of thymidine kinase). Gene names that are common English words as written (fly `in`,
`for`, `how`, `en`: lower case, and a spaCy stop word or two letters at most) are left out: the exact tier folds
case, so such a name would match the word in every sentence (the entry keeps its name forms, `Dmen`).
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, FrozenSet, Iterator, List, Optional, Tuple, Union

from spacy.lang.en.stop_words import STOP_WORDS

from training.common.data_errors import DataFileError
from training.common.tsv_io import iter_tsv

PathLike = Union[str, Path]
ALL = "all"
MODEL = "model"
MNEMONIC = "entry_mnemonic"
GENE = "gene_primary"

# Organism-name prefix (the speclist's official name) -> the species taxon a caption's words name.
VIRUS_SPECIES: Tuple[Tuple[str, int], ...] = (
    ("Human herpesvirus 8", 37296),  # KSHV
    ("Epstein-Barr virus", 10376),
    ("Human herpesvirus 4", 10376),
    ("Human immunodeficiency virus type 1", 11676),
    ("Human immunodeficiency virus type 2", 11709),
    ("Influenza A virus", 11320),
    ("Influenza B virus", 11520),
    ("Human cytomegalovirus", 10359),
    ("Human herpesvirus 5", 10359),
    ("Human herpesvirus 1", 10298),  # HSV-1
    ("Human herpesvirus 2", 10310),  # HSV-2
    ("Hepatitis B virus", 10407),
    ("Hepatitis C virus", 11103),
    ("Vaccinia virus", 10245),
    ("Simian virus 40", 1891767),
    ("Murid herpesvirus 4", 33708),  # MHV-68
    ("Murid herpesvirus 1", 10366),  # MCMV
)

# Model organisms of the extra file (NCBI taxa as the speclist files them): the organisms of the assigner's
# lexicon (`spacy_nseen.organisms.lexicon`) with Swiss-Prot entries, and the viruses above.
MODEL_ORGANISMS: FrozenSet[int] = frozenset(
    {
        7227, 284812, 7955, 6239, 8355, 8364, 3702, 9031, 9913, 9615, 9823, 3055, 44689, 9986, 10029, 9544,
        9534, 9940, 9796, 36329, 224308, 5911, 367110, 4097, 4100, 39947, 1280, 5811, 6100, 7054, 6136,
    }
    | {taxon for _, taxon in VIRUS_SPECIES}
)


@dataclass(frozen=True)
class Selection:
    """Which taxa of the extra file a reference set takes.

    taxa (FrozenSet[int]): Taxa named one by one (species taxa of `VIRUS_SPECIES` included).
    everything (bool): Every taxon of the file (`all`).
    """

    taxa: FrozenSet[int] = frozenset()
    everything: bool = False

    def __contains__(self, taxon: int) -> bool:
        return self.everything or taxon in self.taxa

    @property
    def empty(self) -> bool:
        return not self.everything and not self.taxa


def parse_selection(spec: str) -> Tuple[List[int], Selection]:
    """Split an `--organisms` value into plain taxa and the extra file's selection.

    spec (str): Comma-separated taxon ids and the words `model` and `all` (`10090,10116,model`).
    RETURNS (Tuple[List[int], Selection]): the taxon ids in the order given, and the selection of the extra file
        (the ids given, plus `MODEL_ORGANISMS` for `model`, or everything for `all`).
    RAISES (ValueError): on a word that is neither a taxon id nor `model`/`all`.
    """
    taxa: List[int] = []
    words = [w.strip() for w in spec.split(",") if w.strip()]
    everything = ALL in words
    model = MODEL in words
    for word in words:
        if word in (ALL, MODEL):
            continue
        if not word.isdigit():
            raise ValueError(f"--organisms: {word!r} is neither an NCBI taxon id nor 'model' or 'all'")
        taxa.append(int(word))
    chosen = set(taxa) | (set(MODEL_ORGANISMS) if model else set())
    return taxa, Selection(frozenset(chosen), everything)


def species_taxon(taxon: int, organism: str) -> int:
    """RETURNS (int): the species taxon of a viral strain or isolate (`VIRUS_SPECIES`), else `taxon`."""
    for prefix, species in VIRUS_SPECIES:
        if organism.startswith(prefix):
            return species
    return taxon


@dataclass
class ExtraEntry:
    """One entry of the extra file: accession, (species) taxon and its (name, kind) rows, in file order."""

    accession: str
    taxon: int
    names: List[Tuple[str, str]]

    def kept_names(self) -> List[Tuple[str, str]]:
        """RETURNS (List[Tuple[str, str]]): the names without common English words, and without the mnemonic when
        the entry has another name."""
        names = [(n, k) for n, k in self.names if not is_common_word(n)]
        if any(kind != MNEMONIC for _, kind in names):
            return [(n, k) for n, k in names if k != MNEMONIC]
        return names or [(n, k) for n, k in self.names if k == MNEMONIC]

    def gene_name(self) -> Optional[str]:
        """RETURNS (Optional[str]): the entry's primary gene name, if it has one."""
        return next((n for n, k in self.names if k == GENE), None)


def is_common_word(name: str) -> bool:
    """RETURNS (bool): whether a name is a common English word as written (`in`, `for`, `how`, `en`)."""
    text = name.strip()
    return text.isalpha() and text.islower() and (len(text) <= 2 or text in STOP_WORDS)


def read_extra_entries(path: PathLike, selection: Selection) -> Iterator[ExtraEntry]:
    """Read the entries of the selected taxa (rows of one accession are grouped wherever they are in the file).

    path (PathLike): `names_by_organism_extra.tsv.gz` (accession, name, name_kind, taxon_id, organism).
    selection (Selection): The taxa to keep (compared as species taxa, so `37296` selects every KSHV isolate).
    YIELDS (ExtraEntry): the entries, in first-row order.
    RAISES (DataFileError): when a taxon id is no number.
    """
    entries: Dict[str, ExtraEntry] = {}
    for row in iter_tsv(path, ("accession", "name", "name_kind", "taxon_id", "organism")):
        raw = row["taxon_id"].strip()
        if not raw.isdigit():
            raise DataFileError(Path(path), f"taxon_id {raw!r} is no number", "Fetch the organisms source again")
        taxon = species_taxon(int(raw), row["organism"])
        if taxon not in selection and int(raw) not in selection:
            continue
        accession = row["accession"].strip()
        entry = entries.get(accession)
        if entry is None:
            entry = entries[accession] = ExtraEntry(accession, taxon, [])
        entry.names.append((row["name"], row["name_kind"] or "name"))
    yield from entries.values()
