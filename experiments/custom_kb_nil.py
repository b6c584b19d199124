"""Does a `build-kb` linker stay silent on made-up names and still link its own? (issue 55)

    python -m experiments.custom_kb_nil --output results/custom_kb_nil

A lab-reagent knowledge base (antibodies, plasmids, siRNAs, kits, cell lines; made here from fixed word lists
and a seed, written to the output as `reagents.tsv`) gets a linker the way a user makes one:
`spacy-nseen train-encoder` (the README's small sizes, `ENCODER_ARGS`: a few hundred names) then
`spacy-nseen build-kb` (defaults; the NIL model is fitted by build-kb from the names alone). Then an
`nseen_linker` with the default decision (`threshold = null`: the NIL model's own threshold) links, each as a
whole entity:
- its own names (all of them): linked, and linked to their own id;
- 200 case/dash/space variants of its names (`ablab 010`, `PEF-V5-P53`, `siTP53 2`);
- 200 made-up reagent names built from other word lists (`AbLab-999` where AbLab-010 exists, `pEF-V5-p63` where
  pEF-V5-p53 exists, antibodies and siRNAs of genes the file lacks, kits of other products, random codes): none
  is a name of the file, so each should stay unlinked.
- 100 of its names with a generic word after them (`AbLab-010 antibody`; reported, no target).
The same sets are linked without the NIL model (`use_nil_model = false, threshold = 0`: the behaviour before).
Targets: made-up ≥ 95 % unlinked, own names ≥ 95 % linked, variants ≥ 80 % linked. Writes `results.json` and
`README.md` (with this command) to the output.
"""

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import spacy
import typer
from spacy.tokens import Span

from spacy_nseen import encoder_block, linker_directory
from spacy_nseen.text.normalization import loose_key

GENES = (
    "TP53 MDM2 EGFR HRAS KRAS BRAF AKT1 MTOR PTEN RB1 MYC JUN FOS STAT3 NFKB1 RELA IKBKE PLCG2 ATG5 ATG7 BECN1 "
    "SQSTM1 MAP1LC3B ULK1 TFEB LAMP1 RAB7A CASP3 BCL2 BAX PARP1 CDK2 CCNB1 CDKN1A GAPDH ACTB TUBB VIM CDH1 CTNNB1 "
    "GSK3B NOTCH1 SMAD4 TGFB1 VEGFA HIF1A SIRT1 FOXO3 PINK1 PRKN"
).split()
OTHER_GENES = (
    "TP63 TP73 ERBB2 NRAS ARAF AKT2 RPTOR PIK3CA RBL2 MYCN JUNB FOSL1 STAT5A NFKB2 RELB TBK1 PLCG1 ATG12 ATG16L1 "
    "UVRAG NBR1 GABARAP ULK2 TFE3 LAMP2 RAB5A CASP9 MCL1 BAK1 PARP2 CDK4 CCND1 CDKN2A HPRT1 ACTA2 TUBA1B DES CDH2 "
    "JUP GSK3A NOTCH3 SMAD3 TGFB2 VEGFC EPAS1 SIRT3 FOXO1 LRRK2 PARK7"
).split()
BACKBONES = ("pEF", "pcDNA3", "pCMV", "pLKO.1", "pMSCV")
OTHER_BACKBONES = ("pCAG", "pBABE", "pLenti", "pGEX", "pET28")
TAGS = ("V5", "HA", "FLAG", "Myc", "GFP")
KITS = (
    "LumiGlow Luciferase Assay Kit", "CellQuant Viability Kit", "PureSpin Plasmid Miniprep Kit",
    "QuickBlot ECL Substrate", "NucleoFix Transfection Reagent", "SignalSafe Protease Inhibitor Cocktail",
    "BrightStain Nuclear Dye", "RapidLyse RIPA Buffer", "TrueCount Cell Counting Kit", "CleanCut DNA Ladder",
)
OTHER_KITS = (
    "LumiGlow Renilla Assay Kit", "CellQuant Apoptosis Kit", "PureSpin Gel Extraction Kit", "QuickBlot Stripping Buffer",
    "NucleoFix Electroporation Buffer", "SignalSafe Phosphatase Inhibitor Cocktail", "BrightStain Actin Dye",
    "RapidLyse NP-40 Buffer", "TrueCount Bead Standard", "CleanCut RNA Ladder", "StarMix PCR Master Mix",
    "DeepFreeze Cell Storage Medium", "OptiBlock Blocking Buffer", "GreenLight qPCR Mix", "FastFix Paraformaldehyde",
)
CELL_LINES = (("LAB-HeLa-GFP", "HeLa GFP reporter"), ("LAB-U2OS-Tet", "U2OS Tet-On"),
              ("LAB-HEK293-Flp", "HEK293 Flp-In"), ("LAB-MEF-Atg5KO", "Atg5 knockout MEF"),
              ("LAB-A549-Luc", "A549 luciferase"))
