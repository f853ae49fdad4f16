"""What one split's audits share, built once from the split and kept for its other runs."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from faircompare.audits.protocol import AuditedRun

T = TypeVar("T")


SETUPS_KEPT = 256  # per audit: 10 splits x 2 variants x 3 attributes x 4 datasets, and more


class SplitCache(Generic[T]):
    """A per-split setup (a transport map, a fair metric), built on its first request.

    Entries are keyed on :attr:`AuditedRun.split_key`, the least recently used dropped past
    ``maxsize``. ``hits`` and ``misses`` count lookups, so tests can see the reuse.

    Parameters
    ----------
    build
        Builds the entry from a run (from its split only: the entry serves every model).
    maxsize
        Entries kept. The benchmark runs the costliest algorithms first, every split of each,
        so a split's next algorithm comes after all the splits and attributes of the one
        before: the cache holds them all (setups keep row positions and small matrices).
    """

    def __init__(self, build: Callable[[AuditedRun], T], maxsize: int = SETUPS_KEPT) -> None:
        self._build = build
        self._maxsize = maxsize
        self._entries: OrderedDict[Hashable, T] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __call__(self, run: AuditedRun) -> T:
        """Return the entry of ``run``'s split, building it on the first request."""
        key = run.split_key
        if key in self._entries:
            self.hits += 1
            self._entries.move_to_end(key)
            return self._entries[key]
        self.misses += 1
        entry = self._entries[key] = self._build(run)
        if len(self._entries) > self._maxsize:
            self._entries.popitem(last=False)
        return entry

    def clear(self) -> None:
        """Forget every entry and reset the counts."""
        self._entries.clear()
        self.hits = self.misses = 0


class SharedSetupAudit(Generic[T]):
    """An audit whose per-split setup (a transport map, a fair metric) serves every model.

    Subclasses implement :meth:`setup`; ``self.setups(run)`` returns the setup of the run's
    split, built on its first request and kept for the split's other runs (:class:`SplitCache`).
    """

    def __init__(self) -> None:
        self.setups: SplitCache[T] = SplitCache(self.setup)

    def setup(self, run: AuditedRun) -> T:
        """Build what the split's audits share, from the run's split only.

        Parameters
        ----------
        run
            Any run of the split.

        Returns
        -------
        object
            The setup.
        """
        raise NotImplementedError
