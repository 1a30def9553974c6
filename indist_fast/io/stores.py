"""Files in object stores and other filesystems (S3 and compatible, GCS, Azure, HDFS,
whatever pyarrow or fsspec resolves): a URI resolved once to a filesystem and a path
in it (``locate``), and the few things the readers do with a file there (open it,
size it, list a folder, match a glob pattern). Local paths never come here: they are
read as before, memory-mapped where the format allows.

Only reads: nothing is ever written to a store (the out-of-core passes park their
data in local temporary files).
"""

from __future__ import annotations

import os
import re
from typing import Any
from urllib.parse import unquote, urlsplit

from .source import one_line

__all__ = ["StorePath", "locate", "open_input", "file_size", "store_kind", "store_tree",
           "store_glob", "has_magic"]

_URI = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]+)://")
_MAGIC = re.compile(r"[*?[]")
_URI_MAGIC = re.compile(r"[*[]")
#: The fsspec package that reads a scheme, for the error where none is installed.
_PACKAGES = {"s3": "s3fs", "s3a": "s3fs", "gs": "gcsfs", "gcs": "gcsfs", "abfs": "adlfs",
             "abfss": "adlfs", "az": "adlfs", "adl": "adlfs", "hf": "huggingface_hub",
             "sftp": "paramiko", "ssh": "paramiko", "oci": "ocifs", "oss": "ossfs"}


class StorePath(str):
    """A file or folder on a filesystem other than the local disk.

    The text is the path as the user wrote it (a URI), so every message names it as
    they know it; ``filesystem`` (a ``pyarrow.fs.FileSystem``) and ``inner`` (the path
    in it) are what open it.

    Parameters
    ----------
    text : str
        The name shown, e.g. ``"s3://bucket/logs/day=1/part-0.parquet"``.
    filesystem : pyarrow.fs.FileSystem
        Where it lives.
    inner : str
        Its path in ``filesystem`` (``"bucket/logs/day=1/part-0.parquet"``).
    size : int, optional
        Its bytes, when a listing said (a listed file needs no request of its own).

    Examples
    --------
    >>> from pyarrow.fs import LocalFileSystem
    >>> from indist_fast.io.stores import StorePath
    >>> p = StorePath("file:///tmp/a.csv", LocalFileSystem(), "/tmp/a.csv")
    >>> p, p.inner
    ('file:///tmp/a.csv', '/tmp/a.csv')
    """

    filesystem: Any
    inner: str
    size: int | None
    _prefix: str

    def __new__(cls, text: str, filesystem: Any, inner: str,
                size: int | None = None) -> "StorePath":
        self = super().__new__(cls, text)
        self.filesystem, self.inner, self.size = filesystem, inner, size
        # What precedes ``inner`` in the text (``s3://``), to name the files under it.
        at = text.find(inner.rstrip("/")) if inner.rstrip("/") else -1
        self._prefix = text[:at] if at >= 0 else ""
        return self

    def child(self, inner: str, size: int | None = None) -> "StorePath":
        """A file under this one (or matching it), named the same way.

        Parameters
        ----------
        inner : str
            Its path in the filesystem.
        size : int, optional
            Its bytes, if known.

        Returns
        -------
        StorePath

        Examples
        --------
        >>> from pyarrow.fs import LocalFileSystem
        >>> from indist_fast.io.stores import StorePath
        >>> StorePath("file:///tmp/d", LocalFileSystem(), "/tmp/d").child("/tmp/d/x.csv")
        'file:///tmp/d/x.csv'
        """
        return StorePath(self._prefix + inner, self.filesystem, inner, size)

    def __reduce__(self) -> Any:            # the attributes travel with a pickled path
        return (StorePath, (str(self), self.filesystem, self.inner, self.size))


def has_magic(text: str) -> bool:
    """Whether ``text`` is a glob pattern (``*``, ``?`` or ``[``)."""
    return _MAGIC.search(text) is not None


