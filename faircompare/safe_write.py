"""Writing files a results folder holds: whole or not at all, never through a link.

Every file faircompare writes into a results folder (exported tables, the report's pages,
figures and tables, the lock) goes through here:

- it is written to a new temporary file beside its place and moved into place only once
  complete, so a full disk or a process killed halfway leaves the previous file (or none),
  never a truncated one;
- no file or folder on its way from the results folder is a symbolic link: a results folder
  received as an archive could hold one pointing anywhere, and writing through it would
  overwrite the target. Such a link is refused, named, and left alone;
- an operating system's refusal (a full disk, a file-size limit, a read-only or unwritable
  folder, a name too long) becomes one :class:`WriteError` that says which, and where.
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from faircompare.exceptions import FaircompareError

_REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "the file-size limit is reached",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENAMETOOLONG: "the name is too long",
    errno.ELOOP: "it is a link",
}
_DISK = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


class WriteError(FaircompareError):
    """A file that could not be written: no space, a limit, no permission, or a planted link."""


def refuse_links(path: Path, root: Path) -> Path:
    """Return ``path`` if nothing between ``root`` and it (itself included) is a link.

    Parameters
    ----------
    path
        A file or folder inside ``root`` (it need not exist yet).
    root
        The folder the user named (a results or output folder); it may itself be a link.

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    WriteError
        Naming the first link on the way, and where it points.
    """
    path, root = Path(path), Path(root)
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        parts = (path.name,)
        root = path.parent
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink():
            raise WriteError(
                f"{current} is a link (to {os.readlink(current)}): faircompare writes no file "
                "through a link in a results folder; remove the link, or use another folder"
            )
    return path


def make_folder(
    folder: Path, root: Path, *, way_out: str = "choose a folder you can write to"
) -> Path:
    """Create ``folder`` (and its parents) inside ``root``, refusing links on the way.

    Parameters
    ----------
    folder
        The folder to create.
    root
        The folder the user named.
    way_out
        What to do if it cannot be created (see :func:`write_error`).

    Returns
    -------
    Path
        ``folder``.

    Raises
    ------
    WriteError
        If a link is on the way, or the folder cannot be created (the message says why).
    """
    refuse_links(folder, root)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise write_error(error, folder, way_out=way_out) from None
    return refuse_links(folder, root)


@contextlib.contextmanager
def replaced(path: Path, root: Path) -> Iterator[Path]:
    """Yield a temporary path to write ``path``'s content to; move it into place at the end.

    The temporary file is created new (never an existing file, never a link) in ``path``'s
    folder with ``path``'s suffix (so that writers that choose a format by suffix choose the
    same one). When the block raises, it is removed and ``path`` is unchanged.

    Parameters
    ----------
    path
        The file to write.
    root
        The folder the user named (a results or output folder) holding ``path``.

    Yields
    ------
    Path
        Where to write.

    Raises
    ------
    WriteError
        If a link is on the way or the file cannot be written (a full disk, say).
    """
    path = Path(path)
    folder = make_folder(path.parent, root)
    refuse_links(path, root)
    try:
        handle, name = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=path.suffix, dir=folder)
    except OSError as error:
        raise write_error(error, path) from None
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        os.chmod(temporary, 0o666 & ~_umask())  # as the file would be, not mkstemp's 0o600
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise write_error(error, path) from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _umask() -> int:
    """Return this process's umask (read by setting it, then put back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_text(path: Path, text: str, root: Path) -> Path:
    """Write a text file whole (see :func:`replaced`).

    Parameters
    ----------
    path
        The file.
    text
        Its content, written as UTF-8.
    root
        The folder the user named.

    Returns
    -------
    Path
        ``path``.
    """
    with replaced(path, root) as temporary:
        temporary.write_text(text, encoding="utf-8")
    return path


def write_error(
    error: OSError, path: str | Path, *, way_out: str = "choose a folder you can write to"
) -> WriteError:
    """Return one error that says why ``path`` could not be written, and what to do.

    Parameters
    ----------
    error
        The operating system's error.
    path
        What was being written.
    way_out
        What to do when the reason is not a full disk (a command names its option).

    Returns
    -------
    WriteError
        Naming the path and the reason: for a full disk or a file-size limit, the space left
        and the limit, so that a full disk is never mistaken for a damaged file.
    """
    reason = _REASONS.get(error.errno or 0, error.strerror or type(error).__name__)
    if error.errno in _DISK:
        return WriteError(
            f"cannot write {path}: {reason}{disk_state(path)}; free some space (or raise the "
            "limit) and run the command again"
        )
    return WriteError(f"cannot write {path}: {reason}; {way_out}")


def disk_state(path: str | Path) -> str:
    """Say how much space is left where ``path`` is, and the file-size limit if there is one.

    Parameters
    ----------
    path
        A file or folder (the nearest existing folder is measured).

    Returns
    -------
    str
        For example ``" (1.2 MB free on its disk; file-size limit 64 KB)"``; empty when
        nothing can be measured.
    """
    folder = Path(path)
    while not folder.is_dir() and folder != folder.parent:
        folder = folder.parent
    facts = []
    with contextlib.suppress(OSError):
        facts.append(f"{size_text(shutil.disk_usage(folder).free)} free on its disk")
    limit, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    if limit != resource.RLIM_INFINITY:
        facts.append(f"file-size limit {size_text(limit)}")
    return f" ({'; '.join(facts)})" if facts else ""


def size_text(count: float) -> str:
    """Say a number of bytes in GB, MB, KB or bytes: ``size_text(1.5 * 2**30)`` is ``"1.5 GB"``.

    Parameters
    ----------
    count
        Bytes.

    Returns
    -------
    str
        One decimal in the largest unit it reaches.
    """
    for unit, scale in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"
