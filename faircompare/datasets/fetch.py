"""Fetch raw data files into a local cache, verified by SHA-256.

Each file is looked up first in the cache, then in a local mirror directory (or one of its
folders), then at its canonical URL. A copy or download goes to a temporary file beside the
cache entry, is verified, and only then moved into place, so the cache never holds a partial or
corrupted file.

File names are plain names (no folder, no ``..``, not absolute) and every path is checked to
stay inside its directory after links are resolved, so a dataset spec can neither read nor write
outside the cache and the mirror. A cached file that fails its checksum is replaced by a
verified copy, never deleted: if no source gives one, it stays as it was.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import urllib.request
import warnings
from collections.abc import Callable
from pathlib import Path

import platformdirs

from faircompare._deprecations import ENVIRONMENT, deprecated, former_forms, former_names
from faircompare.exceptions import DataFetchError

CACHE_ENV = "FAIRCOMPARE_CACHE"
MIRROR_ENV = "FAIRCOMPARE_MIRROR"
_CHUNK = 1 << 20


def environment(name: str) -> str | None:
    """Return an environment variable of faircompare's, or its former name's value, or None.

    Parameters
    ----------
    name
        :data:`CACHE_ENV` or :data:`MIRROR_ENV`.

    Returns
    -------
    str or None
        The variable's value; else its former name's
        (:data:`faircompare._deprecations.ENVIRONMENT`), with a
        :class:`DeprecationWarning`; else None.
    """
    if value := os.environ.get(name):
        return value
    for former in former_names(ENVIRONMENT, name):
        if value := os.environ.get(former):
            deprecated(f"${former}", f"${name}")
            return value
    return None


def cache_dir(path: str | Path | None = None) -> Path:
    """Return the cache directory, creating it if needed.

    Parameters
    ----------
    path
        Explicit directory; defaults to ``$FAIRCOMPARE_CACHE``, else the user cache directory.

    Returns
    -------
    Path
        The cache directory.

    Raises
    ------
    DataFetchError
        If it cannot be created; the message names it and the way out.
    """
    home = Path(path or environment(CACHE_ENV) or platformdirs.user_cache_dir("faircompare"))
    try:
        home.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _cache_error(home, error) from None
    return home


def _cache_error(folder: Path, error: OSError) -> DataFetchError:
    """Return the one-line error of a cache folder that cannot be made or written."""
    return DataFetchError(
        f"cannot write to the data cache {folder}: {error.strerror or error}; set "
        f"{CACHE_ENV} (or pass --cache) to a folder you can write to"
    )


def mirror_dir(path: str | Path | None = None) -> Path | None:
    """Return the local mirror directory: ``path``, else ``$FAIRCOMPARE_MIRROR``, else None.

    Parameters
    ----------
    path
        A mirror given explicitly.

    Returns
    -------
    Path or None
        The mirror, or None when there is none.
    """
    path = path or environment(MIRROR_ENV)
    return Path(path) if path else None


def confined(folder: Path, name: str) -> Path:
    """Return ``folder / name``, refusing any name that could leave ``folder``.

    Parameters
    ----------
    folder
        The directory the file must stay in.
    name
        A plain file name: no path separator, not ``.`` or ``..``, not absolute.

    Returns
    -------
    Path
        The path inside ``folder``.

    Raises
    ------
    DataFetchError
        If ``name`` is not a plain file name, or the path resolves (through a link) outside
        ``folder``.
    """
    plain = (
        name not in ("", ".", "..")
        and Path(name).name == name
        and "/" not in name
        and "\\" not in name
    )
    if not plain:
        raise DataFetchError(
            f"data file name {name!r} must be a plain file name (no folder, no '..'), "
            f"since it names a file inside {folder}"
        )
    path = folder / name
    if not path.resolve().is_relative_to(folder.resolve()):
        raise DataFetchError(f"{path} is a link that leads outside {folder}; refusing to use it")
    return path


def mirror_files(mirror: Path | None, name: str) -> list[Path]:
    """Return where a mirror may hold a file: at its top, then in each of its folders.

    A mirror is a folder of raw files or a folder of such folders (``../shared/data`` holds
    ``fairness-comparison-raw/`` and ``fairground/``); every candidate is verified by its
    SHA-256 before use, so a file of the same name with other content is passed over.

    Parameters
    ----------
    mirror
        The mirror folder, or None.
    name
        The file's plain name.

    Returns
    -------
    list of Path
        The candidates that exist, in the order to try them; where none does, the top one alone
        (so that the failure names the mirror); empty without a mirror.
    """
    if mirror is None:
        return []
    folders = [mirror]
    if mirror.is_dir():
        folders += sorted(path for path in mirror.iterdir() if path.is_dir())
    candidates = [confined(folder, name) for folder in folders]
    return [path for path in candidates if path.is_file()] or candidates[:1]


def sha256_of(path: Path) -> str:
    """Return the hex SHA-256 digest of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


