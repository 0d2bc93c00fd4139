"""What every output file of the kit is: readable as the umask says, reproducible byte for byte."""

from __future__ import annotations

import math
import os
import stat
import threading

import pytest

from tcsexam_lib import OutputRefused, run_score, write_json_atomic
from tcsexam_lib.jsonio import dumps_json
from tcsexam_lib.outputfiles import write_stream_atomic
from tcsexam_lib.paths import KIT_ROOT

DEMO = KIT_ROOT / "demo" / "demo-lite-offline"


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_outputs_get_the_permissions_the_umask_gives(tmp_path, umask, mode):
    previous = os.umask(umask)
    try:
        path = write_json_atomic(tmp_path / "out" / "x.json", {"score": 0.25})
    finally:
        os.umask(previous)
    assert stat.S_IMODE(path.stat().st_mode) == mode


def test_two_runs_with_source_date_epoch_are_byte_identical(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764633600")
    outputs = []
    for name in ("first.json", "second.json"):
        run_score(
            suite="demo-lite",
            attempts=DEMO / "attempts.csv",
            cohort=DEMO / "cohort.json",
            output=tmp_path / name,
        )
        outputs.append((tmp_path / name).read_bytes())
    assert outputs[0] == outputs[1]
    assert b'"created_utc": "2025-12-02T00:00:00Z"' in outputs[0]


def test_a_written_json_file_is_the_text_of_dumps_json(tmp_path):
    data = {"model": "sim-é", "scores": [0.25, 1e-09, 55.5, None], "nested": {"n": 3, "ok": True}}
    path = write_json_atomic(tmp_path / "x.json", data)
    assert path.read_bytes() == dumps_json(data).encode("utf-8")


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        (math.nan, r"a non-finite number at rows\[1\]\.z$"),
        (math.inf, r"a non-finite number at rows\[1\]\.z$"),
        (-math.inf, r"a non-finite number at rows\[1\]\.z$"),
        ("x\ud800", r"text that is not valid Unicode \(a lone surrogate\) at rows\[1\]\.z$"),
    ],
    ids=["nan", "inf", "-inf", "lone-surrogate"],
)
def test_unwritable_data_writes_nothing_and_keeps_the_old_file(tmp_path, bad, match):
    path = tmp_path / "x.json"
    path.write_text("previous\n", encoding="utf-8")
    with pytest.raises(OutputRefused, match=match):
        write_json_atomic(path, {"rows": [{"z": 1.0}, {"z": bad}]})
    with pytest.raises(OutputRefused, match=match):
        dumps_json({"rows": [{"z": 1.0}, {"z": bad}]})
    assert path.read_text(encoding="utf-8") == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.json"]  # no temporary file left


# A stream of chunks is written one chunk behind the making of the next (a thread writes
# while the caller makes more): the file holds every chunk in order, and a failure while
# making or writing leaves the old file as it was, no temporary file, no write running.


def test_a_stream_is_written_whole_and_in_order(tmp_path):
    chunks = [f"{k:05d}\n".encode() * (1 + k % 7) for k in range(2_000)]
    path = write_stream_atomic(tmp_path / "x.txt", iter(chunks))
    assert path.read_bytes() == b"".join(chunks)


def _failing_stream():
    yield b"first " * 100_000
    yield b"second"
    raise ValueError("stopped while making the third chunk")


@pytest.mark.parametrize(
    "chunks, error, match",
    [
        (_failing_stream, ValueError, "stopped while making the third chunk"),
        (lambda: iter([b"fine", "not bytes", b"never written"]), TypeError, "bytes-like"),
    ],
    ids=["making-fails", "writing-fails"],
)
def test_a_failed_stream_keeps_the_old_file_and_leaves_no_write_running(
    tmp_path, chunks, error, match
):
    path = tmp_path / "x.txt"
    path.write_text("previous\n", encoding="utf-8")
    with pytest.raises(error, match=match):
        write_stream_atomic(path, chunks())
    assert path.read_text(encoding="utf-8") == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.txt"]
    assert not [t for t in threading.enumerate() if t.name == "tcsexam-write-behind"]


def test_a_write_the_disk_refuses_is_refused_by_name(tmp_path, monkeypatch):
    path = tmp_path / "x.txt"
    real_open = os.fdopen

    class Full:
        def __init__(self, handle):
            self.handle = handle

        def __getattr__(self, name):
            return getattr(self.handle, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return self.handle.__exit__(*exc)

        def write(self, chunk):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: Full(real_open(fd, mode)))
    with pytest.raises(OutputRefused, match="No space left on device"):
        write_stream_atomic(path, iter([b"a" * 10, b"b"]))
    assert list(tmp_path.iterdir()) == []
