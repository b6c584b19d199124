"""`python -m spacy_nseen COMMAND`: imports every command module of `spacy_nseen.cli`, then runs the app."""
import importlib
import pkgutil

from . import cli


def main() -> None:
    """Register every command (each module of `spacy_nseen.cli` adds its own) and run the command line."""
    for module in sorted(m.name for m in pkgutil.iter_modules(cli.__path__)):
        importlib.import_module(f"{cli.__name__}.{module}")
    cli.app()


if __name__ == "__main__":
    main()
