"""`nseen_glued_names`: an entity tagged on a token that glues a listed name to an affix becomes the name.

Captions glue protein names to prefixes and suffixes (`hTau`, `γH2AX`, `Atg5F` of `Atg5F/F`, `Npc2+`, `Dgcr8Δ`,
`3HA`) that no tokenizer rule splits in general. Where the NER tags such a token PROTEIN or GENE, this component
splits the token (`Doc.retokenize`) and puts the entity on the name inside it, so that the span is the mention a
curator marks and the linker searches `Tau`, not `hTau`.

A token is trimmed when its own text is not a listed name, it reads `prefix + name + suffix` for one of the learned
(prefix, suffix) rules (`training.ner.glued_name_rules`, from the training captions' gold spans only), and the
name is listed (lower-cased) in the PROTEIN list of the pipeline's `nseen_name_features` component, so the
component stores only its rules. The rule with the highest precision in training wins, then the longest name.
Entities of several tokens and other labels are left as they are; no entity is added or removed.

Each cut is recorded on the doc (`doc._.nseen_cut_tokens`: [start, end, token text] of the name and the token it
was cut from), so that the linker reads the organism form of the whole token (`hTau` → human), as it did before the
cut: `cut_tokens(doc)`.

Saved as `glued_names.json` (settings and rules; pickle-free): a missing, truncated or foreign file raises an
`ArtifactError` that names it.
"""

import json
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

import srsly
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example

from ..errors import ArtifactError, FileProblemError
from .gazetteer import Gazetteer
from .name_features import EXTENSION, NameFeatures

FORMAT_VERSION = 1
SETTINGS_FILE = "glued_names.json"
CUT_TOKENS = "nseen_cut_tokens"
DEFAULT_LABELS = ("PROTEIN", "GENE")
_FIX = "Copy the pipeline again, or rebuild it with this version of spacy_nseen"


def cut_tokens(doc: Doc) -> Dict[Tuple[int, int], str]:
    """RETURNS (Dict[Tuple[int, int], str]): (start, end) of each name `nseen_glued_names` cut from a token → the
    token's text; empty when nothing was cut (or the component is not in the pipeline)."""
    if not Doc.has_extension(CUT_TOKENS):
        return {}
    return {(int(start), int(end)): str(text) for start, end, text in doc._.get(CUT_TOKENS) or ()}


class AffixRule:
    """A learned (prefix, suffix) pair and how often trimming it was right in training."""

    __slots__ = ("prefix", "suffix", "precision", "right")

    def __init__(self, prefix: str, suffix: str, precision: float, right: int) -> None:
        if not prefix and not suffix:
            raise ValueError("an affix rule needs a prefix or a suffix")
        self.prefix, self.suffix, self.precision, self.right = prefix, suffix, float(precision), int(right)

    def core(self, text: str) -> Optional[Tuple[int, int]]:
        """RETURNS (Optional[Tuple[int, int]]): the name's offsets in `text` if the rule fits it (≥ 2 characters
        left between the affixes), else None."""
        end = len(text) - len(self.suffix)
        if end - len(self.prefix) >= 2 and text.startswith(self.prefix) and text.endswith(self.suffix):
            return len(self.prefix), end
        return None

    def to_dict(self) -> Dict[str, Any]:
        return {"prefix": self.prefix, "suffix": self.suffix, "precision": self.precision, "right": self.right}


