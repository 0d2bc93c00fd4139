"""The stratified, paired bootstrap over tasks.

One replicate draws, within each track, ``n_t`` of the track's ``n_t`` tasks with
replacement (attempts are not resampled: they are already averaged into the task
means). The same draw serves every model, so the replicates of two models are paired:
their difference is the bootstrap replicate of their delta. A replicate's track mean
is the mean of the drawn task means; its index is their weighted sum
(:func:`~tcsexam_lib.formulas.combine_track_mean_arrays`).

Everything is vectorised over replicates: the draws of a track are an integer array
of shape ``(B, n_t)``, turned into how many times each task was drawn (``(B, n_t)``
counts), so that the replicate means of every model are one product with the task
means.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..formulas import combine_track_mean_arrays


def draw_task_indices(
    rng: np.random.Generator, n_tasks: Sequence[int], resamples: int
) -> tuple[np.ndarray, ...]:
    """One shared stratified draw: per track, ``resamples`` rows of ``n_t`` task positions.

    Tracks are drawn in the order given (the kit's :data:`~tcsexam_lib.vocab.TRACKS`
    order), each with ``rng.integers(0, n_t, size=(resamples, n_t))``; a replicate
    ``b`` uses row ``b`` of every track.

    Examples
    --------
    >>> import numpy as np
    >>> draws = draw_task_indices(np.random.default_rng(0), [3, 2, 2, 1], resamples=4)
    >>> [d.shape for d in draws]
    [(4, 3), (4, 2), (4, 2), (4, 1)]
    >>> bool(draws[3].max() == 0)
    True
    """
    return tuple(rng.integers(0, n, size=(resamples, n)) for n in n_tasks)


def count_task_draws(indices: np.ndarray, n: int) -> np.ndarray:
    """How many times each of ``n`` tasks appears in each row of ``indices`` (``(B, n)``).

    Examples
    --------
    >>> import numpy as np
    >>> count_task_draws(np.array([[0, 0, 2], [1, 2, 0]]), 3).tolist()
    [[2, 0, 1], [1, 1, 1]]
    """
    rows = indices.shape[0]
    offsets = indices + n * np.arange(rows)[:, None]
    return np.bincount(offsets.ravel(), minlength=rows * n).reshape(rows, n)


def bootstrap_replicates(
    values: Sequence[np.ndarray], indices: Sequence[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """Bootstrap replicates of every row's track means and index, from one shared draw.

    Parameters
    ----------
    values : sequence of arrays
        Per track (P, S, C, O order) the task means, shape ``(rows, n_t)``: a row per
        model.
    indices : sequence of arrays
        The draw of :func:`draw_task_indices`, shape ``(B, n_t)`` per track.

    Returns
    -------
    (track_means, index) : arrays of shape ``(rows, B, 4)`` and ``(rows, B)``
        ``track_means[r, b, t]`` is the mean of the task means of row ``r`` drawn by
        replicate ``b`` in track ``t``; ``index[r, b]`` their weighted sum in points.

    Examples
    --------
    Two tasks a track; replicate 0 draws the first task twice everywhere:

    >>> import numpy as np
    >>> values = [np.array([[1.0, 0.0]]), np.array([[0.5, 0.3]]),
    ...           np.array([[1.2, 0.8]]), np.array([[0.0, 1.0]])]
    >>> draw = [np.array([[0, 0], [0, 1]])] * 4
    >>> tracks, index = bootstrap_replicates(values, draw)
    >>> tracks[0, 0].tolist(), index[0].round(6).tolist()
    ([1.0, 0.5, 1.2, 0.0], [81.0, 62.0])
    """
    means = []
    for track_values, track_indices in zip(values, indices, strict=True):
        n = track_values.shape[-1]
        counts = count_task_draws(track_indices, n)
        means.append(np.einsum("rn,bn->rb", track_values, counts) / n)
    track_means = np.stack(means, axis=-1)
    return track_means, combine_track_mean_arrays(track_means)
