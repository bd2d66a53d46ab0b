"""Python's full garbage collections, run while the user is idle rather than at a keystroke.

Each listing leaves a few thousand objects in reference cycles (Textual's strips keep
themselves in their own caches), so at 10,000 papers the collector's full pass came
every seven keystrokes or so and took 40-110 ms: a keystroke's whole budget. While the
app runs, an automatic full pass comes only after ``FULL_AFTER`` younger ones (Python's
is 10); the app asks for one when no listing was asked for in the last second (``idle``).
What the app holds once its first listing is drawn (the index's readers, the widgets)
is frozen out of every pass (``gc.freeze``), so a full pass walks only what came after.
"""

from __future__ import annotations

import gc

FULL_AFTER = 200  # collections of the middle generation before an automatic full one


class Collector:
    """The collector's settings while the app runs; Python's own again after ``stop``."""

    def __init__(self) -> None:
        self._saved: tuple[int, ...] | None = None

    def start(self) -> None:
        self._saved = gc.get_threshold()
        gc.set_threshold(self._saved[0], self._saved[1], FULL_AFTER)

    def settled(self) -> None:
        """The first listing is on the screen: what the app holds now stays."""
        gc.freeze()

    def idle(self) -> None:
        """The user is idle: a full pass, if anything reached the oldest generation."""
        if gc.get_count()[2]:
            gc.collect()

    def stop(self) -> None:
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            gc.unfreeze()
            self._saved = None
