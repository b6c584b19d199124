"""`python -m spacy_nseen COMMAND` (and the `spacy-nseen` console script): imports every command module of
`spacy_nseen.cli` (each registers itself on `app`), then runs the app."""

import importlib
import pkgutil

from . import cli

for _module in sorted(m.name for m in pkgutil.iter_modules(cli.__path__)):
    importlib.import_module(f"{cli.__name__}.{_module}")

app = cli.app


def main() -> None:
    """Run the command line."""
    app()


if __name__ == "__main__":
    main()