class GluedNames:
    """Trims PROTEIN/GENE entities on glued tokens to the listed name inside (see the module doc).

    labels (Iterable[str]): the entity labels trimmed.
    names_component (str): the pipeline's `nseen_name_features` component whose list says what is a name.
    names_label (str): which of its lists (PROTEIN).
    """

    def __init__(
        self,
        nlp: Language,
        name: str = "nseen_glued_names",
        *,
        labels: Iterable[str] = DEFAULT_LABELS,
        names_component: str = "name_features",
        names_label: str = "PROTEIN",
    ) -> None:
        self.nlp = nlp
        self.name = name
        self.labels = frozenset(labels)
        if not self.labels:
            raise ValueError(f"{name}: labels must name at least one entity label")
        self.names_component = names_component
        self.names_label = names_label
        self._rules: List[AffixRule] = []
        # prefix → suffix length → suffix → rule, and the prefixes' lengths: a token's fitting rules in a few lookups
        self._by_prefix: Dict[str, Dict[int, Dict[str, AffixRule]]] = {}
        self._prefix_lengths: List[int] = []
        if not Doc.has_extension(CUT_TOKENS):
            Doc.set_extension(CUT_TOKENS, default=None)

    @property
    def rules(self) -> List[AffixRule]:
        """RETURNS (List[AffixRule]): the learned rules, most precise first."""
        return self._rules

    @rules.setter
    def rules(self, rules: List[AffixRule]) -> None:
        self._rules = list(rules)
        self._by_prefix = {}
        for rule in self._rules:
            by_suffix = self._by_prefix.setdefault(rule.prefix, {}).setdefault(len(rule.suffix), {})
            by_suffix.setdefault(rule.suffix, rule)  # a repeated pair: the first (most precise) one
        self._prefix_lengths = sorted({len(prefix) for prefix in self._by_prefix})

    def fitting(self, text: str) -> List[Tuple[AffixRule, Tuple[int, int]]]:
        """RETURNS (List[Tuple[AffixRule, Tuple[int, int]]]): the rules that fit `text` (`AffixRule.core`), each
        with the offsets of the name between its affixes."""
        found = []
        for n_prefix in self._prefix_lengths:
            for n_suffix, by_suffix in self._by_prefix.get(text[:n_prefix], {}).items():
                rule = by_suffix.get(text[len(text) - n_suffix :])
                core = None if rule is None else rule.core(text)
                if rule is not None and core is not None:
                    found.append((rule, core))
        return found

    # the name list: the name features' gazetteer of `names_label`
    def _features(self) -> NameFeatures:
        try:
            component = self.nlp.get_pipe(self.names_component)
        except KeyError:
            raise ValueError(
                f"{self.name}: the pipeline has no component {self.names_component!r} (names_component): "
                f"add nseen_name_features before it, or set names_component"
            ) from None
        if not isinstance(component, NameFeatures) or self.names_label not in component.labels:
            raise ValueError(
                f"{self.name}: {self.names_component!r} is not an nseen_name_features component with a "
                f"{self.names_label!r} list"
            )
        return component

    def _names(self) -> Gazetteer:
        return self._features().gazetteers[self.names_label]

    def trim(self, text: str, names: Optional[Gazetteer] = None) -> Optional[Tuple[int, int]]:
        """RETURNS (Optional[Tuple[int, int]]): the offsets of the listed name to keep in a tagged token's text, or
        None to keep the token whole."""
        fits = self.fitting(text)
        if not fits:
            return None
        if names is None:
            names = self._names()
        # names are looked up as the pipeline's tokenizer splits them (the list's keys are tokenized the same way)
        tokenize = self.nlp.tokenizer
        if names.lists(text, tokenize):
            return None
        best: Optional[Tuple[Tuple[float, int, int], Tuple[int, int]]] = None
        for rule, core in fits:
            rank = (rule.precision, rule.right, core[1] - core[0])
            if (best is None or rank > best[0]) and names.lists(text[core[0] : core[1]], tokenize):
                best = (rank, core)
        return None if best is None else best[1]

    def __call__(self, doc: Doc) -> Doc:
        """Split each trimmed token and move its entity onto the name. RETURNS (Doc): the same doc."""
        if not self.rules or not doc.ents:
            return doc
        names = self._names()
        cuts: List[Tuple[Span, Tuple[int, int]]] = []
        for ent in doc.ents:
            if ent.label_ in self.labels and len(ent) == 1:
                core = self.trim(ent.text, names)
                if core is not None:
                    cuts.append((ent, core))
        if not cuts:
            return doc
        spans = [(ent.start_char, ent.end_char, ent.label_, ent.kb_id_) for ent in doc.ents]
        trimmed = {ent.start_char: (ent.start_char + s, ent.start_char + e) for ent, (s, e) in cuts}
        cut = [[ent.start_char + s, ent.start_char + e, ent.text] for ent, (s, e) in cuts]  # before the split
        with doc.retokenize() as retokenizer:
            for ent, (start, end) in cuts:
                token, text = ent[0], ent.text
                parts = [p for p in (text[:start], text[start:end], text[end:]) if p]
                core_index = 1 if start else 0
                retokenizer.split(token, parts, heads=[(token, core_index)] * len(parts))
        ents = []
        for start, end, label, kb_id in spans:
            start, end = trimmed.get(start, (start, end))
            span = doc.char_span(start, end, label=label, kb_id=kb_id)
            if span is None:  # cannot happen: every cut is on a new token boundary
                raise RuntimeError(f"{self.name}: no token span for ({start}, {end}) after the split")
            ents.append(span)
        doc.ents = ents
        doc._.set(CUT_TOKENS, (doc._.get(CUT_TOKENS) or []) + cut)
        if doc.has_extension(EXTENSION) and doc._.get(EXTENSION) is not None:
            doc._.set(EXTENSION, self._features().features(doc))  # one row per token again
        return doc

    def pipe(self, stream: Iterable[Doc], batch_size: int = 128) -> Iterable[Doc]:
        for doc in stream:
            yield self(doc)

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        rules_path: Optional[str] = None,
    ) -> None:
        """Read the rules (`training.ner.glued_name_rules`). Without a file the component trims nothing."""
        self.rules = []
        if rules_path is None:
            return
        path = Path(rules_path)
        if not path.is_file():
            raise FileProblemError(
                path,
                "the glued-name rules file does not exist",
                "Build it first (spacy project run name-lists) or set rules_path to null",
            )
        try:
            data = json.loads(path.read_text(encoding="utf8"))
        except ValueError as e:
            raise FileProblemError(
                path, f"not valid JSON ({e})", "Build it again with training.ner.glued_name_rules"
            ) from e
        self.rules = self._read_rules(data.get("rules"), path)
        self._features()  # fail now, not at the first doc, when the name list is missing

    # serialization: one JSON file of settings and rules, checked on load
    def _settings(self) -> Dict[str, Any]:
        return {
            "format_version": FORMAT_VERSION,
            "labels": sorted(self.labels),
            "names_component": self.names_component,
            "names_label": self.names_label,
            "n_rules": len(self.rules),
            "rules": [r.to_dict() for r in self.rules],
        }

    def _read_rules(self, rules: Any, where: Union[str, Path]) -> List[AffixRule]:
        if not isinstance(rules, list):
            raise ArtifactError(where, "no list of rules", _FIX)
        try:
            return [
                AffixRule(str(r["prefix"]), str(r["suffix"]), float(r["precision"]), int(r["right"])) for r in rules
            ]
        except (KeyError, TypeError, ValueError) as e:
            raise ArtifactError(where, f"a rule is malformed ({e})", _FIX) from e

    def _restore(self, settings: Any, where: Union[str, Path]) -> None:
        if not isinstance(settings, dict) or settings.get("format_version") != FORMAT_VERSION:
            version = settings.get("format_version") if isinstance(settings, dict) else None
            raise ArtifactError(where, f"format_version {version!r}, expected {FORMAT_VERSION}", _FIX)
        rules = self._read_rules(settings.get("rules"), where)
        if len(rules) != settings.get("n_rules"):
            raise ArtifactError(where, f"{len(rules)} rules, but it says {settings.get('n_rules')} (truncated?)", _FIX)
        self.labels = frozenset(settings.get("labels") or self.labels)
        self.names_component = str(settings.get("names_component", self.names_component))
        self.names_label = str(settings.get("names_label", self.names_label))
        self.rules = rules

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / SETTINGS_FILE, self._settings())

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "GluedNames":
        file_ = Path(path) / SETTINGS_FILE
        if not file_.is_file():
            raise ArtifactError(file_, "missing", _FIX)
        try:
            settings = json.loads(file_.read_text(encoding="utf8"))
        except ValueError as e:
            raise ArtifactError(file_, f"not valid JSON ({e})", _FIX) from e
        self._restore(settings, file_)
        return self

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        return srsly.json_dumps(self._settings()).encode("utf8")

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "GluedNames":
        try:
            settings = json.loads(bytes_data.decode("utf8"))
        except (ValueError, UnicodeDecodeError) as e:
            raise ArtifactError("<bytes>", f"not a serialized nseen_glued_names ({e})", "Serialize it again") from e
        self._restore(settings, "<bytes>")
        return self


@Language.factory(
    "nseen_glued_names",
    default_config={"labels": list(DEFAULT_LABELS), "names_component": "name_features", "names_label": "PROTEIN"},
    assigns=["doc.ents"],
    requires=["doc.ents"],
)
def make_glued_names(nlp: Language, name: str, labels: List[str], names_component: str, names_label: str) -> GluedNames:
    """Create the `nseen_glued_names` component (see the module doc); its rules come from `initialize`."""
    return GluedNames(nlp, name, labels=labels, names_component=names_component, names_label=names_label)
