"""An article as a unit: its texts, and what the linker reads of them, computed once for all of its texts.

Each text of an article is linked with the others as context: their organism words and cell lines
(`organisms.context_evidence`) and the abbreviations they define (`text.abbreviation_context`), and, when captions
come split into panels, the other panels of its figure as closer context. Read again for each text, that costs the
square of the article's size; an `ArticleContext` reads each text once (lazily, on the first text that needs it) and
gives each text the context of the others in time independent of the article's size. The results are those of
`article_texts`/`figure_texts` lists of the other texts (`tests/pipe/test_article_context.py`). spaCy-free.
"""

from collections import OrderedDict
from typing import Dict, Hashable, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from ..organisms.assign import OrganismAssigner
from ..organisms.context_evidence import ContextEvidence, TextCounts
from ..organisms.evidence import TextEvidence
from ..text.abbreviation_context import ContextAbbreviations
from ..text.abbreviations import abbreviation_map

FigureKey = Optional[Hashable]


class ArticleContext:
    """The texts of one article, with their figure keys, and what is read of them (built once, shared by its docs).

    texts (Sequence[str]): the article's texts (captions, passages), in order.
    figures (Optional[Sequence[FigureKey]]): per text, the figure it belongs to (`"Figure 2"` for panels 2A and
        2B; None: no figure); None: no figures.
    """

    def __init__(self, texts: Sequence[str], figures: Optional[Sequence[FigureKey]] = None) -> None:
        if isinstance(texts, str):
            raise TypeError("an article's texts must be a list of strings, not one string")
        self.texts: Tuple[str, ...] = tuple(texts)
        bad = [i for i, text in enumerate(self.texts) if not isinstance(text, str)]
        if bad:
            raise TypeError(f"the article's text {bad[0]} is a {type(self.texts[bad[0]]).__name__}, not a string")
        if figures is not None and len(figures) != len(self.texts):
            raise ValueError(f"{len(self.texts)} texts but {len(figures)} figure keys: give one per text (None: none)")
        keys = list(figures or ())
        unhashable = [i for i, key in enumerate(keys) if not isinstance(key, Hashable)]
        if unhashable:
            i = unhashable[0]
            raise TypeError(f"the figure key of text {i} is a {type(keys[i]).__name__}: give a string (None: none)")
        self.figures: Optional[Tuple[FigureKey, ...]] = None if figures is None else tuple(figures)
        self._groups: Dict[Hashable, List[int]] = {}  # figure → its texts, in order
        self._place: List[int] = []  # per text, its place in its figure's group (-1: none)
        for i, key in enumerate(self.figures or (None,) * len(self.texts)):
            if key is None:
                self._place.append(-1)
            else:
                group = self._groups.setdefault(key, [])
                self._place.append(len(group))
                group.append(i)
        self._abbreviations: Optional[ContextAbbreviations] = None
        self._figure_abbreviations: Dict[Hashable, ContextAbbreviations] = {}
        self._scans: Dict[Tuple, Tuple[List[TextEvidence], ContextEvidence]] = {}
        self._figure_evidence: Dict[Tuple[Tuple, Hashable], ContextEvidence] = {}

    def __len__(self) -> int:
        return len(self.texts)

    def _check(self, index: int) -> None:
        if not 0 <= index < len(self.texts):
            raise IndexError(f"text {index} of an article of {len(self.texts)} texts")

    def _figure(self, index: int) -> FigureKey:
        return None if self.figures is None else self.figures[index]

    def article_texts(self, index: int) -> List[str]:
        """RETURNS (List[str]): the article's texts but text `index` (its `doc._.article_texts`)."""
        self._check(index)
        return [text for j, text in enumerate(self.texts) if j != index]

    def figure_texts(self, index: int) -> Optional[List[str]]:
        """RETURNS (Optional[List[str]]): the other texts of text `index`'s figure, None when it has no figure."""
        self._check(index)
        key = self._figure(index)
        if key is None:
            return None
        return [self.texts[j] for j in self._groups[key] if j != index]

    def long_forms(self, index: int, shorts: Iterable[str]) -> Dict[str, str]:
        """Short form → long form of those of `shorts` that text `index`, else the other panels of its figure, else
        the other texts of the article define (`text.abbreviations.defined_long_forms`).

        RETURNS (Dict[str, str]): the long form each of the short forms is searched by.
        """
        self._check(index)
        shorts = list(dict.fromkeys(shorts))
        if not shorts:
            return {}
        if self._abbreviations is None:
            self._abbreviations = ContextAbbreviations(self.texts)
        found = self._abbreviations.long_forms(shorts, without=index)
        key = self._figure(index)
        if key is not None and len(self._groups[key]) > 1:
            if key not in self._figure_abbreviations:
                self._figure_abbreviations[key] = ContextAbbreviations([self.texts[j] for j in self._groups[key]])
            found.update(self._figure_abbreviations[key].long_forms(shorts, without=self._place[index]))
        own = abbreviation_map([self.texts[index]])
        found.update({short: own[short] for short in shorts if short in own})
        return found

    def _read(self, assigner: OrganismAssigner) -> Tuple[List[TextEvidence], ContextEvidence]:
        """RETURNS: the article's texts as `assigner` scans them (each text once), and their context evidence."""
        key = assigner.scan_key()
        if key not in self._scans:
            scans = [assigner.scan(text) for text in self.texts]
            self._scans[key] = (scans, ContextEvidence(scans))
        return self._scans[key]

    def text_scan(self, index: int, assigner: OrganismAssigner) -> TextEvidence:
        """RETURNS (TextEvidence): text `index` as `assigner` scans it for the article (no mention skipped), which
        `OrganismAssigner.assign_text` reuses where the text's mentions leave the scan the same (`scanned`)."""
        self._check(index)
        return self._read(assigner)[0][index]

    def organism_counts(self, index: int, assigner: OrganismAssigner) -> Tuple[TextCounts, TextCounts]:
        """The organism evidence of text `index`'s context, as `assigner` scans texts: the article's other texts'
        counts and its figure's other panels' (`OrganismAssigner.assign_text`'s `article_counts`, `figure_counts`).

        RETURNS (Tuple[TextCounts, TextCounts]): taxon → summed strength, for the article and for the figure.
        """
        self._check(index)
        key = assigner.scan_key()
        scans, article = self._read(assigner)
        figure_counts: TextCounts = {}
        figure = self._figure(index)
        if figure is not None and len(self._groups[figure]) > 1:
            if (key, figure) not in self._figure_evidence:
                self._figure_evidence[(key, figure)] = ContextEvidence([scans[j] for j in self._groups[figure]])
            figure_counts = self._figure_evidence[(key, figure)].counts_without(self._place[index])
        return article.counts_without(index), figure_counts


class ArticlePlace(NamedTuple):
    """A text's article and its place in it: what the linker reads as the text's context."""

    context: ArticleContext
    position: int


class ArticleCache:
    """The contexts of the last few articles, by their texts and figure keys: the docs of one article, each naming
    the article's texts, share one `ArticleContext` (a doc costs a lookup, not a reading of its article).

    size (int): articles kept (docs of an article come together; a batch spans a few articles).
    """

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._contexts: OrderedDict[Tuple, ArticleContext] = OrderedDict()

    def get(self, texts: Sequence[str], figures: Optional[Sequence[FigureKey]] = None) -> ArticleContext:
        """RETURNS (ArticleContext): the context of the article of these texts (made on the first call)."""
        key = (tuple(texts), None if figures is None else tuple(figures))
        context = self._contexts.get(key)
        if context is None:
            context = ArticleContext(key[0], key[1])
            self._contexts[key] = context
            if len(self._contexts) > self.size:
                self._contexts.popitem(last=False)
        else:
            self._contexts.move_to_end(key)
        return context
