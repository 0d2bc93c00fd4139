"""Building many small objects at once without the cycle collector walking them again and again.

Scoring builds hundreds of thousands of small dicts and lists (output rows, groups of
attempts) that hold no reference cycles and all live until the output is written; with
the default thresholds the cycle collector walks them over and over (a quarter of
``tcsexam score`` on 60,000 rows). :func:`few_collections` raises the thresholds for the
duration of a block, :func:`no_collections` pauses the collector in a block that builds
only acyclic objects; both restore the collector's state afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def few_collections(thresholds: tuple[int, ...] = (200_000,)) -> Iterator[None]:
    """Collect reference cycles rarely inside the block (thresholds restored after).

    ``thresholds`` replace the first of :func:`gc.get_threshold`'s values (the others are
    kept).

    Examples
    --------
    >>> import gc
    >>> before = gc.get_threshold()
    >>> with few_collections():
    ...     gc.get_threshold()[0]
    200000
    >>> gc.get_threshold() == before
    True
    """
    previous = gc.get_threshold()
    gc.set_threshold(*thresholds, *previous[len(thresholds) :])
    try:
        yield
    finally:
        gc.set_threshold(*previous)


@contextmanager
def no_collections() -> Iterator[None]:
    """No cycle collection inside the block: for a block that builds only acyclic objects
    (their memory is freed by reference counting as usual). The collector is enabled again
    afterwards if it was enabled before.

    Examples
    --------
    >>> import gc
    >>> with no_collections():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
