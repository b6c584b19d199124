"""training/ is one sub-package per workflow step (docs/ARCHITECTURE.md): imports only go to earlier steps."""
import ast
from pathlib import Path

TRAINING = Path(__file__).resolve().parents[2] / "training"
# in import order: a step may import its own modules and those of the steps before it
STEPS = ["common", "data", "pairs", "encoder", "linker", "ner", "evaluation", "tuning", "synonyms", "benchmark", "workflow"]


def imported_steps(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "training" and len(parts) > 1:
                yield parts[1]


def test_every_module_is_in_a_step_folder():
    assert sorted(p.name for p in TRAINING.glob("*.py")) == ["__init__.py"]
    assert sorted(p.name for p in TRAINING.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(STEPS)


def test_imports_only_go_to_earlier_steps():
    upward = []
    for path in sorted(TRAINING.glob("*/*.py")):
        step = path.parent.name
        for imported in imported_steps(path):
            assert imported in STEPS, f"{path}: training.{imported} is not a step folder"
            if STEPS.index(imported) > STEPS.index(step):
                upward.append(f"{path.relative_to(TRAINING.parent)} imports training.{imported}")
    assert not upward


def test_experiments_are_apart_from_the_workflow_and_the_package():
    """experiments/ imports the workflow's steps; neither they nor the installed package import it."""
    repo = TRAINING.parent
    for path in sorted(TRAINING.glob("*/*.py")) + sorted((repo / "spacy_nseen").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert node.module.split(".")[0] != "experiments", path
            elif isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] != "experiments" for a in node.names), path