ENCODER_ARGS = ("--max-steps", "400", "--depth", "1", "--hidden-width", "32", "--char-width", "32",
                "--output-width", "64", "--batch-pairs", "64")
VARIANT_FORMS = ("lower", "upper", "no_dashes_spaces", "dashes_as_spaces", "spaces_as_dashes")


def clone_name(rng: random.Random) -> str:
    """RETURNS (str): an antibody clone name (`D4E1`, `7F12`)."""
    return rng.choice("ABCDEFGHKLMN") + str(rng.randint(1, 9)) + rng.choice("ABCDEFGH") + str(rng.randint(1, 12))


def reagent_rows(seed: int = 0) -> List[Tuple[str, str, str]]:
    """RETURNS (List[Tuple[str, str, str]]): (kb_id, name, kind) rows of the lab-reagent knowledge base."""
    rng = random.Random(seed)
    rows: List[Tuple[str, str, str]] = []
    catalog = rng.sample(range(1, 600), 40)
    for i, (number, gene) in enumerate(zip(catalog, rng.sample(GENES, 40)), start=1):
        kb_id = f"LABAB:{i:04d}"
        rows += [(kb_id, f"AbLab-{number:03d}", "name"), (kb_id, f"anti-{gene} ({clone_name(rng)})", "synonym")]
    for i, gene in enumerate(rng.sample(GENES, 40), start=1):
        kb_id = f"LABPL:{i:04d}"
        backbone, tag = rng.choice(BACKBONES), rng.choice(TAGS)
        symbol = gene.lower().replace("tp53", "p53") if rng.random() < 0.3 else gene
        rows += [(kb_id, f"{backbone}-{tag}-{symbol}", "name"), (kb_id, f"{tag}-{symbol} in {backbone}", "synonym")]
    for i, gene in enumerate(rng.sample(GENES, 25), start=1):
        kb_id = f"LABSI:{i:04d}"
        n = rng.randint(1, 3)
        rows += [(kb_id, f"si{gene}-{n}", "name"), (kb_id, f"{gene} siRNA #{n}", "synonym")]
    for i, kit in enumerate(KITS, start=1):
        rows.append((f"LABKT:{i:04d}", kit, "name"))
    for i, (name, synonym) in enumerate(CELL_LINES, start=1):
        rows += [(f"LABCL:{i:04d}", name, "name"), (f"LABCL:{i:04d}", synonym, "synonym")]
    rows.append(("LABPL:0041", "pEF-V5-p53", "name"))  # the near miss: pEF-V5-p63 must stay unlinked
    return rows


def made_up_names(rows: Sequence[Tuple[str, str, str]], n: int = 200, seed: int = 1) -> List[str]:
    """RETURNS (List[str]): `n` reagent names that are no name of the knowledge base (by loose key)."""
    rng = random.Random(seed)
    known = {loose_key(name) for _, name, _ in rows}
    used = {int(name.split("-")[1]) for _, name, _ in rows if name.startswith("AbLab-")}
    makers = [
        lambda: f"AbLab-{rng.choice([x for x in range(1, 1000) if x not in used]):03d}",
        lambda: f"anti-{rng.choice(OTHER_GENES)} ({clone_name(rng)})",
        lambda: f"{rng.choice(BACKBONES + OTHER_BACKBONES)}-{rng.choice(TAGS)}-{rng.choice(OTHER_GENES)}",
        lambda: f"si{rng.choice(OTHER_GENES)}-{rng.randint(1, 3)}",
        lambda: rng.choice(OTHER_KITS),
        lambda: f"{rng.choice('XQZWRK')}{rng.choice('XQZWRK')}-{rng.randint(100, 9999)} reagent",
    ]
    found = ["AbLab-999", "pEF-V5-p63"]
    while len(found) < n:
        name = rng.choice(makers)()
        if loose_key(name) not in known and name not in found:
            found.append(name)
    return found


