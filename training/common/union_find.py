"""Connected groups of ids: ids listed together belong to one group, and a group is named by its smallest id."""

from typing import Dict, Iterable, Sequence


def smallest_members(groups: Iterable[Sequence[str]]) -> Dict[str, str]:
    """Merge groups that share an id (union-find with path halving).

    groups (Iterable[Sequence[str]]): lists of ids that belong together.
    RETURNS (Dict[str, str]): each id listed -> the smallest id of its connected group (itself when alone).
    """
    parent: Dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for group in groups:
        for other in group[1:]:
            a, b = find(group[0]), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
        if group:
            find(group[0])
    return {x: find(x) for x in list(parent)}
