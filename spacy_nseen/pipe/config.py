"""The `nseen_linker` factory's settings: its own defaults, and one typed keyword per `LinkerSettings` and
`IndexSettings` field (the factory's signature and default config are made from those dataclasses, so they are
the one source of each setting's name, type and default)."""
import inspect
from dataclasses import asdict, fields
from typing import Any, Callable, Dict, Tuple

from thinc.api import Config

from ..linker.settings import IndexSettings, LinkerSettings

DEFAULT_ENCODER_CONFIG = """
[encoder]
@architectures = "spacy_nseen.CharBiLSTMEncoder.v1"
vocab_size = 512
char_width = 64
hidden_width = 128
depth = 4
output_width = 128
dropout = 0.0
pooling = "max"
max_length = 64
batch_size = 128
precision = "fp32"
"""
DEFAULT_ENCODER = Config().from_str(DEFAULT_ENCODER_CONFIG)["encoder"]
# Empty by default: spaCy merges a user's dict into the default one, so a non-empty default would add routes
# the user did not ask for (and demand their reference sets at initialize).
DEFAULT_KBS: Dict[str, str] = {}
NO_KBS = (
    "nseen_linker: 'kbs' maps no entity label to a reference set. Configure it, e.g. "
    'nlp.add_pipe("nseen_linker", config={"kbs": {"PROTEIN": "uniprot", "CHEMICAL": "chebi"}})'
)
KB_URL_TEMPLATE = "https://identifiers.org/{}"

# The component's own settings; the search settings (every `LinkerSettings` field, same type and default) and
# the index settings (`IndexSettings`) join them in the factory's signature (`with_settings_signature`).
COMPONENT_DEFAULTS: Dict[str, Any] = {
    "encoder": DEFAULT_ENCODER,
    "kbs": DEFAULT_KBS,
    "top_k": 5,
    "threshold": 0.0,
    "overwrite": True,
    "mode": "hybrid",
    "kb_settings": {},
    "batch_size": 256,
    "kb_url_template": KB_URL_TEMPLATE,
    "kb_url_templates": {},
    "expand_abbreviations": True,
    "organisms": [],
    "assign_organisms": True,
    "primary_xref": {},
    "organism_settings": {},
}
SEARCH_SETTINGS = tuple(f.name for f in fields(LinkerSettings))
INDEX_SETTINGS = tuple(f.name for f in fields(IndexSettings))


def default_config() -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): the factory's default config: its own settings, then the search and index ones."""
    return {**COMPONENT_DEFAULTS, **LinkerSettings().to_dict(), **asdict(IndexSettings())}


def with_settings_signature(factory: Callable[..., Any]) -> Callable[..., Any]:
    """Give a factory taking `**settings` one typed keyword-only parameter per LinkerSettings and IndexSettings
    field (spaCy's config system reads the signature: it validates each value's type and names a bad setting)."""
    signature = inspect.signature(factory)
    params = [p for p in signature.parameters.values() if p.kind != inspect.Parameter.VAR_KEYWORD]
    annotations = dict(factory.__annotations__)
    annotations.pop("settings", None)
    for dataclass_ in (LinkerSettings, IndexSettings):
        for f in fields(dataclass_):
            params.append(inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default, annotation=f.type))
            annotations[f.name] = f.type
    factory.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    factory.__annotations__ = annotations
    return factory


def split_settings(settings: Dict[str, Any]) -> Tuple[LinkerSettings, IndexSettings]:
    """RETURNS: the factory's `**settings` as LinkerSettings and IndexSettings (errors name the setting)."""
    search = {k: settings.pop(k) for k in SEARCH_SETTINGS if k in settings}
    index = {k: settings.pop(k) for k in INDEX_SETTINGS if k in settings}
    if settings:
        raise TypeError(f"nseen_linker: unexpected settings {sorted(settings)}")
    try:
        return LinkerSettings(**search), IndexSettings(**index)
    except ValueError as err:
        raise ValueError(f"nseen_linker: {err}") from None
