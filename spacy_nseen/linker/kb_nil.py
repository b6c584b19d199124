"""A NIL decision for a linker of any names file, learned from the knowledge base itself (`build-kb`).

A user's knowledge base has no annotated mentions, so the examples are made from its names (as
`training/linker/train_nil.py` makes them for the shipped linkers from two reference sets):
- **own names** (right, when the best entity is the name's): a sampled name of an entity, as written or in a
  usual variant (lower or upper case, dashes and spaces removed, dashes for spaces and back, a generic word after
  it: `MCF-7 cells`, `AbLab-010 antibody`);
- **held-out entities** (wrong): the same name linked as if its entity were not in the knowledge base (its
  candidates removed): what an unknown entity with a name like a known one looks like;
- **near misses** (wrong): strings built to be close to a name but no name of the knowledge base: another number
  (`AbLab-010` → `AbLab-734`), a part swapped for a part of another name, one letter changed, a part appended;
- **made-up names** (wrong): random strings of letters and digits shaped like the knowledge base's names.
The entities are split in two: the model (`NilModel`, the same features as the shipped linkers',
`nil_decision.mention_features`) is fitted on the examples of one part, and its threshold (best balanced accuracy)
is chosen there; ROC AUC, average precision and the figures at the threshold are measured on the other part.
"""

import random
import re
import string
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy

from ..text.normalization import loose_key
from .kb_linker import KnowledgeBaseLinker
from .nil_decision import FEATURES, NilModel, fit_logistic
from .nil_metrics import at_threshold, average_precision, balanced_threshold, roc_auc
from .signals.nil import decision_features

TOP_K = 5
HELD_OUT_SHARE = 0.25
TARGET_EXAMPLES = 2000  # own names per part at least, when the knowledge base is small
MAX_PER_ENTITY = 20
# words a text writes after a name without changing what it names (`MCF 7 cells`)
GENERIC_WORDS = ("cells", "cell line", "protein", "gene", "antibody", "plasmid", "construct", "kit", "reagent")
_DIGITS = re.compile(r"\d+")
_PARTS = re.compile(r"[A-Za-z0-9]+")


def usual_variants(name: str) -> Dict[str, str]:
    """RETURNS (Dict[str, str]): the forms of a name a text may write, by kind (case, dashes and spaces)."""
    return {
        "as_written": name,
        "lower": name.lower(),
        "upper": name.upper(),
        "no_dashes_spaces": re.sub(r"[\s\-_]+", "", name),
        "dashes_as_spaces": name.replace("-", " "),
        "spaces_as_dashes": re.sub(r"\s+", "-", name),
    }


def with_generic_word(name: str, rng: random.Random) -> str:
    """RETURNS (str): the name followed by a generic word (`GENERIC_WORDS`): `MCF-7 cells`."""
    return f"{name} {rng.choice(GENERIC_WORDS)}"


def other_number(name: str, rng: random.Random, parts: Sequence[str]) -> Optional[str]:
    """`AbLab-010` → `AbLab-734`: one number of the name replaced by another of as many digits."""
    runs = list(_DIGITS.finditer(name))
    if not runs:
        return None
    run = rng.choice(runs)
    width = len(run.group())
    new = "".join(rng.choice(string.digits) for _ in range(width))
    return name[: run.start()] + new + name[run.end() :]


def swapped_part(name: str, rng: random.Random, parts: Sequence[str]) -> Optional[str]:
    """`pEF-V5-p53` → `pEF-V5-Rab7`: one part of the name replaced by a part of another name."""
    runs = [m for m in _PARTS.finditer(name) if len(m.group()) >= 2]
    if not runs or not parts:
        return None
    run = rng.choice(runs)
    return name[: run.start()] + rng.choice(parts) + name[run.end() :]


def changed_letter(name: str, rng: random.Random, parts: Sequence[str]) -> Optional[str]:
    """`Jurkat` → `Jurqat`: one letter of a part of three or more characters changed."""
    places = [i for m in _PARTS.finditer(name) if len(m.group()) >= 3 for i in range(m.start(), m.end())]
    places = [i for i in places if name[i].isalpha()]
    if not places:
        return None
    i = rng.choice(places)
    letter = rng.choice(string.ascii_lowercase.replace(name[i].lower(), ""))
    return name[:i] + (letter.upper() if name[i].isupper() else letter) + name[i + 1 :]


