from cli_support import CELL_LINES

from spacy_nseen.cli.example_names import EXAMPLE


def test_the_shipped_example_is_the_repository_one():
    assert EXAMPLE.read_bytes() == CELL_LINES.read_bytes()


def test_example_names_writes_the_file_and_never_overwrites(run_cli, tmp_path):
    result = run_cli("example-names", "names.tsv")
    assert "20 names of 9 cell lines" in result.stdout
    assert (tmp_path / "names.tsv").read_bytes() == CELL_LINES.read_bytes()
    again = run_cli("example-names", "names.tsv", check=False)
    assert again.returncode == 1 and "exists" in again.stderr
