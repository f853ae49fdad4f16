"""How the report's parts are drawn, kept and put on the page, and drawn ahead in parallel.

A part of the report (a configuration's stability figure, the rankings, the audit figures) is a
function ``step(writer, *args)`` that writes figures, tables and texts through a
:class:`Writer`. The writer puts them on the page in the order the parts come, lists a part
that fails and goes on, and keeps each part's output in the report's
:class:`~faircompare.analysis.report_cache.PartCache`: a part whose inputs did not change is
not drawn again.

:func:`draw_ahead` draws the parts a report will need in worker processes, as many at a time
as ``jobs`` allows, into that cache; the report is then written as usual, in one process, and
finds them there. The page is the same whatever the number of processes and the order they
finish in.
"""

from __future__ import annotations

import base64
import io
import re
import warnings
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd
from joblib import Parallel, delayed
from markupsafe import Markup
from matplotlib.figure import Figure
from PIL import Image

from faircompare.analysis import tables
from faircompare.analysis.report_cache import PartCache, frame_from_json, frame_to_json
from faircompare.choices import TABLE_FIRST_ROWS
from faircompare.results import ResultStore
from faircompare.safe_write import WriteError, replaced

#: The resolution of the page's figures (a paper's PDF or SVG is ``faircompare figure``'s).
PAGE_DPI = 150


@dataclass
class Section:
    """One section of the page: its title and its parts (texts, figures, tables) in order."""

    title: str
    parts: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Part:
    """A part of the report as :meth:`Writer.attempt` was asked for it."""

    what: str
    step: Callable[..., Any]
    args: tuple[Any, ...]
    reads: tuple[Any, ...]

    @property
    def inputs(self) -> tuple[Any, ...]:
        """What the part reads, which keys it in the cache: ``reads``, else all its ``args``."""
        return self.reads or self.args


