"""Upgrading a 0.1.0 `nseen_linker` config: its flat settings (`threshold`, `kb_settings`, `token_weight`, …) and
its `kbs = {PROTEIN = "uniprot"}` map become the registered blocks that replace them.

spaCy validates a component's config against its factory before the factory runs, so a 0.1.0 config cannot be
read as it is: `spacy-nseen upgrade-config PIPELINE` rewrites a saved pipeline's `config.cfg` with
`upgrade_linker_config`, and the commands that load pipelines say so when they meet one (`is_legacy_error`).
"""

from dataclasses import fields
from typing import Any, Dict, Mapping

from ..linker.settings import IndexSettings, LinkerSettings
from .decision import NIL_DECISION
from .index import ANNOY_INDEX
from .kb_loaders import ENCODER_AND_NAMES, LINKER_DIRECTORY
from .knowledge_bases import URL_TEMPLATE, label_blocks
from .organisms import ORGANISM_ASSIGNER
from .ranker import DENSE, HYBRID, make_hybrid_ranker

SEARCH_FIELDS = tuple(f.name for f in fields(LinkerSettings))
INDEX_FIELDS = tuple(f.name for f in fields(IndexSettings)) + ("search_threads",)
DECISION_FIELDS = {
    "threshold": "threshold",
    "nil_decision": "use_nil_model",
    "link_tag_names": "link_tag_names",
    "link_case_mismatch": "link_case_mismatch",
}
KEPT = ("encoder", "top_k", "overwrite", "batch_size", "factory", "scorer")
# 0.1.0 key → where it lives now
NEW_HOMES: Dict[str, str] = {
    **{name: f"ranker.{name}" for name in SEARCH_FIELDS},
    **{name: f"index.{name}" for name in INDEX_FIELDS},
    **{old: f"decision.{new}" for old, new in DECISION_FIELDS.items()},
    "mode": 'ranker (@misc = "spacy_nseen.DenseRanker.v1" for mode = "dense")',
    "expand_abbreviations": "ranker.expand_abbreviations",
    "kb_settings": "kbs.<set>.ranker and kbs.<set>.decision",
    "kb_url_template": "kbs.<set>.url_template",
    "kb_url_templates": "kbs.<set>.url_template",
    "primary_xref": "kbs.<set>.primary_xref (label → database)",
    "organisms": "organisms.allowed",
    "assign_organisms": "organisms.assign",
    "organism_settings": "organisms.<weight>",
}
RANKER_KEYS = tuple(make_hybrid_ranker().search)  # the settings the hybrid ranker block takes


def is_legacy_config(block: Mapping[str, Any]) -> bool:
    """RETURNS (bool): whether an `nseen_linker` config block has 0.1.0's shape."""
    kbs = block.get("kbs") or {}
    return (
        any(key in NEW_HOMES for key in block if key not in ("organisms",))
        or isinstance(block.get("organisms"), list)
        or (bool(kbs) and all(isinstance(v, str) for v in kbs.values()))
    )


