"""A dataset from its name or specification: fetched, verified, read and cleaned."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path

from faircompare._deprecations import former_forms
from faircompare._validation import check_choice
from faircompare.datasets.builtin import BUILTIN
from faircompare.datasets.clean import Dataset, clean, read_raw
from faircompare.datasets.fetch import cache_dir, fetch_file, mirror_dir, mirror_files, sha256_of
from faircompare.datasets.spec import DatasetSpec
from faircompare.exceptions import SpecError


def get_spec(name: str) -> DatasetSpec:
    """Return the built-in specification called ``name``.

    Parameters
    ----------
    name
        A built-in dataset's name.

    Returns
    -------
    DatasetSpec
        Its specification.

    Raises
    ------
    ChoiceError
        For an unknown name, listing the valid ones.
    """
    return BUILTIN[check_choice(name, BUILTIN, what="dataset")]


@former_forms
def fetch_raw(
    spec: DatasetSpec,
    *,
    cache: str | Path | None = None,
    mirror: str | Path | None = None,
    say: Callable[[str], None] | None = None,
) -> Path:
    """Return the path of a dataset's verified raw file, fetching it when it has a URL.

    A spec without a URL names a local file, which is verified when the spec gives its SHA-256.
    See :func:`faircompare.datasets.fetch.fetch_file` for the sources and the cache.

    Parameters
    ----------
    spec
        The dataset's specification.
    cache, mirror
        The cache and the local mirror (see :func:`load_dataset`).
    say
        Called with a line for each file copied or downloaded (formerly ``report=``, which
        still works with a :class:`DeprecationWarning`).

    Returns
    -------
    Path
        The verified raw file.
    """
    if spec.url is not None:
        assert spec.sha256 is not None  # a spec with a url has its checksum (DatasetSpec checks)
        return fetch_file(spec.file, spec.sha256, spec.url, cache=cache, mirror=mirror, say=say)
    path = _local_file(spec)
    if spec.sha256 is not None and (actual := sha256_of(path)) != spec.sha256:
        raise SpecError(
            f"dataset {spec.name!r}: {path} has sha256 {actual}, but the spec expects {spec.sha256}"
        )
    return path


def at_hand(
    spec: DatasetSpec, *, cache: str | Path | None = None, mirror: str | Path | None = None
) -> bool:
    """Return whether a dataset loads without the network: a local file, cached, or mirrored.

    Parameters
    ----------
    spec
        The dataset's specification.
    cache, mirror
        The cache and the local mirror (see :func:`load_dataset`).

    Returns
    -------
    bool
        True for a spec without a URL, or whose file is in the cache or the mirror (by name:
        its checksum is verified when it is loaded).
    """
    if spec.url is None:
        return True
    found = [cache_dir(cache) / spec.file, *mirror_files(mirror_dir(mirror), spec.file)]
    return any(path.is_file() for path in found)


# what a spec says that does not change its cleaned frame
_NOT_RULES = ("file", "url", "description", "references")


def fingerprint(spec: DatasetSpec, content: str | None = None) -> str:
    """Return a digest of what a dataset's cleaned frame depends on: its raw file and its rules.

    Two specs have the same fingerprint exactly when they read a file with the same content and
    clean it by the same rules, wherever the file lies; the results store compares fingerprints
    so that runs computed from other data are never reused.

    Parameters
    ----------
    spec
        The dataset's specification; a local file without ``sha256`` is hashed.
    content
        The SHA-256 of the bytes actually read (:attr:`Dataset.fingerprint` is computed so);
        None: the spec's ``sha256``, else the file's digest now.

    Returns
    -------
    str
        A 16-digit hex digest.
    """
    rules = {k: v for k, v in asdict(spec).items() if k not in _NOT_RULES}
    if content is None:
        content = spec.sha256 if spec.sha256 is not None else sha256_of(_local_file(spec))
    text = json.dumps([rules, content], sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _local_file(spec: DatasetSpec) -> Path:
    """Return a spec's data file, once it is a regular file on a disk (not the system's)."""
    path = Path(spec.file)
    if not path.exists():
        raise SpecError(f"dataset {spec.name!r}: data file {path} does not exist")
    resolved = path.resolve()
    if not path.is_file() or any(resolved.is_relative_to(root) for root in _SYSTEM_FOLDERS):
        raise SpecError(
            f"dataset {spec.name!r}: data file {path} is not a regular file (a folder, device, "
            "pipe, or a file of the system's /proc, /sys or /dev): name a CSV or Parquet file"
        )
    return path


# Folders whose files are the system's state, never data: their content (a process's
# environment, say) is not quoted in an error either.
_SYSTEM_FOLDERS = (Path("/proc"), Path("/sys"), Path("/dev"))


@former_forms
def load_dataset(
    dataset: str | DatasetSpec,
    *,
    cache: str | Path | None = None,
    mirror: str | Path | None = None,
    say: Callable[[str], None] | None = None,
) -> Dataset:
    """Fetch (when needed), read and clean a dataset.

    Parameters
    ----------
    dataset
        A built-in dataset's name or a :class:`DatasetSpec` (for example from :func:`read_spec`).
    cache
        Cache directory; defaults to ``$FAIRCOMPARE_CACHE``, else the user cache directory.
    mirror
        Local mirror of the raw files, tried before the network; defaults to
        ``$FAIRCOMPARE_MIRROR``.
    say
        Called with a line for each file copied or downloaded (formerly ``report=``, which
        still works with a :class:`DeprecationWarning`).

    Returns
    -------
    Dataset
        The cleaned dataset, with the fingerprint of the bytes it was read from.
    """
    spec = get_spec(dataset) if isinstance(dataset, str) else dataset
    path = fetch_raw(spec, cache=cache, mirror=mirror, say=say)
    content = path.read_bytes()  # read once: the digest is that of the bytes parsed
    digest = hashlib.sha256(content).hexdigest()
    if spec.sha256 is not None and digest != spec.sha256:
        raise SpecError(
            f"dataset {spec.name!r}: {path} changed while it was read (sha256 {digest}, the "
            f"spec expects {spec.sha256})"
        )
    cleaned = clean(read_raw(path, content), spec, source=str(path))
    return replace(cleaned, fingerprint=fingerprint(spec, digest))