def appended_part(name: str, rng: random.Random, parts: Sequence[str]) -> Optional[str]:
    """`HEK293` → `HEK293-Tn5`: a part of another name (or a short code) appended."""
    extra = rng.choice(parts) if parts and rng.random() < 0.5 else made_up_part(rng)
    return f"{name}{rng.choice(('-', ' ', ''))}{extra}"


NEAR_MISSES: Dict[str, Callable[[str, random.Random, Sequence[str]], Optional[str]]] = {
    "other_number": other_number,
    "swapped_part": swapped_part,
    "changed_letter": changed_letter,
    "appended_part": appended_part,
}


def made_up_part(rng: random.Random) -> str:
    """RETURNS (str): a short code of letters and digits (`Kx7`, `QT-41`)."""
    letters = "".join(rng.choice(string.ascii_letters) for _ in range(rng.randint(1, 4)))
    digits = "".join(rng.choice(string.digits) for _ in range(rng.randint(0, 3)))
    return letters + (rng.choice(("", "-")) if digits else "") + digits


def made_up_name(rng: random.Random, length: int) -> str:
    """RETURNS (str): a random name of about `length` characters, parts of letters and digits."""
    pieces: List[str] = []
    while sum(len(p) + 1 for p in pieces) < max(3, length):
        pieces.append(made_up_part(rng))
    return rng.choice(("-", " ", "")).join(pieces)


@dataclass
class KbNilExamples:
    """The examples of a knowledge base's NIL model.

    features (numpy.ndarray): (n, len(FEATURES)) rows, `mention_features` of each example's linked answer.
    labels (numpy.ndarray): (n,) 1 when the best entity is right.
    kinds (List[str]): each example's kind (`own_name:lower`, `held_out`, `near_miss:other_number`, `made_up`).
    mentions (List[str]): each example's mention.
    """

    features: numpy.ndarray
    labels: numpy.ndarray
    kinds: List[str] = field(default_factory=list)
    mentions: List[str] = field(default_factory=list)

    def counts(self) -> Dict[str, int]:
        """RETURNS (Dict[str, int]): examples per kind."""
        found: Dict[str, int] = {}
        for kind in self.kinds:
            found[kind] = found.get(kind, 0) + 1
        return dict(sorted(found.items()))


def kb_nil_examples(
    linker: KnowledgeBaseLinker, entities: Sequence[int], seed: int = 0, per_entity: int = 1
) -> KbNilExamples:
    """Make the NIL examples of some entities of a linker's knowledge base (see the module doc).

    linker (KnowledgeBaseLinker): the linker (its reference set, indexes and settings; its NIL model is not read).
    entities (Sequence[int]): the entity indices whose names make the examples.
    seed (int): random seed.
    per_entity (int): examples of each kind made from each entity (more for a small knowledge base).
    RETURNS (KbNilExamples): the examples.
    """
    rng = random.Random(seed)
    reference = linker.reference_set
    plain = linker.with_settings(type(linker.settings)(**{**linker.settings.to_dict(), "nil_decision": False}))
    plain.nil_model = None
    wide = plain.with_settings(type(plain.settings)(**{**plain.settings.to_dict(), "exact_short_cut": False}))
    rows_of: Dict[int, List[int]] = {}
    for row, entity in enumerate(reference.name_entity.tolist()):
        rows_of.setdefault(entity, []).append(row)
    owners: Dict[str, set] = {}
    for row, entity in enumerate(reference.name_entity.tolist()):
        owners.setdefault(loose_key(reference.names[row]), set()).add(reference.kb_ids[entity])
    parts = sorted({p for name in reference.names for p in _PARTS.findall(name) if len(p) >= 2})
    mentions: List[str] = []
    kinds: List[str] = []
    right_ids: List[Optional[set]] = []
    held: List[Tuple[str, str]] = []
    for entity in [e for e in entities if e in rows_of for _ in range(per_entity)]:
        name = reference.names[rng.choice(rows_of[entity])]
        forms = sorted(usual_variants(name).items()) + [("generic_word", with_generic_word(name, rng))]
        kind, form = rng.choice(forms)
        mentions.append(form)
        kinds.append(f"own_name:{kind}")
        right_ids.append(owners.get(loose_key(name), {reference.kb_ids[entity]}))
        held.append((name, reference.kb_ids[entity]))
        near_kind = rng.choice(sorted(NEAR_MISSES))
        near = NEAR_MISSES[near_kind](name, rng, parts)
        if near and loose_key(near) not in owners:
            mentions.append(near)
            kinds.append(f"near_miss:{near_kind}")
            right_ids.append(None)
        made_up = made_up_name(rng, len(name))
        if loose_key(made_up) not in owners:
            mentions.append(made_up)
            kinds.append("made_up")
            right_ids.append(None)
    results = plain.link(mentions, top_k=TOP_K)
    features = [decision_features(plain, mentions, results)] if mentions else []
    labels = [int(bool(got) and ids is not None and got[0].kb_id in ids) for got, ids in zip(results, right_ids)]
    # held-out entities: the name linked without its entity's candidates (only the exact ones when one is exact)
    more = wide.link([name for name, _ in held], top_k=TOP_K + 10)
    rest = [[c for c in got if c.kb_id != kb_id] for got, (_, kb_id) in zip(more, held)]
    rest = [([c for c in r if c.score >= 1.0] if r and r[0].score >= 1.0 else r)[:TOP_K] for r in rest]
    if held:
        features.append(decision_features(plain, [name for name, _ in held], rest))
    labels += [0] * len(held)
    kinds += ["held_out"] * len(held)
    mentions += [name for name, _ in held]
    matrix = numpy.vstack(features) if features else numpy.zeros((0, len(FEATURES)))
    return KbNilExamples(matrix, numpy.asarray(labels, dtype=numpy.int64), kinds, mentions)


