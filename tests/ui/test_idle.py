"""The browser's garbage collections (ui/idle.py): the full ones wait for the user to
pause, and Python's settings come back when the app ends."""

from __future__ import annotations

import gc

from papercli.ui import idle


def test_full_collections_wait_while_the_app_runs_and_python_s_come_back():
    before = gc.get_threshold()
    collector = idle.Collector()
    collector.start()
    try:
        assert gc.get_threshold() == (*before[:2], idle.FULL_AFTER)
        collector.settled()
        assert gc.get_freeze_count() > 0
    finally:
        collector.stop()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_idle_collects_what_reached_the_oldest_generation():
    collector = idle.Collector()
    collector.start()
    try:
        cycle: list = []
        cycle.append(cycle)
        del cycle
        gc.collect(1)  # (the cycle is promoted: a full pass is due)
        assert gc.get_count()[2] > 0
        found = []
        gc.callbacks.append(lambda phase, info: found.append(info["generation"]))
        try:
            collector.idle()
        finally:
            gc.callbacks.pop()
        assert 2 in found and gc.get_count()[2] == 0
    finally:
        collector.stop()
