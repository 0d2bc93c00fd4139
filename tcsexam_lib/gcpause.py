"""Building many small objects at once without the cycle collector walking them again and again.

Scoring builds hundreds of thousands of small dicts and lists (output rows, groups of
attempts) that hold no reference cycles and all live until the output is written; with
the default thresholds the cycle collector walks them over and over (a quarter of
``tcsexam score`` on 60,000 rows). :func:`few_collections` raises the thresholds for the
duration of a block and restores them afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def few_collections(threshold: int = 200_000) -> Iterator[None]:
    """Collect reference cycles rarely inside the block (thresholds restored after).

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
    gc.set_threshold(threshold, *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)
