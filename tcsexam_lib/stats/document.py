"""The ``tcsexam stats`` document: its typed records, its pairs kept as columns, its JSON text.

:class:`StatsDocument` and its records declare the output's shape (the published schema
is generated from them). A 1,000-model cohort has 499,500 pairs, so the computed document
(:class:`ComputedStats`) keeps them as numpy columns (:class:`PairTable`) and
:func:`write_stats_json` writes them with msgspec a column at a time, one line a pair:
the text of ``msgspec.json.format(msgspec.json.encode(document.to_dict()), indent=2)``
otherwise (``tests/stats/test_command.py``). Why: docs/speed.md.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec
import numpy as np

from ..documents import Doc, Interval, Record, Sha256, field, frame
from ..jsonio import read_json
from ..outputfiles import write_stream_atomic
from ..scoring.index_document import Status
from .intervals import CI_METHODS
from .pairs import PairTests

if TYPE_CHECKING:  # pragma: no cover - annotations only
    import pandas as pd

SCHEMA = "stats-output"

#: A rank (1 = best), a rank interval ``[best, worst]`` and a probability.
Rank = Annotated[int, Doc(ge=1)]
RankInterval = Annotated[list[Rank], Doc(min_length=2, max_length=2)]
Probability = Annotated[float, Doc(ge=0, le=1)]

#: Pairs written per block: it bounds the memory of the text being assembled, and each
#: block is written while the next is made (:func:`~tcsexam_lib.outputfiles.write_stream_atomic`).
#: Small blocks keep their pieces in the cache: 4,096 pairs (about 1 MB of text) made
#: ``tcsexam stats`` on 499,500 pairs faster than 65,536 did (docs/speed.md).
WRITE_BLOCK = 4096
#: The document's keys after which the pairs are written, and the pairs' own keys.
_PAIR_FLOATS = ("delta", "se")
_PAIR_TESTS = ("p_value", "p_holm")
#: The float columns in the order the line template takes them (the pairs' ``df`` and
#: ``se_adjusted``, which give ``ci`` and ``p_value``, stay in :class:`PairTests`: a
#: 1,000-model file is 499,500 lines, each number of them costs time and space).
_TEXT_COLUMNS = (*_PAIR_FLOATS, "ci_low", "ci_high", *_PAIR_TESTS, "mdd")
_PLACEHOLDER = "\x00pairs\x00"


@dataclass(frozen=True)
class PairTable:
    """Every pair of a cohort as columns (``PairTests``) with the models' names.

    >>> PairTable.empty().to_records()
    []
    """

    names: list[str]
    tests: PairTests | None
    n_tasks: list[int] = dataclass_field(default_factory=list)

    @classmethod
    def empty(cls) -> PairTable:
        """No pairs (fewer than two models with an index)."""
        return cls([], None, [])

    def __len__(self) -> int:
        return 0 if self.tests is None else len(self.tests)

    @property
    def n_common_tasks(self) -> int:
        """Tasks every pair is compared on."""
        return sum(self.n_tasks)

    def count_significant(self) -> int:
        """How many pairs are significant after Holm."""
        return 0 if self.tests is None else int(np.count_nonzero(self.tests.significant))

    def to_records(self) -> list[dict[str, Any]]:
        """The pairs as the list of dictionaries the JSON holds (``null`` as ``None``)."""
        if self.tests is None:
            return []
        t = self.tests
        columns = {key: _floats(getattr(t, key)) for key in (*_PAIR_FLOATS, *_PAIR_TESTS, "mdd")}
        low, high = _floats(t.ci_low), _floats(t.ci_high)
        records = []
        for k, (a, b) in enumerate(zip(t.first.tolist(), t.second.tolist(), strict=True)):
            record = {"model_a": self.names[a], "model_b": self.names[b]}
            record.update((key, columns[key][k]) for key in _PAIR_FLOATS)
            record["ci"] = None if low[k] is None or high[k] is None else [low[k], high[k]]
            record.update((key, columns[key][k]) for key in _PAIR_TESTS)
            record["significant"] = bool(t.significant[k])
            record["mdd"] = columns["mdd"][k]
            record["n_common_tasks"] = self.n_common_tasks
            records.append(record)
        return records

    def json_blocks(self) -> Iterator[bytes]:
        """The JSON text of the list's items, one line per pair, a block of pairs at a time.

        Every line but the very last ends with ``,`` and a newline. A line's start with
        its first model, its second model with the key after it, and ``significant`` with
        the key after it are each made once (per model, per value) and looked up, so a
        line is formatted from ten pieces.
        """
        if self.tests is None:
            return
        t = self.tests
        quoted = [msgspec.json.encode(name) for name in self.names]
        starts = np.array([b'    {"model_a": %s, "model_b": ' % q for q in quoted], dtype=object)
        seconds = np.array([b'%s, "delta": ' % q for q in quoted], dtype=object)
        significant = (b'false, "mdd": ', b'true, "mdd": ')
        ci = b"[%s, %s]" if not np.isnan(t.ci_low).any() else b"null%s%s"
        template = (
            b'%s%s%s, "se": %s, "ci": '
            + ci
            + b', "p_value": %s, "p_holm": %s, "significant": %s%s, "n_common_tasks": '
            + str(self.n_common_tasks).encode()
            + b"},\n"
        )
        for start in range(0, len(t), WRITE_BLOCK):
            block = slice(start, start + WRITE_BLOCK)
            columns = [_column_text(getattr(t, key)[block]) for key in _TEXT_COLUMNS]
            if ci.startswith(b"null"):
                columns[2] = columns[3] = [b""] * len(columns[0])
            text = b"".join(
                map(
                    template.__mod__,
                    zip(
                        starts[t.first[block]].tolist(),
                        seconds[t.second[block]].tolist(),
                        *columns[:6],
                        [significant[s] for s in t.significant[block].tolist()],
                        columns[6],
                        strict=True,
                    ),
                )
            )
            yield text[:-2] if start + WRITE_BLOCK >= len(t) else text  # the last: no comma


def _floats(column: np.ndarray) -> list[float | None]:
    return [None if v != v else v for v in column.tolist()]  # NaN is not equal to itself


def _column_text(column: np.ndarray) -> list[bytes]:
    """Each number's JSON text (``null`` for NaN), from one msgspec call on the column."""
    text = msgspec.json.encode(column.astype(np.float64, copy=False).tolist())
    return text[1:-1].split(b",") if len(column) else []


