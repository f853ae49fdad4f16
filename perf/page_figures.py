"""The report page's figures in 256 colours: the bytes saved, and what it costs in time.

Draws figures of a study (each kind of :data:`faircompare.analysis.paper.KINDS` that draws
from a plain study, at a page's width) and writes each twice, as the report wrote them before
(``savefig`` to PNG at the page's resolution, every colour) and as it writes them now
(:func:`faircompare.analysis.report_writer._palette`: 256 colours, FASTOCTREE). Prints the
bytes of each, their ratio, the seconds each takes, and how many pixels differ by more than
16 of 255 in a channel.

    python perf/page_figures.py --results results
"""

from __future__ import annotations

import argparse
import io
import os
import time
import warnings
from pathlib import Path

import numpy as np
from PIL import Image

from faircompare.analysis import paper
from faircompare.analysis.report_writer import PAGE_DPI, _palette


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=Path("results"))
    args = parser.parse_args()
    full = reduced = 0
    every = palette = 0.0
    changed, pixels, drawn = 0, 0, 0
    for kind in paper.KINDS:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                figure = paper.draw(kind, args.results, width=7.0, height=6.0)
        except Exception as error:  # a kind this study cannot draw (no tuned runs, say)
            print(f"{kind}: not drawn ({type(error).__name__})")
            continue
        start = time.perf_counter()
        plain = io.BytesIO()
        figure.savefig(plain, format="png", dpi=PAGE_DPI)
        every += time.perf_counter() - start
        start = time.perf_counter()
        small = _palette(figure)
        palette += time.perf_counter() - start
        full, reduced, drawn = full + plain.tell(), reduced + len(small), drawn + 1
        before = np.asarray(Image.open(plain).convert("RGB"), dtype=int)
        after = np.asarray(Image.open(io.BytesIO(small)).convert("RGB"), dtype=int)
        difference = np.abs(before - after).max(axis=2)
        changed, pixels = changed + int((difference > 16).sum()), pixels + difference.size
    print(
        f"{drawn} figures: {full / 1e6:.2f} MB in every colour, {every:.2f} s; "
        f"{reduced / 1e6:.2f} MB in 256 colours, {palette:.2f} s (bytes ratio "
        f"{full / max(reduced, 1):.2f}, time ratio {palette / max(every, 1e-9):.2f})"
    )
    print(f"pixels changed by more than 16 of 255 in a channel: {changed / max(pixels, 1):.3%}")
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
