"""The swappable parts of the `nseen_linker` component, each a typed function in spaCy's registry.

A config names a part with `@misc = "spacy_nseen.HybridRanker.v1"` (or a user's own registered function) and
gives its settings in the same block, as spaCy's `entity_linker` names its `get_candidates`:

    ranker (`ranker.py`): how a reference set's names are searched and ranked;
    decision (`decision.py`): whether the best candidate is linked (the NIL decision and its threshold);
    index (`index.py`): how the Annoy index is built and searched;
    organisms (`organisms.py`): which organism each mention is assigned to;
    scorer (`scorer.py`): what `nlp.evaluate` reports;
    kbs (`knowledge_bases.py`): one block per reference set (its labels, entry URL, cross-reference, and
        optionally its own ranker and decision).

`legacy.py` reads the flat settings of 0.1.0 configs into these blocks.
"""
