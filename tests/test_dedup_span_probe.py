"""The span probe's alignment (``benchmarks/dedup_span_probe.py``): which words two statements swap in one frame."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.dedup_span_probe import swapped  # noqa: E402


def test_one_stretch_swapped_after_a_change_signal_is_named_in_the_statements_own_words():
    frame, gone, came = swapped("actually Wren paints murals on weekends", "Wren paints portraits on weekends")
    assert (gone, came) == ("portraits", "murals")
    assert "paints" in frame and "weekends" in frame


def test_no_change_signal_or_two_stretches_align_to_nothing():
    assert swapped("Wren paints murals on weekends", "Wren paints portraits on weekends") is None
    assert swapped("actually Wren paints murals for the cafe on weekdays",
                   "Wren paints portraits for the cafe on weekends") is None


def test_every_word_swapped_leaves_an_empty_frame():
    assert swapped("actually Wren sculpts murals at night", "Wren paints portraits on weekends") == (
        "", "paints portraits weekends", "sculpts murals night")