def locate(path: Any, filesystem: Any = None) -> Any:
    """``path`` with every URI in it resolved to a ``StorePath``; local paths (and
    ``file://`` URIs, as local paths) come back as they were, read as before.

    Parameters
    ----------
    path : str, path-like, or a list or tuple of them
        What ``evaluate_file`` was given.
    filesystem : pyarrow.fs.FileSystem or fsspec.AbstractFileSystem, optional
        The filesystem every path is in (a URI's scheme is then dropped); by default
        each URI's own: pyarrow's for the schemes it knows, else fsspec's.

    Returns
    -------
    str, StorePath or list of them

    Raises
    ------
    TypeError
        ``filesystem`` of another kind.
    ValueError
        A scheme no installed package reads (naming the package to install).

    Examples
    --------
    >>> from indist_fast.io.stores import locate
    >>> locate("logs/day=1/part-0.parquet")
    'logs/day=1/part-0.parquet'
    >>> locate("file:///data/logs")
    '/data/logs'
    """
    fs = None if filesystem is None else _as_arrow(filesystem)
    if isinstance(path, (list, tuple)):
        return [locate(p, filesystem) for p in path]
    if fs is not None and isinstance(path, (bytes, os.PathLike)):
        path = os.fsdecode(os.fspath(path))
    if not isinstance(path, str):
        return path                          # path-like or bad: checked where it was
    uri = _URI.match(path)
    if fs is not None:
        return StorePath(path, fs, _inner(path, filesystem))
    if uri is None:
        return path
    if uri.group(1).lower() == "file":
        parts = urlsplit(path)
        if parts.netloc not in ("", "localhost"):
            raise ValueError(f"path: {path!r} names the host {parts.netloc!r}, which a local "
                             f"file has not: a local path is file:///{parts.netloc}"
                             f"{parts.path} (three slashes).")
        return unquote(parts.path)
    scheme = uri.group(1).lower()
    # In a URI a ? starts the query (``?endpoint_override=...``): its wildcards are *
    # and [...] only.
    where, _, query = path.partition("?")
    if _URI_MAGIC.search(where[uri.end():]):
        # The wildcards are ours, not the URI's: the folder before them is resolved,
        # the pattern kept on its path.
        names = where.split("/")
        first = next((i for i, name in enumerate(names)
                      if i >= 3 and _URI_MAGIC.search(name)), 0)
        if not first:
            raise ValueError(f"path: {path}: a wildcard in the bucket (or host) of a URI "
                             "is not supported; give the bucket by name.")
        base = _resolve("/".join(names[:first]) + (f"?{query}" if query else ""), scheme)
        return StorePath(path, base.filesystem,
                         "/".join([base.inner.rstrip("/")] + names[first:]))
    return _resolve(path, scheme)


def _as_arrow(filesystem: Any) -> Any:
    """A pyarrow filesystem: as given, or an fsspec one wrapped as pyarrow does."""
    try:
        import pyarrow.fs as pafs
    except ImportError:
        raise ImportError("filesystem needs pyarrow: pip install pyarrow") from None
    if isinstance(filesystem, pafs.FileSystem):
        return filesystem
    fsspec = _fsspec()
    if fsspec is not None and isinstance(filesystem, fsspec.AbstractFileSystem):
        return pafs.PyFileSystem(pafs.FSSpecHandler(filesystem))
    raise TypeError("filesystem must be a pyarrow.fs.FileSystem or an fsspec filesystem, "
                    f"got {type(filesystem).__name__}.")


def _fsspec() -> Any:
    try:
        import fsspec
    except ImportError:
        return None
    return fsspec


def _inner(path: str, filesystem: Any) -> str:
    """The path a given filesystem knows ``path`` by: a URI without its scheme."""
    strip = getattr(filesystem, "_strip_protocol", None)      # fsspec's own rule
    if strip is not None:
        return str(strip(path))
    if _URI.match(path) is None:
        return path
    parts = urlsplit(path)
    return unquote(parts.path if parts.scheme.lower() == "file" else parts.netloc + parts.path)