def variant(name: str, form: str) -> str:
    """RETURNS (str): a case/dash/space variant of a name."""
    if form == "lower":
        return name.lower()
    if form == "upper":
        return name.upper()
    if form == "no_dashes_spaces":
        return name.replace("-", "").replace(" ", "")
    if form == "dashes_as_spaces":
        return name.replace("-", " ")
    return name.replace(" ", "-")


def name_variants(rows: Sequence[Tuple[str, str, str]], n: int = 200, seed: int = 2) -> List[Tuple[str, str]]:
    """RETURNS (List[Tuple[str, str]]): `n` (variant, kb_id) pairs, each variant differing from its name."""
    rng = random.Random(seed)
    pairs = sorted({(variant(name, form), kb_id) for kb_id, name, _ in rows for form in VARIANT_FORMS
                    if variant(name, form) != name})
    return rng.sample(pairs, min(n, len(pairs)))


def with_words(rows: Sequence[Tuple[str, str, str]], n: int = 100, seed: int = 3) -> List[Tuple[str, str]]:
    """RETURNS (List[Tuple[str, str]]): `n` (name + a word of its kind, kb_id) pairs: `AbLab-010 antibody`."""
    rng = random.Random(seed)
    words = {"LABAB": "antibody", "LABPL": "plasmid", "LABSI": "siRNA", "LABKT": "lot 2", "LABCL": "cells"}
    pairs = [(f"{name} {words[kb_id.split(':')[0]]}", kb_id) for kb_id, name, _ in rows]
    return rng.sample(pairs, min(n, len(pairs)))


def pipeline(linker_dir: Path, decision: Dict):
    """RETURNS (Language): a blank pipeline with `nseen_linker` over the linker, with a decision block."""
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_linker", config={"kbs": {"reagents": {"labels": ["REAGENT"]}},
                                         "encoder": encoder_block(linker_dir), "decision": decision})
    nlp.get_pipe("nseen_linker").initialize(lambda: [], nlp=nlp, kb_loaders={"reagents": linker_directory(str(linker_dir))})
    return nlp


def link_whole(nlp, mentions: Sequence[str]) -> List[Tuple[str, float]]:
    """RETURNS (List[Tuple[str, float]]): per mention, linked as one REAGENT entity: its kb_id ("" when unlinked)
    and kb_score."""
    linker = nlp.get_pipe("nseen_linker")
    out: List[Tuple[str, float]] = []
    for mention in mentions:
        doc = nlp.make_doc(mention)
        doc.ents = [Span(doc, 0, len(doc), "REAGENT")]
        ent = linker(doc).ents[0]
        out.append((ent.kb_id_, float(ent._.kb_score or 0.0)))
    return out


def run_cli(args: List[str]) -> float:
    """Run `python -m spacy_nseen ARGS` as a user would; RETURNS (float): seconds."""
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "spacy_nseen", *args], check=True)
    return round(time.monotonic() - start, 1)