def train_kb_nil(
    linker: KnowledgeBaseLinker, n_entities: int = 2000, seed: int = 0, l2: float = 1e-3
) -> Tuple[NilModel, Dict]:
    """Fit a NIL model for a linker from its knowledge base (see the module doc) and measure it on held-out entities.

    linker (KnowledgeBaseLinker): the linker.
    n_entities (int): entities sampled for the examples (a quarter held out for the figures).
    seed (int): random seed.
    l2 (float): ridge penalty of the logistic regression.
    RETURNS (Tuple[NilModel, Dict]): the model (threshold set) and its figures on the held-out entities.
    """
    rng = random.Random(seed)
    n = linker.reference_set.n_entities
    sampled = rng.sample(range(n), min(n_entities, n))
    n_held = max(1, round(len(sampled) * HELD_OUT_SHARE)) if len(sampled) > 1 else 0
    fit_part, held_part = sampled[n_held:], sampled[:n_held]
    per_entity = max(1, min(MAX_PER_ENTITY, TARGET_EXAMPLES // max(1, len(sampled))))
    train = kb_nil_examples(linker, fit_part, seed=seed, per_entity=per_entity)
    if not train.labels.any() or train.labels.all():
        raise ValueError(f"the knowledge base {linker.name!r} gives examples of one class only; add names")
    weights = fit_logistic(train.features, train.labels, l2=l2)
    model = NilModel(weights)
    fitted = model.probabilities(train.features)
    model.threshold = balanced_threshold(fitted, train.labels)
    report: Dict = {
        "method": "spacy_nseen.linker.kb_nil (examples from the knowledge base's own names)",
        "entities": {"fitted": len(fit_part), "held_out": len(held_part)},
        "examples": train.counts(),
        "threshold": model.threshold,
        "threshold_rule": "best balanced accuracy (right links kept + wrong ones left unlinked) on the fitted part",
        "fitted": at_threshold(fitted, train.labels, model.threshold),
    }
    if held_part:
        test = kb_nil_examples(linker, held_part, seed=seed + 1, per_entity=per_entity)
        p = model.probabilities(test.features)
        report["held_out"] = {
            "examples": test.counts(),
            "roc_auc": round(roc_auc(p, test.labels), 4),
            "average_precision": round(average_precision(p, test.labels), 4),
            **at_threshold(p, test.labels, model.threshold),
            "by_kind": kind_rates(p, test, model.threshold),
        }
    model.info = {"weights": dict(zip(FEATURES, [round(w, 4) for w in weights])), **report}
    return model, report


def kind_rates(probabilities: numpy.ndarray, examples: KbNilExamples, threshold: float) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): per kind of example, the share decided right at `threshold` (a right link
    kept, a wrong one left unlinked)."""
    kept = numpy.asarray(probabilities) >= threshold
    rates: Dict[str, List[bool]] = {}
    for kind, keep, label in zip(examples.kinds, kept, examples.labels):
        rates.setdefault(kind.split(":")[0], []).append(bool(keep) == bool(label))
    return {kind: round(sum(v) / len(v), 4) for kind, v in sorted(rates.items())}
