"""Writing and reading `.npz` files without pickle, memory-mapping the arrays an uncompressed archive stores.

An uncompressed `.npz` stores each array's bytes at a fixed offset in the file, so they can be memory-mapped:
processes that load the same file share its pages, and nothing is read until it is used. `save_npz` pads each
member (with a zip "extra" field, as Android's zipalign does) so that every array starts at a multiple of 64
bytes; `numpy.savez` does not, and numpy copies a misaligned array on every search or sparse product. Such
members of older files are read into memory instead of mapped. Compressed members (and object arrays, which
`allow_pickle=False` refuses anyway) are read normally.
"""

import io
import zipfile
from pathlib import Path
from typing import Dict, Mapping, Union

import numpy
from numpy.lib import format as npy_format

from .page_advice import advise_random

_LOCAL_HEADER_SIZE = 30
_ALIGNMENT = 64
_PADDING_ID = 0xD935  # the extra-field id zipalign uses for padding; readers skip unknown ids


def save_npz(path: Union[str, Path], arrays: Mapping[str, numpy.ndarray]) -> None:
    """Write arrays to an uncompressed `.npz` (readable by `numpy.load`) whose array data are 64-byte aligned.

    path (Union[str, Path]): the file (written whole, then renamed into place).
    arrays (Mapping[str, numpy.ndarray]): name → array (no object arrays).
    """
    path = Path(path)
    part = path.with_name(path.name + ".part")
    with zipfile.ZipFile(part, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as archive:
        out = archive.fp
        assert out is not None  # open for writing
        for name, value in arrays.items():
            value = numpy.asanyarray(value)
            if value.dtype.hasobject:
                raise ValueError(f"{name}: object arrays cannot be saved without pickle")
            member = io.BytesIO()
            npy_format.write_array(member, value, allow_pickle=False)
            data = member.getvalue()
            header_size = len(data) - value.nbytes
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            start = out.tell() + _LOCAL_HEADER_SIZE + len(info.filename.encode("utf8")) + header_size
            pad = -start % _ALIGNMENT
            if 0 < pad < 4:
                pad += _ALIGNMENT
            if pad:
                info.extra = _PADDING_ID.to_bytes(2, "little") + (pad - 4).to_bytes(2, "little") + bytes(pad - 4)
            archive.writestr(info, data)
    part.replace(path)


def load_npz(path: Union[str, Path], mmap: bool = True) -> Dict[str, numpy.ndarray]:
    """Load every array of an `.npz` file (pickle-free).

    path (Union[str, Path]): the file.
    mmap (bool): memory-map (read-only) the arrays stored uncompressed.
    RETURNS (Dict[str, numpy.ndarray]): array name (without `.npy`) → array.
    Raises the errors of `numpy.load` / `zipfile` on a corrupt file.
    """
    path = Path(path)
    if not mmap:
        with numpy.load(path, allow_pickle=False) as archive:
            return {name: archive[name] for name in archive.files}
    out: Dict[str, numpy.ndarray] = {}
    with zipfile.ZipFile(path) as archive, open(path, "rb") as file_:
        for info in archive.infolist():
            name = info.filename[:-4] if info.filename.endswith(".npy") else info.filename
            mapped = _map_member(path, file_, info) if info.compress_type == zipfile.ZIP_STORED else None
            if mapped is None:
                with archive.open(info) as member:
                    mapped = npy_format.read_array(member, allow_pickle=False)
            out[name] = mapped
    return out


def _map_member(path: Path, file_, info: zipfile.ZipInfo):
    file_.seek(info.header_offset)
    local = file_.read(_LOCAL_HEADER_SIZE)
    if len(local) != _LOCAL_HEADER_SIZE or local[:4] != b"PK\x03\x04":
        raise ValueError(f"{path}: bad zip member header for {info.filename}")
    name_length = int.from_bytes(local[26:28], "little")
    extra_length = int.from_bytes(local[28:30], "little")
    file_.seek(info.header_offset + _LOCAL_HEADER_SIZE + name_length + extra_length)
    version = npy_format.read_magic(file_)
    if version == (1, 0):
        shape, fortran_order, dtype = npy_format.read_array_header_1_0(file_)
    else:
        shape, fortran_order, dtype = npy_format.read_array_header_2_0(file_)
    if dtype.hasobject:
        raise ValueError(f"{path}: {info.filename} holds Python objects, which are not loaded")
    offset = file_.tell()
    count = int(numpy.prod(shape, dtype=numpy.int64))
    if offset + count * dtype.itemsize > path.stat().st_size:
        raise ValueError(f"{path}: {info.filename} is truncated")
    if count == 0:
        return numpy.zeros(shape, dtype=dtype)
    if offset % max(dtype.alignment, 1):
        # Written by numpy.savez: a misaligned map would be copied on every use, so read it once.
        file_.seek(offset)
        data = numpy.fromfile(file_, dtype=dtype, count=count)
        return data.reshape(shape, order="F" if fortran_order else "C")
    mapped = numpy.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape, order="F" if fortran_order else "C")
    advise_random(getattr(mapped, "_mmap", None))  # looked up at random: no read-ahead (page_advice)
    return mapped