class StatsTrack(Record):
    """One track of a model: its mean, tasks, standard error and interval (track units)."""

    SCHEMA = (SCHEMA, "/$defs/track")
    mean: float | None = field()
    n_tasks: Annotated[int, Doc(ge=0)] = field()
    se: float | None = field()
    ci: Interval | None = field()
    ci_method: Literal[CI_METHODS] = field(default=None)


class ProjectedSE(Record):
    """The index standard error projected for twice the tasks, or twice the attempts."""

    SCHEMA = (SCHEMA, "/$defs/projected_se")
    twice_tasks: float | None = field()
    twice_attempts: float | None = field()


class StatsModel(Record):
    """One model: its index with its interval and standard error, its rank and rank
    interval (all null without an index), and its tracks."""

    SCHEMA = (SCHEMA, "/$defs/model")
    status: Status = field()
    index: float | None = field()
    rank: Rank | None = field()
    index_se: float | None = field()
    index_ci: Interval | None = field()
    index_ci_half_width: float | None = field()
    rank_ci: RankInterval | None = field()
    tracks: dict[str, StatsTrack] = field(StatsTrack, shape="dict", default=None)
    note: str = field(default=None)
    index_ci_df: Interval | None = field(default=None)
    rank_ci_marginal: RankInterval | None = field(default=None)
    attempt_se: float | None = field(default=None)
    index_se_projected: ProjectedSE | None = field(ProjectedSE, default=None)


class StatsPair(Record):
    """One pair of ranked models: Δ index (a − b, points), its interval and tests."""

    SCHEMA = (SCHEMA, "/$defs/pair")
    model_a: str = field()
    model_b: str = field()
    delta: float = field()
    se: float | None = field()
    ci: Interval | None = field()
    p_value: Probability | None = field()
    p_holm: Probability | None = field()
    significant: bool = field()
    mdd: float | None = field()
    n_common_tasks: Annotated[int, Doc(ge=0)] = field()


