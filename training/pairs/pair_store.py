"""A compact store of labelled name pairs: integer string ids, float label, set tag.

In memory: `strings` (numpy `StringDType`, variable width), `string_entity`
(int32, -1 for generated variants), `entity_ids`, and the pair columns `left`,
`right` (int32), `label` (float32 in [0, 1]), `set_id` (int8) with `set_names`.
Reference names come first in `strings`, in reference TSV row order.

On disk: one `.npz` (`np.savez_compressed`, loaded with `allow_pickle=False`)
with the arrays of docs/ARCHITECTURE.md, except that the strings are stored as
`strings_utf8` (uint8: the strings joined by "\\n", UTF-8) because a fixed-width
numpy unicode array of ChEBI names (up to ~1,200 characters) would need
gigabytes; `PairStore.load` gives them back as a numpy string array.
"""
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Union

import numpy as np
from numpy.dtypes import StringDType

from training.common.data_errors import DataFileError

PathLike = Union[str, Path]
FORMAT_VERSION = 1
_REQUIRED = (
    "strings_utf8", "string_entity", "entity_ids", "left", "right", "label",
    "set_id", "set_names", "format_version", "seed",
)


class PairStore:
    """Labelled name pairs over a table of strings.

    strings (np.ndarray): All distinct strings (StringDType).
    string_entity (np.ndarray): int32 entity index per string, -1 for variants.
    entity_ids (np.ndarray): The entity CURIEs (unicode array).
    seed (int): The seed the pairs were generated with.
    """

    def __init__(
        self,
        strings: Sequence[str],
        string_entity: Sequence[int],
        entity_ids: Sequence[str],
        *,
        seed: int = 0,
    ) -> None:
        if len(strings) != len(string_entity):
            raise ValueError("strings and string_entity differ in length")
        self.strings = np.array(list(strings), dtype=StringDType())
        self.string_entity = np.asarray(string_entity, dtype=np.int32)
        self.entity_ids = np.asarray(list(entity_ids), dtype=str)
        self.seed = int(seed)
        self.set_names: List[str] = []
        self._index: Optional[Dict[str, int]] = None
        self._left: List[np.ndarray] = []
        self._right: List[np.ndarray] = []
        self._label: List[np.ndarray] = []
        self._set_id: List[np.ndarray] = []
        self._new_strings: List[str] = []

    # --- strings -----------------------------------------------------------
    def _string_index(self) -> Dict[str, int]:
        if self._index is None:
            self._index = {}
            for i, s in enumerate(self.strings.tolist()):
                self._index.setdefault(s, i)
        return self._index

    def _flush_strings(self) -> None:
        if self._new_strings:
            new = np.array(self._new_strings, dtype=StringDType())
            self.strings = np.concatenate([self.strings, new])
            self.string_entity = np.concatenate(
                [self.string_entity, np.full(len(new), -1, dtype=np.int32)]
            )
            self._new_strings = []

    def add_strings(self, strings: Iterable[str]) -> np.ndarray:
        """Return the indices of strings, adding the new ones (entity -1).

        strings (Iterable[str]): The strings; they must not contain "\\n".
        RETURNS (np.ndarray): int32 indices into `strings`.
        """
        index = self._string_index()
        n = len(self.strings) + len(self._new_strings)
        out: List[int] = []
        for s in strings:
            i = index.get(s)
            if i is None:
                if "\n" in s:
                    raise ValueError(f"strings must not contain newlines: {s!r}")
                i = index[s] = n
                n += 1
                self._new_strings.append(s)
            out.append(i)
        self._flush_strings()
        return np.asarray(out, dtype=np.int32)

    # --- pairs -------------------------------------------------------------
    def append(self, left: Sequence[int], right: Sequence[int], label: Union[float, Sequence[float]], set_name: str) -> int:
        """Append pairs to a set (created if new), e.g. hard negatives of a round.

        left (Sequence[int]): String indices.
        right (Sequence[int]): String indices, same length.
        label (Union[float, Sequence[float]]): One label for all, or one per pair, in [0, 1].
        set_name (str): The set, e.g. "hard_negative_round1".
        RETURNS (int): The number of pairs appended.
        """
        left_arr = np.asarray(left, dtype=np.int32).ravel()
        right_arr = np.asarray(right, dtype=np.int32).ravel()
        if left_arr.shape != right_arr.shape:
            raise ValueError(f"left and right differ in length: {left_arr.size} != {right_arr.size}")
        labels = np.broadcast_to(np.asarray(label, dtype=np.float32), left_arr.shape).copy()
        if labels.size and (not np.all(np.isfinite(labels)) or labels.min() < 0 or labels.max() > 1):
            raise ValueError(f"labels of set {set_name!r} must be in [0, 1]")
        n_strings = len(self.strings)
        if left_arr.size and (
            min(left_arr.min(), right_arr.min()) < 0 or max(left_arr.max(), right_arr.max()) >= n_strings
        ):
            raise ValueError(f"string indices of set {set_name!r} out of range [0, {n_strings})")
        if set_name not in self.set_names:
            if len(self.set_names) >= 127:
                raise ValueError("at most 127 pair sets")
            self.set_names.append(set_name)
        set_id = self.set_names.index(set_name)
        self._left.append(left_arr)
        self._right.append(right_arr)
        self._label.append(labels)
        self._set_id.append(np.full(left_arr.size, set_id, dtype=np.int8))
        return int(left_arr.size)

    def _concat(self) -> None:
        for attr, dtype in (("_left", np.int32), ("_right", np.int32), ("_label", np.float32), ("_set_id", np.int8)):
            parts = getattr(self, attr)
            if len(parts) != 1:
                setattr(self, attr, [np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)])

    @property
    def left(self) -> np.ndarray:
        """RETURNS (np.ndarray): int32 left string index of each pair."""
        self._concat()
        return self._left[0]

    @property
    def right(self) -> np.ndarray:
        """RETURNS (np.ndarray): int32 right string index of each pair."""
        self._concat()
        return self._right[0]

    @property
    def label(self) -> np.ndarray:
        """RETURNS (np.ndarray): float32 label of each pair."""
        self._concat()
        return self._label[0]

    @property
    def set_id(self) -> np.ndarray:
        """RETURNS (np.ndarray): int8 set id of each pair (index into `set_names`)."""
        self._concat()
        return self._set_id[0]

    def __len__(self) -> int:
        return int(sum(a.size for a in self._left))

    def set_mask(self, set_name: str) -> np.ndarray:
        """RETURNS (np.ndarray): bool mask of the pairs of one set."""
        if set_name not in self.set_names:
            return np.zeros(len(self), dtype=bool)
        return self.set_id == self.set_names.index(set_name)

    def counts(self) -> Dict[str, int]:
        """RETURNS (Dict[str, int]): Number of pairs per set name."""
        per_id = np.bincount(self.set_id.astype(np.int64), minlength=len(self.set_names))
        return {name: int(per_id[i]) for i, name in enumerate(self.set_names)}

    # --- disk --------------------------------------------------------------
    def save(self, path: PathLike) -> None:
        """Write the store to an `.npz` file (atomically).

        path (PathLike): The output file.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        joined = "\n".join(self.strings.tolist()).encode("utf-8")
        tmp = path.with_name(path.name + ".part.npz")
        try:
            np.savez_compressed(
                tmp,
                strings_utf8=np.frombuffer(joined, dtype=np.uint8),
                string_entity=self.string_entity,
                entity_ids=self.entity_ids,
                left=self.left,
                right=self.right,
                label=self.label,
                set_id=self.set_id,
                set_names=np.asarray(self.set_names, dtype=str),
                format_version=np.asarray([FORMAT_VERSION], dtype=np.int32),
                seed=np.asarray([self.seed], dtype=np.int64),
            )
            tmp.replace(path)
        finally:
            if tmp.exists():
                tmp.unlink()

    @classmethod
    def load(cls, path: PathLike) -> "PairStore":
        """Read a store written by `save`.

        path (PathLike): The `.npz` file.
        RETURNS (PairStore): The store.
        """
        path = Path(path)
        fix = "Run the pairs step again (python -m training.pairs.make_pairs ...)"
        if not path.exists():
            raise DataFileError(path, "pair store not found", fix)
        try:
            with np.load(path, allow_pickle=False) as data:
                missing = [k for k in _REQUIRED if k not in data.files]
                if missing:
                    raise DataFileError(path, f"not a pair store (missing arrays {missing})", fix)
                version = int(data["format_version"][0])
                if version != FORMAT_VERSION:
                    raise DataFileError(path, f"pair store format {version}, expected {FORMAT_VERSION}", fix)
                arrays = {k: data[k] for k in _REQUIRED}
        except DataFileError:
            raise
        except Exception as err:  # zipfile.BadZipFile, ValueError, EOFError, zlib.error
            raise DataFileError(path, f"corrupt or truncated pair store ({err})", fix) from err
        text = arrays["strings_utf8"].tobytes().decode("utf-8")
        strings = text.split("\n") if len(arrays["string_entity"]) else []
        if len(strings) != len(arrays["string_entity"]):
            raise DataFileError(path, "strings and string_entity differ in length", fix)
        store = cls([], [], arrays["entity_ids"], seed=int(arrays["seed"][0]))
        store.strings = np.array(strings, dtype=StringDType())
        store.string_entity = arrays["string_entity"].astype(np.int32)
        store.set_names = [str(s) for s in arrays["set_names"]]
        store._left = [arrays["left"].astype(np.int32)]
        store._right = [arrays["right"].astype(np.int32)]
        store._label = [arrays["label"].astype(np.float32)]
        store._set_id = [arrays["set_id"].astype(np.int8)]
        return store
