from pathlib import Path

from training.workflow.code_deps import (
    REPO,
    check,
    code_entries,
    command_code,
    imported_modules,
    module_closure,
    package_closure,
    rewrite_project,
    stamp_text,
    write_stamps,
)


def write(root: Path, rel: str, text: str = "") -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf8")
    return path


def fake_repo(root: Path) -> None:
    write(root, "training/__init__.py")
    write(root, "training/common/__init__.py")
    write(root, "training/common/helpers.py", "from spacy_nseen import linker\n")
    write(root, "training/data/__init__.py")
    write(root, "training/data/step.py", "import json\nfrom training.common.helpers import f\n\ndef main():\n    from spacy_nseen.text import g\n")
    write(root, "training/data/unused.py")
    write(root, "training/ner/__init__.py")
    write(root, "training/ner/alone.py", "import json\n")
    write(root, "spacy_nseen/__init__.py", "from .text import g\n")
    write(root, "spacy_nseen/text/__init__.py", "from .normalise import g\n")
    write(root, "spacy_nseen/text/normalise.py", "import numpy\n")
    write(root, "spacy_nseen/linker.py", "from . import text\nfrom .text.normalise import g\n")
    write(root, "configs/pipeline.cfg", '[components.linker]\nfactory = "nseen_linker"\n')
    write(root, "configs/ner.cfg", '[components.ner]\nfactory = "ner"\n')


def test_imports_relative_lazy_and_submodules_are_found(tmp_path):
    fake_repo(tmp_path)
    assert imported_modules(tmp_path / "training/data/step.py", tmp_path) == {
        "training", "training.common", "training.common.helpers", "spacy_nseen", "spacy_nseen.text"}
    assert imported_modules(tmp_path / "spacy_nseen/linker.py", tmp_path) == {
        "spacy_nseen", "spacy_nseen.text", "spacy_nseen.text.normalise"}


def test_the_closure_holds_parent_packages_and_transitive_imports(tmp_path):
    fake_repo(tmp_path)
    files = {str(p.relative_to(tmp_path)) for p in module_closure(["training.data.step"], tmp_path)}
    assert files == {"training/__init__.py", "training/data/__init__.py", "training/data/step.py",
                     "training/common/__init__.py", "training/common/helpers.py", "spacy_nseen/__init__.py",
                     "spacy_nseen/linker.py", "spacy_nseen/text/__init__.py", "spacy_nseen/text/normalise.py"}


def test_script_lines_name_their_files_and_the_stamps_of_the_packages_they_run(tmp_path):
    fake_repo(tmp_path)
    command = {"script": ["python -m training.workflow.step_timer x t.json -- python -m training.data.step a b",
                          "python -m spacy train configs/ner.cfg --code training/ner/alone.py",
                          "python -m spacy assemble configs/pipeline.cfg out"],
               "outputs": ["out"]}
    # training.data's stamp covers training.common and spacy_nseen (it imports them); training.ner imports neither
    assert command_code(command, tmp_path, "STAMPS") == [
        "configs/ner.cfg", "configs/pipeline.cfg", "training/data/step.py", "training/ner/alone.py",
        "STAMPS/training.data.sha256", "STAMPS/training.ner.sha256"]
    assert command_code({**command, "outputs": []}, tmp_path, "STAMPS")[-1] == "training/ner/alone.py"


def test_a_stamp_covers_the_package_and_what_it_imports_and_changes_with_them(tmp_path):
    fake_repo(tmp_path)
    assert package_closure("training.data", tmp_path) == {"training.data", "training.common", "spacy_nseen"}
    assert package_closure("training.ner", tmp_path) == {"training.ner"}
    stamps = {p.name: p.read_text(encoding="utf8") for p in write_stamps(tmp_path / "code", tmp_path)}
    assert set(stamps) == {"spacy_nseen.sha256", "training.common.sha256", "training.data.sha256", "training.ner.sha256"}
    paths = [line.split("  ")[1] for line in stamps["training.data.sha256"].splitlines()]
    assert "spacy_nseen/text/normalise.py" in paths and "training/__init__.py" in paths and paths == sorted(paths)
    write(tmp_path, "spacy_nseen/__pycache__/linker.cpython-311.pyc", "bytecode")
    assert stamp_text("training.data", tmp_path) == stamps["training.data.sha256"]
    write(tmp_path, "spacy_nseen/text/normalise.py", "import numpy  # changed\n")
    assert stamp_text("training.data", tmp_path) != stamps["training.data.sha256"]
    assert stamp_text("training.ner", tmp_path) == stamps["training.ner.sha256"]


def test_rewrite_replaces_code_entries_and_keeps_the_rest(tmp_path):
    fake_repo(tmp_path)
    write(tmp_path, "project.yml", """vars:
  out: "corpus"
  training_dir: "training_output"
commands:
  - name: step
    script:
      - "python -m training.data.step ${vars.out}"
    deps:
      - "${vars.out}/data.tsv"
      - "training/gone.py"
      - "${vars.training_dir}/code/training.gone.sha256"
    outputs:
      - "${vars.out}/result.tsv"

  - name: other
    script:
      - "python -m training.ner.alone"
    outputs:
      - "${vars.out}/other.tsv"
""")
    assert rewrite_project(tmp_path) == 2
    text = (tmp_path / "project.yml").read_text(encoding="utf8")
    assert '"${vars.out}/data.tsv"' in text and "gone" not in text
    assert '      - "training/data/step.py"\n      - "${vars.training_dir}/code/training.data.sha256"\n    outputs:' in text
    assert '      - "training/ner/alone.py"\n      - "${vars.training_dir}/code/training.ner.sha256"\n    outputs:' in text
    assert check(tmp_path) == {}
    assert rewrite_project(tmp_path) == 0


def test_every_project_command_lists_the_code_it_runs():
    problems = check(REPO)
    assert problems == {}, f"{problems}: run python -m training.workflow.code_deps --write"


def test_code_entries_are_paths_of_code():
    assert code_entries(["corpus/x.tsv", "training/data/fetch.py", "configs/ner.cfg", "training_output/pipeline",
                         "scripts/check_wheel.sh", "training_output/code/spacy_nseen.sha256"]) == [
        "training/data/fetch.py", "configs/ner.cfg", "scripts/check_wheel.sh", "training_output/code/spacy_nseen.sha256"]


def test_results_hold_no_code():
    """Measurements cited in results/*.md live in experiments/, so code changes show in one tree."""
    assert sorted(str(p.relative_to(REPO)) for p in (REPO / "results").rglob("*.py")) == []
