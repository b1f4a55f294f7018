"""The table file: a magic line, a JSON header line (dtype, shape, byte count, CRC-32), then the
raw array. Written to a temporary file renamed into place, so a reader sees a whole file or
none; read back only when it is a regular file and every check passes (else the caller
rebuilds; a FIFO in its place is never opened for a blocking read).

A table can be written from its `Stretches`, in order, without ever being whole in memory (the
header's line is padded, and its checksum filled in once the data is written)."""

from __future__ import annotations

import errno
import json
import mmap
import os
import stat
import tempfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

MAGIC = b"KAERU-TABLE 1\n"
MAX_HEADER = 4096
CRC_STEP = 1 << 24  # bytes checksummed at a time
REREAD_FROM = 1 << 25  # bytes: a table this big leaves the page cache once written (see below)


@dataclass(frozen=True)
class Stretches:
    """A table given stretch by stretch: its shape and dtype, and `each()`, which yields its
    data in order from the start every time it is called (arrays of any size)."""

    shape: tuple[int, ...]
    dtype: np.dtype
    each: Callable[[], Iterator[np.ndarray]]

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize

    def whole(self) -> np.ndarray:
        """The table as one array in memory."""
        out = np.empty(int(np.prod(self.shape, dtype=np.int64)), dtype=self.dtype)
        at = 0
        for part in self.each():
            out[at : at + part.size] = part.reshape(-1)
            at += part.size
        if at != out.size:
            raise ValueError(f"stretches of {at} entries for a table of {out.size}")
        return out.reshape(self.shape)