def upgrade_linker_config(block: Mapping[str, Any]) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): a 0.1.0 `nseen_linker` block in this version's shape, linking the same.

    RAISES (ValueError): naming a key that is neither a setting of 0.1.0 nor of this version.
    """
    if not is_legacy_config(block):
        return dict(block)
    unknown = sorted(
        k for k in block if k not in NEW_HOMES and k not in KEPT and k not in ("kbs", "ranker", "index", "decision")
    )
    if unknown:
        raise ValueError(f"nseen_linker: unknown settings {unknown}")
    out: Dict[str, Any] = {k: block[k] for k in KEPT if k in block}
    dense = block.get("mode") == "dense"
    search = {k: block[k] for k in RANKER_KEYS if k in block}
    defaults = LinkerSettings().to_dict()
    ablation = {
        k: block[k]
        for k in SEARCH_FIELDS
        if k in block
        and k not in RANKER_KEYS
        and k not in DECISION_FIELDS
        and k != "search_threads"
        and block[k] != defaults[k]
    }
    if ablation:
        raise ValueError(
            f"nseen_linker: the settings {sorted(ablation)} were ablations of 0.1.0 and are no longer "
            "settings of the component: remove them (their results are in results/)"
        )
    given = {key: dict(block[key]) for key in ("ranker", "index", "decision") if isinstance(block.get(key), Mapping)}
    if "ranker" in given and not search and "mode" not in block and "expand_abbreviations" not in block:
        out["ranker"] = given["ranker"]
    else:
        out["ranker"] = _ranker(search, bool(block.get("expand_abbreviations", True)), dense)
    out["index"] = {"@misc": ANNOY_INDEX, **given.get("index", {}), **{k: block[k] for k in INDEX_FIELDS if k in block}}
    out["decision"] = {
        "@misc": NIL_DECISION,
        **given.get("decision", {}),
        **{new: block[old] for old, new in DECISION_FIELDS.items() if old in block},
    }
    organisms: Dict[str, Any] = {"@misc": ORGANISM_ASSIGNER, **dict(block.get("organism_settings") or {})}
    if isinstance(block.get("organisms"), Mapping):  # already this version's block
        organisms = {
            **dict(block["organisms"]),
            **organisms,
            "@misc": block["organisms"].get("@misc", ORGANISM_ASSIGNER),
        }
    elif "organisms" in block:
        organisms["allowed"] = list(block["organisms"])
    if "assign_organisms" in block:
        organisms["assign"] = bool(block["assign_organisms"])
    out["organisms"] = organisms
    out["kbs"] = _kbs(block, search, dense)
    return out


def _ranker(search: Mapping[str, Any], expand: bool, dense: bool) -> Dict[str, Any]:
    if dense:
        kept = {k: search[k] for k in ("n_candidates", "cache_size") if k in search}
        return {"@misc": DENSE, **kept, "expand_abbreviations": expand}
    return {"@misc": HYBRID, **search, "expand_abbreviations": expand}


def _kbs(block: Mapping[str, Any], search: Mapping[str, Any], dense: bool) -> Dict[str, Dict[str, Any]]:
    """RETURNS: a block per set of a `{label: set}` map, with its `kb_settings` as the set's ranker and decision."""
    kbs = block.get("kbs") or {}
    if not all(isinstance(v, str) for v in kbs.values()):
        return dict(kbs)  # already the new shape
    labels = {kb: block["labels"] for kb, block in label_blocks(kbs).items()}  # a label mapped to "" is off
    changes: Mapping[str, Mapping[str, Any]] = block.get("kb_settings") or {}
    templates: Mapping[str, str] = block.get("kb_url_templates") or {}
    xrefs: Mapping[str, str] = block.get("primary_xref") or {}
    out: Dict[str, Dict[str, Any]] = {}
    for kb, kb_labels in labels.items():
        own = {k: v for k, v in dict(changes.get(kb) or {}).items() if v is not None}
        bad = sorted(set(own) - set(RANKER_KEYS) - set(DECISION_FIELDS))
        if bad:
            raise ValueError(f"nseen_linker: kb_settings.{kb}: {bad} are not settings of a set's ranker or decision")
        entry: Dict[str, Any] = {
            "labels": kb_labels,
            "url_template": templates.get(kb, block.get("kb_url_template", URL_TEMPLATE)),
        }
        own_xrefs = {label: xrefs[label] for label in kb_labels if xrefs.get(label)}
        if own_xrefs:
            entry["primary_xref"] = own_xrefs
        ranker_changes = {k: v for k, v in own.items() if k in RANKER_KEYS}
        if ranker_changes:
            entry["ranker"] = _ranker(
                {**search, **ranker_changes}, bool(block.get("expand_abbreviations", True)), dense
            )
        decision_changes = {DECISION_FIELDS[k]: v for k, v in own.items() if k in DECISION_FIELDS}
        if decision_changes:
            base = {new: block[old] for old, new in DECISION_FIELDS.items() if old in block}
            entry["decision"] = {"@misc": NIL_DECISION, **base, **decision_changes}
        out[kb] = entry
    return out


# 0.1.0's [initialize.components.nseen_linker] path maps → the fields of one loader per set (parts.kb_loaders)
INITIALIZE_MAPS = {"linkers": "path", "nil_models": "nil_model", "entity_priors": "entity_prior"}
BUILD_MAPS = {"encoders": "encoder", "reference_sets": "reference_set"}


def is_legacy_initialize(block: Mapping[str, Any]) -> bool:
    """RETURNS (bool): whether an `[initialize.components.nseen_linker]` block has 0.1.0's path maps."""
    return any(key in block for key in (*INITIALIZE_MAPS, *BUILD_MAPS))


def upgrade_initialize_block(block: Mapping[str, Any]) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): 0.1.0's path maps (`linkers`, `encoders` + `reference_sets`, `nil_models`,
    `entity_priors`) as one `kb_loaders` block per reference set; `cell_lines` and `abbreviations` stay."""
    out = {k: v for k, v in block.items() if k not in INITIALIZE_MAPS and k not in BUILD_MAPS}
    loaders: Dict[str, Dict[str, Any]] = dict(out.pop("kb_loaders", {}) or {})
    for kb, path in (block.get("linkers") or {}).items():
        loaders[kb] = {"@misc": LINKER_DIRECTORY, "path": path}
    for kb, path in (block.get("encoders") or {}).items():
        names = (block.get("reference_sets") or {}).get(kb)
        if names is not None and kb not in loaders:
            loaders[kb] = {"@misc": ENCODER_AND_NAMES, "encoder": path, "reference_set": names}
    for old in ("nil_models", "entity_priors"):
        for kb, value in (block.get(old) or {}).items():
            if value and kb in loaders:
                loaders[kb][INITIALIZE_MAPS[old]] = value
    out["kb_loaders"] = loaders
    return out


def legacy_hint(error: Exception) -> str:
    """RETURNS (str): what to do about a config error that 0.1.0 settings of `nseen_linker` caused ("" if none)."""
    text = str(error)
    found = sorted(k for k in NEW_HOMES if f"'{k}'" in text and "nseen_linker" in text)
    if not found:
        return ""
    homes = "; ".join(f"{k} → {NEW_HOMES[k]}" for k in found)
    return (
        f"The pipeline's nseen_linker config has spacy_nseen 0.1.0's flat settings ({homes}). Upgrade it with "
        "`spacy-nseen upgrade-config PIPELINE_DIR` (it rewrites config.cfg; the linkers are unchanged)."
    )
