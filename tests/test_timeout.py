"""Time limits stop work in the main thread, and nest."""

import time

import pytest

from faircompare._timeout import RunTimeoutError, time_limit


def busy(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_a_limit_stops_the_work():
    with pytest.raises(RunTimeoutError, match="time limit of 0.1 s"), time_limit(0.1):
        busy(5)


def test_a_shorter_inner_limit_applies_and_the_outer_one_goes_on_after_it():
    with pytest.raises(RunTimeoutError, match="time limit of 0.3 s"), time_limit(0.3):
        with pytest.raises(RunTimeoutError, match="time limit of 0.1 s"), time_limit(0.1):
            busy(5)
        busy(5)  # the outer limit still stops this, 0.2 s later


def test_a_longer_inner_limit_leaves_the_outer_one_in_charge():
    with pytest.raises(RunTimeoutError, match="time limit of 0.1 s"), time_limit(0.1):
        with time_limit(10):
            busy(5)
