"""spacy_nseen: NSEEN entity normalisation as a spaCy component (`nlp.add_pipe("nseen_linker")`)."""

from .about import __version__
from .component import NseenLinker, make_nseen_linker
from .encoder.layer import build_char_bilstm_encoder
from .encoder.weights_io import encoder_block
from .errors import ArtifactError, NotInitializedError, NseenError
from .linker.kb_linker import Candidate, KnowledgeBaseLinker, LinkerSettings
from .ner.gazetteer import Gazetteer, make_gazetteer
from .ner.glued_names import GluedNames, make_glued_names
from .ner.greek_suffixes import GreekSuffixes, make_greek_suffixes
from .ner.name_feature_embed import name_feature_hash_embed
from .ner.name_features import NameFeatures, make_name_features
from .ner.numbered_names import NumberedNames, make_numbered_names
from .ner.protein_gene import ProteinGeneLabeler, make_protein_gene
from .ner.repeated_mentions import RepeatedMentions, make_repeated_mentions
from .parts.kb_loaders import encoder_and_names, linker_directory
from .pipe.article import article_docs
from .reference.reference_set import ReferenceSet
from .text.abbreviation_lexicon import AbbreviationLexicon

__all__ = [
    "__version__",
    "AbbreviationLexicon",
    "ArtifactError",
    "Candidate",
    "Gazetteer",
    "GluedNames",
    "KnowledgeBaseLinker",
    "GreekSuffixes",
    "LinkerSettings",
    "NameFeatures",
    "NotInitializedError",
    "NseenError",
    "NseenLinker",
    "NumberedNames",
    "ProteinGeneLabeler",
    "ReferenceSet",
    "RepeatedMentions",
    "article_docs",
    "build_char_bilstm_encoder",
    "encoder_and_names",
    "encoder_block",
    "linker_directory",
    "name_feature_hash_embed",
    "make_gazetteer",
    "make_glued_names",
    "make_name_features",
    "make_nseen_linker",
    "make_numbered_names",
    "make_greek_suffixes",
    "make_protein_gene",
    "make_repeated_mentions",
]