def write_table(path: Path, table: np.ndarray | Stretches) -> int:
    """Write `table` (an array, or its stretches) to `path` atomically; returns the bytes
    written. OSError on failure (the temporary file is removed)."""
    if isinstance(table, np.ndarray):
        data = np.ascontiguousarray(table)
        table = Stretches(data.shape, data.dtype, lambda: iter((data,)))
    header = {"dtype": table.dtype.str, "shape": list(table.shape), "bytes": table.nbytes}
    width = len(json.dumps(header | {"crc32": 0xFFFFFFFF}))  # the widest checksum
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        if hasattr(os, "fchmod"):  # not on Windows before Python 3.13 (nor needed there)
            os.fchmod(fd, 0o644)  # as a plain open() would under the usual umask (mkstemp: 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(MAGIC)
            handle.write(b" " * width + b"\n")  # the header, once the checksum is known
            crc, written = 0, 0
            for part in table.each():
                data = np.ascontiguousarray(part, dtype=table.dtype)
                crc = _crc_on(data, crc)
                data.tofile(handle)  # no fsync: after a crash the checksum catches a torn file
                written += data.nbytes
            if written != table.nbytes:
                raise ValueError(f"{path.name}: {written} bytes written of {table.nbytes}")
            handle.seek(len(MAGIC))
            handle.write(json.dumps(header | {"crc32": crc}).ljust(width).encode())
            if table.nbytes >= REREAD_FROM:
                handle.flush()
                _leave_page_cache(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path.stat().st_size


def read_table(path: Path, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray | None:
    """The table in `path` when it is whole and of the expected shape and dtype, else None."""
    try:
        with open_regular_file(path) as handle:
            if handle.read(len(MAGIC)) != MAGIC:
                return None
            header = json.loads(handle.readline(MAX_HEADER))
            expected = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
            if (
                header.get("dtype") != np.dtype(dtype).str
                or tuple(header.get("shape", ())) != tuple(shape)
                or header.get("bytes") != expected
            ):
                return None
            table = np.fromfile(handle, dtype=dtype, count=int(np.prod(shape, dtype=np.int64)))
            if table.nbytes != expected or handle.read(1):
                return None
    except (OSError, ValueError, UnicodeDecodeError, AttributeError):
        return None
    if checksum(table) != header.get("crc32"):
        return None
    return table.reshape(shape)


def _leave_page_cache(fd: int) -> None:
    """Write the file out and drop its pages from the page cache (Linux): pages cached by the
    writes are 4 kB folios, which a mapping can only map 4 kB at a time, while pages read in on
    a fault come as 2 MB folios (`advise_lookups`); the 7-8 search over a table just written ran
    1.6x slower until its pages left the cache (bench/fifteen_mapping.py)."""
    if not hasattr(os, "posix_fadvise"):  # pragma: no cover - not on Windows or macOS
        return
    try:
        os.fdatasync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    except OSError:  # pragma: no cover - only slower lookups
        pass


def open_regular_file(path: Path) -> BinaryIO:
    """`path` opened for reading when it is a regular file; OSError otherwise. Never blocks: a
    FIFO (or a device) in place of a table file is refused, not waited on."""
    nonblocking = getattr(os, "O_NONBLOCK", 0)  # Windows has none (and no FIFOs to block on)
    fd = os.open(path, os.O_RDONLY | nonblocking | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if nonblocking and hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def checksum(table: np.ndarray) -> int:
    """CRC-32 of the array's bytes."""
    return _crc_on(table, 0)


def _crc_on(table: np.ndarray, crc: int) -> int:
    """CRC-32 of the bytes before (`crc`) followed by the array's."""
    raw = np.ascontiguousarray(table).data.cast("B")
    for begin in range(0, len(raw), CRC_STEP):
        crc = zlib.crc32(raw[begin : begin + CRC_STEP], crc)
    return crc


# ---- mapped reads, checked once per file version ------------------------------------------------
STAMP = ".checked"  # the sidecar that records a file version whose checksum was verified


def map_table(path: Path, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray | None:
    """The table in `path` mapped read-only (no read, no copy: pages come in as they are
    looked up, shared by every process), when it is whole and of that shape and dtype, else None.

    Its CRC-32 is verified once per file version: the sidecar `<path>.checked` records the
    size, mtime and inode of the file found good, and a later open of that same version skips
    the check. A table the mapping cannot serve (an unaligned header) is read instead."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    try:
        with open_regular_file(path) as handle:
            if handle.read(len(MAGIC)) != MAGIC:
                return None
            header = json.loads(handle.readline(MAX_HEADER))
            offset = handle.tell()
            expected = count * dtype.itemsize
            if (
                header.get("dtype") != dtype.str
                or tuple(header.get("shape", ())) != tuple(shape)
                or header.get("bytes") != expected
            ):
                return None
            info = os.fstat(handle.fileno())
            if info.st_size != offset + expected:
                return None
            if offset % dtype.itemsize or expected == 0:
                return read_table(path, shape, dtype)
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            advise_lookups(mapped)
    except (OSError, ValueError, UnicodeDecodeError, AttributeError):
        return None
    table = np.frombuffer(mapped, dtype=dtype, count=count, offset=offset).reshape(shape)
    version = _version(info, header.get("crc32"))
    if _stamp_of(path) != version:
        if checksum(table) != header.get("crc32"):
            return None
        _write_stamp(path, version)
    return table


def advise_lookups(mapped: mmap.mmap) -> None:
    """Advise a table's mapping for random lookups: no read-ahead around each one, and huge
    pages (Linux). Pages read in on a fault then come as 2 MB folios of the page cache, mapped
    whole: a lookup costs no 4 kB TLB miss (the 7-8 search ran 1.3-1.5x slower over 4 kB pages,
    bench/fifteen_mapping.py), and the folios stay shared by every process."""
    if not hasattr(mapped, "madvise"):  # pragma: no cover - not on Windows
        return
    for advice in ("MADV_RANDOM", "MADV_HUGEPAGE"):
        if hasattr(mmap, advice):
            try:
                mapped.madvise(getattr(mmap, advice))
            except OSError:  # pragma: no cover - a kernel without THP: 4 kB pages
                pass


def stamp_written(path: Path) -> None:
    """Record the table just written by this process at `path` as checked (its checksum was
    computed from the array itself), so its first mapping reads nothing."""
    try:
        with open_regular_file(path) as handle:
            if handle.read(len(MAGIC)) != MAGIC:
                return
            header = json.loads(handle.readline(MAX_HEADER))
            info = os.fstat(handle.fileno())
    except (OSError, ValueError, UnicodeDecodeError):
        return
    _write_stamp(path, _version(info, header.get("crc32")))


def _version(info: os.stat_result, crc: object) -> dict[str, object]:
    return {"size": info.st_size, "mtime_ns": info.st_mtime_ns, "inode": info.st_ino, "crc32": crc}


def _stamp_of(path: Path) -> dict[str, object] | None:
    try:
        with open(path.with_name(path.name + STAMP), "rb") as handle:
            found = json.loads(handle.read(MAX_HEADER))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return found if isinstance(found, dict) else None


def _write_stamp(path: Path, version: dict[str, object]) -> None:
    """Record the checked version (atomically); a folder that refuses it only costs a check."""
    stamp = path.with_name(path.name + STAMP)
    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{stamp.name}.", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            json.dump(version, handle)
        os.replace(temporary, stamp)
    except OSError:
        Path(temporary).unlink(missing_ok=True)