class StatsDocument(Record):
    """A ``tcsexam stats`` output: intervals, paired tests and rank claims beside an index.

    Read by attribute: ``document.level``, ``document.results["m"].index_ci``,
    ``document.pair_rows[0].p_holm``; tables for notebooks as :attr:`models` and
    :attr:`pairs`.

    >>> document = StatsDocument({"level": 0.95, "ranking": ["a"], "leader_group": ["a"],
    ...     "models": {"a": {"index": 50.0, "index_ci": [40.0, 60.0]}}, "pairs": []})
    >>> document.level, document.results["a"].index_ci, document.result("a").index
    (0.95, [40.0, 60.0], 50.0)
    """

    SCHEMA = (SCHEMA, "")
    TITLE = "The output of tcsexam stats, as the report notebooks read it"
    DESCRIPTION = (
        "Intervals, paired comparisons, rank intervals, the leader group and tie groups "
        "beside the index of a tcsexam score output (the fields the reports show). Indexes "
        "in points, higher is better; track means in track units. docs/uncertainty.md says "
        "how each figure is computed. Generated from the kit's typed document "
        "tcsexam_lib.stats.document.StatsDocument (make schemas)."
    )
    metric_id: str = field()
    index_sha256: Sha256 = field()
    level: Annotated[float, Doc(gt=0, lt=1)] = field()
    resamples: Annotated[int, Doc(ge=1)] = field(default=None)
    seed: Annotated[int, Doc(ge=0)] = field(default=None)
    simulated: bool = field(default=False)
    results: dict[str, StatsModel] = field(StatsModel, shape="dict", key="models")
    ranking: list[str] = field()
    pair_rows: list[StatsPair] = field(StatsPair, shape="list", key="pairs")
    tie_groups: Annotated[
        list[list[str]],
        Doc(
            "Every longest run of consecutive models in the ranking in which no pair is "
            "separated by the Holm-adjusted tests, in rank order; runs may overlap (a model "
            "that differs from neither of two separated models is in both). No group holds "
            "a separated pair."
        ),
    ] = field()
    notes: list[str] = field(default=())
    pairs_untested: Annotated[
        str | None,
        Doc("why no pair could be tested (every p-value null), or null when they were"),
    ] = None
    leader_group: list[str] = field()

    def result(self, model: str) -> StatsModel:
        """One model's entry (wrapping it alone, not every model's)."""
        return StatsModel(self.data["models"][model])

    def set_provenance(self, provenance: dict[str, Any]) -> None:
        """The provenance block (written last: it closes the document)."""
        self.data["provenance"] = provenance

    @property
    def models(self) -> pd.DataFrame:
        """One row per model: status, index (points), its interval and standard error, rank
        and rank interval (empty without an index), and whether it could be first.

        >>> entry = {"status": "complete", "index": 50.0, "rank": 1, "index_se": 4.5,
        ...     "index_ci": [40.0, 60.0], "index_ci_half_width": 10.0, "rank_ci": [1, 2]}
        >>> document = StatsDocument({"models": {"a": entry}, "leader_group": ["a"]})
        >>> document.models[["model", "index", "ci_low", "rank_worst", "could_be_first"]
        ...     ].values.tolist()
        [['a', 50.0, 40.0, 2, True]]
        """
        leaders = set(self.leader_group)
        rows = [
            {
                "model": model,
                "status": entry.status,
                "index": entry.index,
                "index_se": entry.index_se,
                **_ends(entry.index_ci, "ci_low", "ci_high"),
                "index_ci_half_width": entry.index_ci_half_width,
                "rank": entry.rank,
                **_ends(entry.rank_ci, "rank_best", "rank_worst"),
                "could_be_first": model in leaders,
            }
            for model, entry in self.results.items()
        ]
        columns = ["model", "status", "index", "index_se", "ci_low", "ci_high",
                   "index_ci_half_width", "rank", "rank_best", "rank_worst",
                   "could_be_first"]  # fmt: skip
        return frame(rows, columns, index=["model"])

    @property
    def pairs(self) -> pd.DataFrame:
        """One row per pair of ranked models: Δ index (a − b, points), its interval, the
        p-value and Holm's, whether the pair differs, the detectable Δ.

        >>> pair = {"model_a": "a", "model_b": "b", "delta": 2.0, "se": 1.0, "ci": [0.1, 3.9],
        ...     "p_value": 0.04, "p_holm": 0.04, "significant": True, "mdd": 4.5,
        ...     "n_common_tasks": 20}
        >>> StatsDocument({"pairs": [pair]}).pairs[["model_a", "delta", "ci_low", "significant"]
        ...     ].values.tolist()
        [['a', 2.0, 0.1, True]]
        """
        rows = [
            {
                "model_a": pair.model_a,
                "model_b": pair.model_b,
                "delta": pair.delta,
                "se": pair.se,
                **_ends(pair.ci, "ci_low", "ci_high"),
                "p_value": pair.p_value,
                "p_holm": pair.p_holm,
                "significant": pair.significant,
                "mdd": pair.mdd,
                "n_common_tasks": pair.n_common_tasks,
            }
            for pair in self.pair_rows
        ]
        columns = ["model_a", "model_b", "delta", "se", "ci_low", "ci_high", "p_value",
                   "p_holm", "significant", "mdd", "n_common_tasks"]  # fmt: skip
        return frame(rows, columns, index=["model_a", "model_b"])


