"""The package's import graph, read with `ast` (nothing is imported): no module imports another in a cycle
(imports under `if TYPE_CHECKING:` and inside functions count too), and no module reaches into another's
private names (`from x import _name`, `module._name` on an imported module)."""
import ast
from pathlib import Path
from typing import Dict, List, Set, Tuple

PACKAGE = "spacy_nseen"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: Dict[str, Path] = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute name of `from ... import` in `module` (relative levels resolved)."""
    if not node.level:
        return node.module or ""
    is_package = MODULES[module].name == "__init__.py"
    base = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def own(name: str) -> str:
    """The package module `name` is, or is in (`a.b.c` → `a.b` when `a.b.c` is a name, not a module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports_of(module: str) -> List[Tuple[str, ast.AST, str]]:
    """(imported package module, import node, name imported from it or "") for every import in `module`."""
    found: List[Tuple[str, ast.AST, str]] = []
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf8"))):
        if isinstance(node, ast.Import):
            found += [(own(a.name), node, "") for a in node.names if a.name.split(".")[0] == PACKAGE]
        elif isinstance(node, ast.ImportFrom):
            base = resolve(module, node)
            if base.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                # `from .x import y`: y's module when y is a submodule, else x's module
                target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else own(base)
                found.append((target, node, alias.name))
    return found


def import_graph() -> Dict[str, Set[str]]:
    """module → the package modules it imports (a package's `__init__` included when a submodule is imported,
    as Python runs it first)."""
    graph: Dict[str, Set[str]] = {m: set() for m in MODULES}
    for module in MODULES:
        for target, _, _ in imports_of(module):
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                ancestor = ".".join(parts[:i])
                # a module's own package is running already when the module is imported: no edge to it
                if ancestor in MODULES and ancestor != module and not module.startswith(ancestor + "."):
                    graph[module].add(ancestor)
    return graph


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph[node]:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def private_uses() -> List[str]:
    """`from x import _name` and `x._name` on a module imported as `x`, across package modules."""
    found = []
    for module in MODULES:
        imported_modules: Dict[str, str] = {}  # local name → package module
        for target, node, name in imports_of(module):
            if name.startswith("_") and not name.startswith("__") and target != module:
                found.append(f"{module}: from {target} import {name}")
            if isinstance(node, ast.ImportFrom) and name and target.endswith("." + name) and target in MODULES:
                local = next(a.asname or a.name for a in node.names if a.name == name)
                imported_modules[local] = target
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname and own(alias.name) in MODULES:
                        imported_modules[alias.asname] = own(alias.name)
        tree = ast.parse(MODULES[module].read_text(encoding="utf8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in imported_modules and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                found.append(f"{module}: {imported_modules[node.value.id]}.{node.attr}")
    return sorted(set(found))


def test_the_graph_reader_resolves_relative_imports():
    graph = import_graph()
    assert "spacy_nseen.linker.candidate" in graph["spacy_nseen.linker.kb_linker"]
    assert "spacy_nseen.linker.signals" in graph["spacy_nseen.linker.fusion"]  # the package's __init__ runs
    assert "spacy_nseen.linker.linker_parts" in graph["spacy_nseen.linker.storage"]
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]


def test_no_module_imports_in_a_cycle():
    """When written, this found linker.fusion ↔ kb_linker ↔ storage (imports under `if TYPE_CHECKING:`); the ranking
    now reads the `linker_parts.LinkerParts` protocol instead of the linker."""
    assert cycles(import_graph()) == []


# `_replace`, `_asdict`, `_fields`, `_make` are the public API of named tuples.
NAMED_TUPLE_API = frozenset({"_replace", "_asdict", "_fields", "_make"})


def private_attribute_uses() -> List[str]:
    """`obj._name` (obj not `self` or `cls`) where no code of the same module defines `_name`: a private member
    of a class of another module, reached through an object."""
    found = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf8"))
        defined = {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
        defined |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                    and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name)
                    and node.value.id in ("self", "cls")}
        defined |= {target.id for node in ast.walk(tree) if isinstance(node, ast.AnnAssign)
                    for target in [node.target] if isinstance(target, ast.Name)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id not in ("self", "cls") and node.attr.startswith("_")
                    and not node.attr.startswith("__") and node.attr not in NAMED_TUPLE_API and node.attr != "_"
                    and node.attr not in defined):
                found.append(f"{module}:{node.lineno}: {node.value.id}.{node.attr}")
    return sorted(set(found))


def test_no_module_uses_another_modules_private_names():
    assert private_uses() == []
    assert private_attribute_uses() == []