def _resolve(uri: str, scheme: str) -> StorePath:
    """A URI's filesystem: pyarrow's where it reads the scheme, else fsspec's."""
    try:
        import pyarrow as pa
        import pyarrow.fs as pafs
    except ImportError:
        raise ImportError(f"reading {scheme}:// URIs needs pyarrow: pip install "
                          "pyarrow") from None
    try:
        fs, inner = pafs.FileSystem.from_uri(uri)
    except OSError as exc:          # its scheme, but no bucket, region or network
        raise ValueError(f"path: cannot read {uri}: {one_line(exc)}") from exc
    except (pa.ArrowException, ValueError) as exc:
        arrow_error = exc
    else:
        return StorePath(uri, fs, inner)
    package = _PACKAGES.get(scheme)
    need = f"pip install fsspec {package}" if package else "pip install fsspec"
    fsspec = _fsspec()
    if fsspec is None:
        raise ValueError(f"path: cannot read {uri}: pyarrow does not read {scheme}:// "
                         f"({one_line(arrow_error)}) and fsspec is not installed; "
                         f"{need}.")
    try:
        fs, inner = fsspec.core.url_to_fs(uri)
    except ImportError as exc:
        raise ValueError(f"path: cannot read {uri}: {scheme}:// needs a package that is "
                         f"not installed ({one_line(exc)}); "
                         f"{'pip install ' + package if package else one_line(exc)}."
                         ) from None
    except ValueError as exc:
        if "protocol not known" in str(exc).lower():
            raise ValueError(f"path: cannot read {uri}: unknown scheme {scheme}:// (neither "
                             "pyarrow nor fsspec reads it); give a local path or a URI "
                             "such as s3://bucket/key, gs://, abfs://, hdfs://, "
                             "file://.") from None
        raise ValueError(f"path: cannot read {uri}: {one_line(exc)}") from None
    except Exception as exc:        # a package's own error: no network, no credentials
        raise ValueError(f"path: cannot read {uri}: {one_line(exc)}") from exc
    return StorePath(uri, pafs.PyFileSystem(pafs.FSSpecHandler(fs)), str(inner))


def _store_error(path: StorePath, exc: BaseException) -> ValueError:
    """A filesystem's error (no credentials, no bucket, no access, no network) as a
    ``ValueError`` naming ``path``."""
    return ValueError(f"path: cannot read {path}: {one_line(exc)}")


def store_kind(path: StorePath) -> str:
    """``"file"``, ``"folder"`` or ``"missing"``; a ``ValueError`` naming ``path``
    where the store cannot be asked."""
    import pyarrow as pa
    import pyarrow.fs as pafs
    try:
        info = path.filesystem.get_file_info(path.inner.rstrip("/") or path.inner)
    except (OSError, pa.ArrowException) as exc:
        raise _store_error(path, exc) from exc
    if info.type == pafs.FileType.File:
        path.size = info.size
        return "file"
    return "folder" if info.type == pafs.FileType.Directory else "missing"


def _listing(path: StorePath) -> list[tuple[Any, str]]:
    """Every file and folder under a folder (one request, or a few pages of one), each
    with its path relative to it."""
    import pyarrow as pa
    import pyarrow.fs as pafs
    base = path.inner.rstrip("/")
    try:
        infos = path.filesystem.get_file_info(pafs.FileSelector(base, recursive=True))
    except (OSError, pa.ArrowException) as exc:
        raise _store_error(path, exc) from exc
    return [(info, info.path[len(base):].lstrip("/") if info.path.startswith(base)
             else info.path) for info in infos]


def _walk_order(rel: str) -> list[tuple[int, str]]:
    """The order ``os.walk`` with sorted names gives: a folder's files before its
    subfolders'."""
    names = rel.split("/")
    return [(1, n) for n in names[:-1]] + [(0, names[-1])]


