"""The parts of the `nseen_linker` Pipe (`spacy_nseen.component`), one idea a module: its defaults, the extension
attributes, the routing of entities to reference sets, the organism context of a text, the one predict path
(`predict`: abbreviations → organisms → link → decision, also run by `training/`), the annotations written on
the spans, serialization, and the docs of one article with its other texts as context (`article_docs`). Nothing
here imports `component`."""
