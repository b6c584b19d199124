"""`python -m spacy_nseen COMMAND ...` (and the `spacy-nseen` console script): import the command modules
(they register on `app`) and run."""
from .cli import annotate  # noqa: F401  (registers the command)
from .cli import app


def run() -> None:
    """Run the command line."""
    app()


if __name__ == "__main__":
    run()