@former_forms
def fetch_file(
    name: str,
    sha256: str,
    url: str | None,
    *,
    cache: str | Path | None = None,
    mirror: str | Path | None = None,
    timeout: float = 30.0,
    say: Callable[[str], None] | None = None,
) -> Path:
    """Return the path of a verified local copy of a raw data file.

    Parameters
    ----------
    name
        File name, both in the cache and in the mirror directory.
    sha256
        Expected hex SHA-256 digest.
    url
        Canonical download address, tried after the mirror; None for none.
    cache
        Cache directory (see :func:`cache_dir`).
    mirror
        Local mirror directory (see :func:`mirror_dir`).
    timeout
        Seconds to wait for a network connection.
    say
        Called with one line per file actually copied or downloaded (formerly ``report=``,
        which still works with a :class:`DeprecationWarning`).

    Returns
    -------
    Path
        The cached file, whose digest equals ``sha256``.

    Raises
    ------
    DataFetchError
        When no source gives a file with the expected digest (the message lists every source
        tried, why it failed, and how to provide the file), or ``name`` is not a plain file
        name inside the cache and the mirror.
    """
    home = cache_dir(cache)
    target = confined(home, name)
    if target.exists():
        if sha256_of(target) == sha256:
            return target
        warnings.warn(
            f"cached {target} does not match its SHA-256; fetching a verified copy to replace it",
            stacklevel=2,
        )

    try:  # a cache that takes no file fails every source alike: say so, not what each said
        tempfile.TemporaryFile(dir=target.parent).close()
    except OSError as error:
        raise _cache_error(target.parent, error) from None
    sources: list[str | Path] = [*mirror_files(mirror_dir(mirror), name), *([url] if url else [])]
    failures = []
    for source in sources:
        try:
            _copy_verified(source, target, sha256, timeout)
        except (OSError, ValueError) as error:
            failures.append(f"  - {source}: {error}")
            continue
        if say:
            say(f"fetched {name} from {source}")
        return target

    tried = "\n".join(failures) or "  - (no source: no mirror directory and no URL)"
    raise DataFetchError(
        f"could not obtain {name!r} (sha256 {sha256}). Tried:\n{tried}\n"
        f"To fix: put the file in a directory and set {MIRROR_ENV}=DIR (or pass --mirror DIR), "
        f"or connect to the internet; or copy the file to {target} yourself."
    )


def _copy_verified(source: str | Path, target: Path, sha256: str, timeout: float) -> None:
    """Copy ``source`` to a temporary file beside ``target``, verify it, then move it in place."""
    handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    temporary = Path(name)
    try:
        with os.fdopen(handle, "wb") as out:
            if isinstance(source, Path):
                if not source.is_file():
                    raise FileNotFoundError("not found")
                with source.open("rb") as raw:
                    shutil.copyfileobj(raw, out, _CHUNK)
            else:
                with urllib.request.urlopen(source, timeout=timeout) as response:  # noqa: S310
                    shutil.copyfileobj(response, out, _CHUNK)
        actual = sha256_of(temporary)
        if actual != sha256:
            raise ValueError(f"checksum mismatch: expected sha256 {sha256}, got {actual}")
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