@dataclass
class Writer:
    """Writes figures and tables under ``out`` and collects the page's sections.

    A part whose inputs are those of a part in ``cache`` (drawn for the last report, or ahead
    of this one) is not drawn again: its recorded output goes on the page. A writer with a
    ``planned`` list draws nothing: it lists the parts it is asked for (:func:`draw_ahead`).
    """

    out: Path
    root: Path  # the folder the user named: nothing under it is written through a link
    cache: PartCache
    say: Callable[[str], None] | None = None
    sections: list[Section] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)
    planned: list[Part] | None = None
    _events: list[dict[str, Any]] | None = None  # what the running part writes, for the cache
    _files: list[str] | None = None
    _keys: list[str] | None = None  # the cached parts drawn within it

    def attempt(
        self, what: str, step: Callable[..., Any], *args: Any, reads: tuple[Any, ...] = ()
    ) -> Any:
        """Run one part of the report; if it fails, record why and go on with the others.

        The end of a long benchmark never loses its report to one figure: the failure is
        listed in the report's last section, and every other part is written. Returns what
        the part returns (a frame the caller gathers, or None), None where it failed.
        ``reads`` names what the part reads of ``args``, where that is less than all of them:
        the cache keys the part on it.
        """
        part = Part(what, step, args, reads)
        if self.planned is not None:
            self.planned.append(part)
            return None
        key = self.cache.key(what, step, part.inputs)
        outer = (self._events, self._files, self._keys)  # the part this one is drawn in
        self._events = self._files = self._keys = None
        entry = None if key is None else self.cache.load(key, self.out)
        if entry is not None:
            result = self._replay(entry)
            self.cache.keep(entry["keys"])  # the parts drawn within it: kept for next time
        else:
            failures = len(self.failures)
            self._events, self._files, self._keys = [], [], []
            result = self._run(what, step, args)
            entry = {"events": self._events, "files": self._files, "keys": self._keys}
            if key is not None and len(self.failures) == failures:  # a failure is never kept
                kept = None if result is None else frame_to_json(result)
                self.cache.store(key, {**entry, "result": kept})
        self._events, self._files, self._keys = outer
        if self._events is not None and self._files is not None and self._keys is not None:
            self._events += entry["events"]  # the part is a part of the outer one
            self._files += entry["files"]
            self._keys += ([key] if key is not None else []) + entry["keys"]
        return result

    def _run(self, what: str, step: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        try:
            return step(self, *args)
        except WriteError:  # a full disk or an unwritable folder fails every part: say it once
            raise
        except Exception as error:  # any part may fail on unusual results; the rest stands
            self.failures.append((what, f"{type(error).__name__}: {error}"))
            if self.say is not None:
                self.say(f"report: {what} failed ({type(error).__name__}: {error})")
            return None

    def wrote(self, path: Path) -> None:
        """Count a file the running part wrote beside its figures and tables as its own."""
        if self._files is not None:
            self._files.append(path.relative_to(self.out).as_posix())

    def drawn(
        self, name: str, caption: str, draw: Callable[..., Figure], *args: Any, **kwargs: Any
    ) -> None:
        """Put the figure ``draw(*args, **kwargs)`` on the page, drawn only if they changed."""
        self.attempt(f"figure {name}", _draw_figure, name, caption, draw, args, kwargs)

    def _replay(self, entry: dict[str, Any]) -> pd.DataFrame | None:
        """Put a cached part's output on the page; return what the part returned."""
        for event in entry["events"]:
            if event["kind"] == "section":
                self.section(event["title"])
            else:
                part = dict(event, table=Markup(event["table"])) if "table" in event else event
                self.sections[-1].parts.append(part)
        return None if entry["result"] is None else frame_from_json(entry["result"])

    def _record(self, part: dict[str, Any], files: Sequence[Path] = ()) -> None:
        if self._events is not None and self._files is not None:
            self._events.append(
                {k: str(v) if isinstance(v, Markup) else v for k, v in part.items()}
            )
            self._files += [path.relative_to(self.out).as_posix() for path in files]

    def section(self, title: str) -> None:
        """Start a section of the page (said where the writer says its progress)."""
        if self.say is not None:
            self.say(f"report: {title}")
        self.sections.append(Section(title))
        self._record({"kind": "section", "title": title})

    def html(self, fragment: str) -> None:
        """Put an HTML fragment of our own making on the page, as it is (the explorable chart)."""
        part = {"kind": "html", "html": fragment}
        self.sections[-1].parts.append(part)
        self._record(part)

    def text(self, text: str) -> None:
        """Put a paragraph on the page."""
        part = {"kind": "text", "text": text}
        self.sections[-1].parts.append(part)
        self._record(part)

    def figure(self, figure: Figure, name: str, caption: str) -> None:
        """Save a figure as ``figures/<name>.png`` and put the same PNG on the page (embedded).

        (A paper's PDF or SVG is drawn by ``faircompare figure``:
        :func:`faircompare.analysis.paper.draw`.)
        """
        png = _palette(figure)
        path = self.out / "figures" / f"{name}.png"
        with replaced(path, self.root) as temporary:
            temporary.write_bytes(png)
        encoded = base64.b64encode(png).decode()
        width, height = Image.open(io.BytesIO(png)).size  # its room, kept until it is loaded
        part = {"kind": "figure", "png": encoded, "caption": caption, "name": name,
                "files": [path.name], "width": width, "height": height}  # fmt: skip
        self.sections[-1].parts.append(part)
        self._record(part, [path])

    def table(
        self, table: pd.DataFrame, name: str, caption: str, numbers: pd.DataFrame | None = None
    ) -> None:
        """Write a table under ``tables/<name>`` (``numbers`` unrounded) and put it on the page."""
        paths = tables.write_table(
            table, self.out / "tables", name, numbers=numbers, caption=caption, root=self.root
        )
        html = _flat(_blank_missing(table)).to_html(
            na_rep="", float_format="{:.3f}".format, border=0, index=False
        )
        html = _INTERVAL.sub(lambda m: m.group().replace(" ", "\u00a0"), html)  # one line each
        html = _rest_held(html)
        files = [path.name for path in paths]
        part = {"kind": "table", "caption": caption, "table": Markup(html), "name": name,
                "files": files}  # fmt: skip
        self.sections[-1].parts.append(part)
        self._record(part, paths)


def _palette(figure: Figure) -> bytes:
    """Return a figure as a PNG in 256 colours: a quarter of the bytes, in the same time.

    A figure's few colours and the shades of their edges fit a palette, and a byte a pixel
    compresses faster than four (``perf/page_figures.py`` measures the bytes, the time and the
    pixels changed against the figure's PNG in every colour).
    """
    drawn = io.BytesIO()
    figure.savefig(drawn, format="png", dpi=PAGE_DPI, pil_kwargs={"compress_level": 1})
    with Image.open(drawn) as image:
        reduced = image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    reduced.save(out, "PNG")
    return out.getvalue()


# An interval, "[0.831, 0.856]": the page wraps a cell between words (a mean above its
# interval, where the column is narrow), never within one of these.
_INTERVAL = re.compile(r"\[[-+]?\d+\.\d+, [-+]?\d+\.\d+\]")


def _rest_held(html: str) -> str:
    """Return a table's HTML with its rows past the page's first held as text.

    The rows past :data:`~faircompare.choices.TABLE_FIRST_ROWS` go into a
    ``<script type="text/html" class="rows">`` whose ``data-rows`` counts them: the browser
    reads a script's text to its end tag and builds nothing of it, and the page's script parses
    the rows into the table when a reader asks for all, filters or sorts. Held in a
    ``<template>``, the tuned study's 16,600 rows still made 600,000 elements as the page was
    read; their text cannot end the script early, as every cell's text is escaped (no ``<``).
    """
    head, _, body = html.partition("<tbody>")
    body, _, tail = body.rpartition("</tbody>")
    rows = body.split("</tr>")  # each row, then what follows the last
    held = len(rows) - 1 - TABLE_FIRST_ROWS
    if held <= 0:
        return html
    first, rest = "</tr>".join(rows[:TABLE_FIRST_ROWS]), "</tr>".join(rows[TABLE_FIRST_ROWS:])
    script = f'<script type="text/html" class="rows" data-rows="{held}">{rest}</script>'
    return f"{head}<tbody>{first}</tr>{script}</tbody>{tail}"


def _flat(table: pd.DataFrame) -> pd.DataFrame:
    """Return a table whose index is its first columns: each row names itself in full.

    A filter or a sort on the page moves whole rows (a row under a spanning label lacks it);
    an unnamed index level's column is headed blank. The columns' own name (``verdict`` of a
    pivot) is dropped: pandas heads an empty first column with it.
    """
    table = table.rename_axis(columns=[None] * table.columns.nlevels)
    if isinstance(table.index, pd.RangeIndex) and table.index.name is None:
        return table
    names = [
        name if name is not None else " " * (i + 1) for i, name in enumerate(table.index.names)
    ]
    return table.rename_axis(names).reset_index()


def _blank_missing(table: pd.DataFrame) -> pd.DataFrame:
    """Return a table whose missing cells print empty: pandas prints a nullable one as <NA>.

    (A float column's NaN already prints empty, and keeps its number format.) The cells are
    escaped by :meth:`pandas.DataFrame.to_html`.
    """
    shown = table.copy()
    for name, column in table.items():
        if column.dtype.kind != "f" and column.isna().any():
            shown[name] = column.astype(object).where(column.notna(), "")
    return shown


def _draw_figure(
    writer: Writer,
    name: str,
    caption: str,
    draw: Callable[..., Figure],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> None:
    writer.figure(draw(*args, **kwargs), name, caption)


@dataclass(frozen=True)
class _StoreAt:
    """A results store passed to a worker process, which opens its own (read only)."""

    folder: Path


def draw_ahead(writer: Writer, write: Callable[[Writer], None], jobs: int) -> None:
    """Draw the parts ``write(writer)`` will ask for in ``jobs`` processes, into the cache.

    ``write`` is run once with a writer that lists its parts and draws none; those the cache
    does not hold are drawn in worker processes, each keeping its output in the cache. Where a
    worker process dies, the parts it did not draw are left to ``write``, as any part that
    failed in a worker is: drawn again in this process, which lists the failure. The workers
    are joblib's: they wait a while for more work, and end with this process.

    Parameters
    ----------
    writer
        The report's writer; only its folders and cache are used.
    write
        Writes the report's sections through a writer.
    jobs
        The most processes drawing at a time; below 2, nothing is drawn ahead.
    """
    planner = replace(writer, sections=[], failures=[], planned=[])
    write(planner)
    todo: dict[str, Part] = {}
    for part in planner.planned or []:
        key = writer.cache.key(part.what, part.step, part.inputs)
        if key is not None and not writer.cache.holds(key, writer.out):
            todo[key] = part
    if jobs < 2 or len(todo) < 2:
        return
    workers = min(jobs, len(todo))
    if writer.say is not None:
        writer.say(f"report: drawing {len(todo)} parts in {workers} processes")
    where = (writer.out, writer.root, writer.cache.reuse)
    # loky's workers, unlike multiprocessing's, do not import the user's script again; they
    # end with this process. The study-wide parts, last on the page and the longest, are
    # started first.
    drawing = Parallel(workers, backend="loky", return_as="generator_unordered", batch_size=1)
    failed: list[WriteError] = []
    try:
        with warnings.catch_warnings():
            # loky replaces a worker whose memory grew (the frames it was sent), and warns
            warnings.filterwarnings("ignore", "A worker stopped while some jobs", UserWarning)
            for key, counts, error in drawing(
                delayed(_draw_part)(*where, key, _portable(part))
                for key, part in reversed(todo.items())
            ):
                writer.cache.drawn_ahead(key, *counts)
                failed += [error] if error is not None else []
    except Exception as error:  # a worker that died; a part's own error is caught within it
        if writer.say is not None:
            writer.say(f"report: drawing in parallel stopped ({error}); drawing the rest here")
    if failed:  # a full disk: the report cannot be written here either
        raise failed[0]


def _draw_part(
    out: Path, root: Path, reuse: bool, key: str, part: Part
) -> tuple[str, tuple[int, int], WriteError | None]:
    """Draw one part into the report's cache, in a worker; return its key, counts and error.

    The counts are of the parts drawn and reused within it. A file that cannot be written is
    returned, not raised: raised, it would end the other workers in the middle of their files.
    """
    with ExitStack() as stack:

        def opened(values: tuple[Any, ...]) -> tuple[Any, ...]:
            return tuple(
                stack.enter_context(ResultStore(v.folder, readonly=True))
                if isinstance(v, _StoreAt) else v
                for v in values
            )  # fmt: skip

        cache = PartCache(out, root, reuse=reuse)
        writer = Writer(out, root, cache, sections=[Section("")])  # a part adds to a section
        try:
            writer.attempt(part.what, part.step, *opened(part.args), reads=opened(part.reads))
        except WriteError as error:
            return key, (0, 0), error
        return key, (cache.misses - 1, cache.hits), None


def _portable(part: Part) -> Part:
    """Return ``part`` with each results store as its folder, for a worker process to open."""

    def swapped(values: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(_StoreAt(v.folder) if isinstance(v, ResultStore) else v for v in values)

    return replace(part, args=swapped(part.args), reads=swapped(part.reads))