def _files(path: StorePath, listing: list[tuple[Any, str]]) -> list[tuple[StorePath, str]]:
    import pyarrow.fs as pafs
    found = [(path.child(info.path, info.size), rel) for info, rel in listing
             if info.type == pafs.FileType.File]
    return sorted(found, key=lambda item: _walk_order(item[1]))


def store_tree(path: StorePath) -> list[tuple[StorePath, str]]:
    """Every file under a folder with its path relative to it, in the order of a
    local folder's files (``os.walk``, sorted), so a dataset's rows come in the same
    order from a store as from disk."""
    return _files(path, _listing(path))


def store_glob(pattern: StorePath) -> list[tuple[StorePath, list[tuple[StorePath, str]]]]:
    """What a glob pattern (``*``, ``?``, ``[...]`` within a name, ``**`` any depth)
    matches, as ``glob.glob`` orders local matches (sorted), each with the files it
    stands for and their paths below it: a file itself (``""``), a folder every file
    under it. One listing, of the folder before the first wildcard."""
    import pyarrow.fs as pafs
    parts = pattern.inner.split("/")
    first = next(i for i, part in enumerate(parts) if has_magic(part))
    regex = re.compile(_translate("/".join(parts[first:])))
    folder = pattern.child("/".join(parts[:first]))
    if store_kind(folder) != "folder":
        return []
    listing = _listing(folder)
    entries = [(folder, "", True)] + [
        (folder.child(info.path, info.size if info.type == pafs.FileType.File else None),
         rel, info.type == pafs.FileType.Directory) for info, rel in listing]
    matched = sorted(((p, rel, is_dir) for p, rel, is_dir in entries if regex.fullmatch(rel)),
                     key=lambda m: m[1])
    under: dict[str, list[tuple[StorePath, str]]] = {rel: [] for _, rel, is_dir in matched
                                                     if is_dir}
    for f, rel in _files(folder, listing):
        names = rel.split("/")
        for k in range(len(names)):
            above = "/".join(names[:k])
            if above in under:
                under[above].append((f, "/".join(names[k:])))
    return [(p, under[rel] if is_dir else [(p, "")]) for p, rel, is_dir in matched]


def _translate(pattern: str) -> str:
    """A glob pattern of ``/``-separated names as a regular expression (``glob``'s
    rules: a wildcard never crosses a ``/``, nor matches a leading dot; ``**`` alone as
    a name matches any number of folders)."""
    out = []
    names = pattern.split("/")
    for k, name in enumerate(names):
        last = k == len(names) - 1
        if name == "**":
            out.append("(?:[^/.][^/]*/)*" if not last else "(?:[^/.][^/]*(?:/[^/.][^/]*)*)?")
            continue
        piece = "(?=[^.])" if not name.startswith(".") else ""
        i = 0
        while i < len(name):
            c = name[i]
            if c == "*":
                piece += "[^/]*"
            elif c == "?":
                piece += "[^/]"
            elif c == "[":
                j = i + 1 + (name[i + 1:i + 2] == "!")
                j += name[j:j + 1] == "]"           # a ] first in a set is itself
                end = name.find("]", j)
                if end < 0:
                    piece += re.escape(c)
                else:
                    body = name[i + 1:end].replace("\\", "\\\\").replace("[", "\\[")
                    body = ("^" + body[1:] if body.startswith("!") else
                            "\\" + body if body.startswith("^") else body)
                    piece += "[" + body + "]"
                    i = end
            else:
                piece += re.escape(c)
            i += 1
        out.append(piece + ("" if last else "/"))
    return "".join(out)


def open_input(path: str) -> Any:
    """A file opened for reading in binary: a Python file on the local disk, a
    random-access pyarrow file in a store."""
    if isinstance(path, StorePath):
        return path.filesystem.open_input_file(path.inner)
    return open(path, "rb")


def file_size(path: str) -> int:
    """A file's bytes (a store's listing said them, or one request asks)."""
    if not isinstance(path, StorePath):
        return os.path.getsize(path)
    if path.size is None:
        store_kind(path)
    return int(path.size or 0)