def _ends(interval: list[Any] | None, low: str, high: str) -> dict[str, Any]:
    """An interval as two columns (both empty without one)."""
    return {low: None, high: None} if interval is None else {low: interval[0], high: interval[1]}


def as_stats_document(stats: StatsDocument | ComputedStats | dict[str, Any]) -> StatsDocument:
    """A stats document read by attribute: a parsed one wrapped (not copied), a computed
    one's head (every field but the pairs)."""
    if isinstance(stats, ComputedStats):
        return stats.head
    return stats if isinstance(stats, StatsDocument) else StatsDocument(stats)


def load_stats(path: str | os.PathLike[str]) -> StatsDocument:
    """Read a ``tcsexam stats`` output (strict JSON) as a :class:`StatsDocument`."""
    return StatsDocument(read_json(path))


@dataclass
class ComputedStats:
    """A ``tcsexam stats`` document as computed: ``head``, every field but the pairs (a
    :class:`StatsDocument` read by attribute, in the order written), and the pairs as
    columns.

    ``document["models"]`` reads a field of the head; :meth:`to_dict` gives the whole
    document as plain data (the pairs as a list of dictionaries, after ``notes``).
    """

    head: StatsDocument
    pairs: PairTable

    def __getitem__(self, key: str) -> Any:
        if key == "pairs":
            return self.pairs.to_records()
        return self.head[key]

    def get(self, key: str, default: Any = None) -> Any:
        """A field of the head (``pairs`` as records), or ``default``."""
        return self[key] if key == "pairs" or key in self.head else default

    def set_provenance(self, provenance: dict[str, Any]) -> None:
        """The provenance block (written last: it closes the document)."""
        self.head.set_provenance(provenance)

    def _ordered(self, pairs: Any) -> dict[str, Any]:
        document: dict[str, Any] = {}
        for key, value in self.head.items():
            document[key] = value
            if key == "notes":
                document["pairs"] = pairs
        if "pairs" not in document:
            document["pairs"] = pairs
        if "provenance" in document:  # the provenance closes the document
            document["provenance"] = document.pop("provenance")
        return document

    def to_dict(self) -> dict[str, Any]:
        """The document as plain JSON data."""
        return self._ordered(self.pairs.to_records())

    def json_chunks(self) -> Iterator[bytes]:
        """The document's JSON text (what :func:`write_stats_json` writes), in pieces."""
        encoded = msgspec.json.encode(self._ordered(_PLACEHOLDER))
        text = msgspec.json.format(encoded, indent=2)
        before, after = text.split(msgspec.json.encode(_PLACEHOLDER), 1)
        if len(self.pairs) == 0:
            yield before + b"[]" + after + b"\n"
            return
        yield before + b"[\n"
        yield from self.pairs.json_blocks()
        yield b"\n  ]" + after + b"\n"


def write_stats_json(path: str | os.PathLike[str], document: ComputedStats) -> None:
    """Write the document's JSON atomically (a temporary file renamed into place)."""
    write_stream_atomic(path, document.json_chunks())