def main(
    output: Path = typer.Option(Path("results/custom_kb_nil"), help="Output directory (results.json, README.md)"),
    work: Path = typer.Option(Path("training_output/custom_kb_nil"), help="Where the encoder and linker go"),
    seed: int = typer.Option(0, help="Seed of the knowledge base"),
) -> None:
    """Build a reagent linker with train-encoder + build-kb and count what it links (see the module doc)."""
    output.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)
    rows = reagent_rows(seed)
    names_file = output / "reagents.tsv"
    names_file.write_text("kb_id\tname\tkind\n" + "".join("\t".join(r) + "\n" for r in rows), encoding="utf8")
    seconds = {
        "train_encoder": run_cli(["train-encoder", str(names_file), str(work / "encoder"), "--seed", str(seed),
                                  *ENCODER_ARGS]),
        "build_kb": run_cli(["build-kb", str(names_file), str(work / "reagents"), "--encoder", str(work / "encoder")]),
    }
    own = [(name, kb_id) for kb_id, name, _ in rows]
    sets = {"own_names": own, "variants": name_variants(rows), "with_word": with_words(rows)}
    made_up = made_up_names(rows)
    results: Dict = {"command": "python -m experiments.custom_kb_nil " + " ".join(sys.argv[1:]),
                     "knowledge_base": {"names": len(rows), "entities": len({r[0] for r in rows})},
                     "seconds": seconds}
    decisions = {"nil_model": {"@misc": "spacy_nseen.NilDecision.v1"},
                 "no_nil_model": {"@misc": "spacy_nseen.NilDecision.v1", "use_nil_model": False, "threshold": 0.0}}
    for run, decision in decisions.items():
        nlp = pipeline(work / "reagents", decision)
        found: Dict = {}
        for label, pairs in sets.items():
            got = link_whole(nlp, [m for m, _ in pairs])
            linked = sum(1 for kb_id, _ in got if kb_id)
            right = sum(1 for (kb_id, _), (_, gold) in zip(got, pairs) if kb_id == gold)
            found[label] = {"n": len(pairs), "linked": round(linked / len(pairs), 4),
                            "linked_right": round(right / len(pairs), 4),
                            "missed": [m for (m, gold), (kb_id, _) in zip(pairs, got) if kb_id != gold][:20]}
        got = link_whole(nlp, made_up)
        found["made_up"] = {"n": len(made_up), "unlinked": round(sum(1 for k, _ in got if not k) / len(made_up), 4),
                            "linked_examples": [(m, k, round(s, 3)) for m, (k, s) in zip(made_up, got) if k][:20],
                            "issue_examples": {m: got[made_up.index(m)] for m in ("AbLab-999", "pEF-V5-p63")}}
        results[run] = found
    own, variants = sets["own_names"], sets["variants"]
    results.update(results.pop("nil_model"))
    stats = json.loads((work / "reagents" / "build_stats.json").read_text(encoding="utf8"))
    results["nil_model"] = stats["nil_model"]
    results["targets"] = {
        "made_up_unlinked >= 0.95": results["made_up"]["unlinked"] >= 0.95,
        "own_names_linked >= 0.95": results["own_names"]["linked_right"] >= 0.95,
        "variants_linked >= 0.80": results["variants"]["linked_right"] >= 0.80,
    }
    (output / "results.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf8")
    held = results["nil_model"].get("held_out", {})
    lines = [
        "# A build-kb linker's NIL decision on made-up reagent names (issue 55)", "",
        f"Command: `{results['command']}` (from the repository root; module doc: `experiments/custom_kb_nil.py`).", "",
        f"Knowledge base: `reagents.tsv` here, {len(rows)} names of {results['knowledge_base']['entities']} reagents. "
        f"Encoder and linker made with `spacy-nseen train-encoder {' '.join(ENCODER_ARGS)}` and `spacy-nseen build-kb` "
        f"({seconds['train_encoder']} s and {seconds['build_kb']} s); linked by `nseen_linker` with the default "
        f"decision (threshold null: the NIL model's own, {results['nil_model']['threshold']}).", "",
        "| set | n | target | result |", "|---|---|---|---|",
        f"| made-up names left unlinked | {len(made_up)} | ≥ 95 % | {results['made_up']['unlinked']:.1%} |",
        f"| own names linked to their id | {len(own)} | ≥ 95 % | {results['own_names']['linked_right']:.1%} |",
        f"| case/dash/space variants linked to their id | {len(variants)} | ≥ 80 % | "
        f"{results['variants']['linked_right']:.1%} |", "",
        f"`AbLab-999` → {results['made_up']['issue_examples']['AbLab-999']}, `pEF-V5-p63` → "
        f"{results['made_up']['issue_examples']['pEF-V5-p63']} ((kb_id, kb_score); \"\" = unlinked).", "",
        "The NIL model on the held-out quarter of the sampled entities (examples made by `spacy_nseen.linker.kb_nil`: "
        "own names and variants vs held-out entities, near misses, made-up strings): "
        f"ROC AUC {held.get('roc_auc')}, average precision {held.get('average_precision')}, at the threshold "
        f"precision {held.get('precision')}, recall {held.get('recall')}, wrong answers left unlinked "
        f"{held.get('nil_recall')}; by kind {held.get('by_kind')}.", "",
        f"Beyond the targets: {results['with_word']['linked_right']:.1%} of {results['with_word']['n']} names with a "
        "word after them (`AbLab-010 antibody`) are linked to their id.", "",
        "Without the NIL model (`use_nil_model = false`, `threshold = 0`, what a build-kb linker did before): "
        f"made-up names left unlinked {results['no_nil_model']['made_up']['unlinked']:.1%}, own names linked "
        f"{results['no_nil_model']['own_names']['linked_right']:.1%}, variants "
        f"{results['no_nil_model']['variants']['linked_right']:.1%}.", "",
        "Every figure, the misses and the linked made-up names: `results.json`.",
    ]
    (output / "README.md").write_text("\n".join(lines) + "\n", encoding="utf8")
    print("\n".join(lines))


if __name__ == "__main__":
    typer.run(main)
