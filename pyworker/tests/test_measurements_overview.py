"""The plot overview processing stores next to a long series: streaming LTTB and the file."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from cellar_worker.measurements import columns as col
from cellar_worker.measurements.extend import extend_series
from cellar_worker.measurements.generate import write_synthetic_series
from cellar_worker.measurements.issues import parse_options
from cellar_worker.measurements.overview import MIN_ROWS, OVERVIEW_POINTS, lttb_rows, overview_name, write_overview
from cellar_worker.measurements.process import process_upload
from cellar_worker.measurements.streaming import PARQUET_WRITE_OPTIONS


def reference_lttb(x: np.ndarray, y: np.ndarray, points: int) -> list[int]:
    """Textbook LTTB over whole arrays, one row at a time, with the same rules for missing values."""
    n = len(x)
    xs, last = [], 0.0
    for value in x:
        last = last if math.isnan(value) else float(value)
        xs.append(last)
    buckets = points - 2
    every = (n - 2) / buckets

    def start(b):
        return n - 1 if b >= buckets else math.floor(b * every) + 1

    kept = [0]
    ax, ay = xs[0], (0.0 if math.isnan(y[0]) else y[0])
    for b in range(buckets):
        if b == buckets - 1:
            avg_x, avg_y = xs[n - 1], (ay if math.isnan(y[n - 1]) else y[n - 1])
        else:
            rows = [i for i in range(start(b + 1), start(b + 2)) if not math.isnan(y[i])]
            avg_x, avg_y = (np.mean([xs[i] for i in rows]), np.mean([y[i] for i in rows])) if rows else (ax, ay)
        best, best_area = start(b), -1.0
        for i in range(start(b), start(b + 1)):
            area = -1.0 if math.isnan(y[i]) else abs((ax - avg_x) * (y[i] - ay) - (ax - xs[i]) * (avg_y - ay))
            if area > best_area:
                best, best_area = i, area
        kept.append(best)
        if not math.isnan(y[best]):
            ax, ay = xs[best], y[best]
    kept.append(n - 1)
    return kept


def noisy_series(n: int, seed: int, gap_run: int):
    """A noisy voltage with runs of ``gap_run`` rows (of every 97) without one, and some rows without a time."""
    rng = np.random.default_rng(seed)
    rows = np.arange(n)
    x = rows * 10.0 + rng.random(n)
    y = 3.6 + 0.5 * np.sin(rows / 50) + 0.05 * rng.random(n)
    if gap_run:
        y[rows % 97 < gap_run] = np.nan
        x[rows % 31 == 7] = np.nan
    return x, y


def chunked(x, y, size):
    return [(x[i : i + size], y[i : i + size]) for i in range(0, len(x), size)]


@pytest.mark.parametrize(
    ("n", "points", "gap_run", "chunk"),
    [
        (10_000, 500, 0, 10_000),
        (10_001, 3, 0, 777),
        (5_003, 777, 3, 1),
        (10_002, 1_000, 30, 4_096),
        (2_500, 40, 60, 333),
    ],
)
def test_streamed_lttb_keeps_the_rows_of_a_whole_array_lttb(n, points, gap_run, chunk):
    x, y = noisy_series(n, n + points, gap_run)
    kept = lttb_rows(chunked(x, y, chunk), n, points)
    assert kept.tolist() == reference_lttb(x, y, points)
    assert len(kept) == points and kept[0] == 0 and kept[-1] == n - 1
    assert np.all(np.diff(kept) > 0)


def test_lttb_keeps_a_spike_and_every_row_of_a_short_series():
    x = np.arange(100_000, dtype=float)
    y = np.full(100_000, 3.7)
    y[54_321] = 10.0
    assert 54_321 in lttb_rows(chunked(x, y, 8_192), 100_000, 100)
    assert lttb_rows(chunked(x[:50], y[:50], 7), 50, 100).tolist() == list(range(50))


def test_the_overview_holds_every_column_of_the_kept_rows(tmp_path):
    series = str(tmp_path / "time_series.parquet")
    write_synthetic_series(series, 150_000, 30, row_group_rows=40_000)
    overview = str(tmp_path / overview_name("time_series.parquet"))
    assert overview.endswith("time_series.overview.parquet")

    assert write_overview(series, overview, PARQUET_WRITE_OPTIONS)
    full = pq.read_table(series)
    kept = pq.read_table(overview)
    rows = lttb_rows(
        [(full.column(col.TIME).to_numpy(), full.column(col.VOLTAGE).to_numpy())], full.num_rows, OVERVIEW_POINTS
    )
    assert kept.num_rows == OVERVIEW_POINTS
    assert kept.schema == full.schema
    assert kept.to_pydict() == full.take(rows).to_pydict()
    assert kept.column(col.TIME)[0].as_py() == full.column(col.TIME)[0].as_py()
    assert kept.column(col.TIME)[-1].as_py() == full.column(col.TIME)[-1].as_py()


def test_a_short_series_has_no_overview(tmp_path):
    series = str(tmp_path / "time_series.parquet")
    write_synthetic_series(series, MIN_ROWS - 1, 10)
    assert not write_overview(series, str(tmp_path / "o.parquet"), PARQUET_WRITE_OPTIONS)
    assert not os.path.exists(tmp_path / "o.parquet")


def test_processing_and_extending_a_long_series_write_its_overview(tmp_path):
    source = str(tmp_path / "upload.parquet")
    write_synthetic_series(source, 120_000, 20, include_cumulative=False)
    out = tmp_path / "out"
    out.mkdir()
    outcome = process_upload(source, str(out), parse_options(None)[0])
    assert outcome.status == "ready", outcome.issues
    assert outcome.overview_path == str(out / "time_series.overview.parquet")
    assert pq.read_metadata(outcome.overview_path).num_rows == OVERVIEW_POINTS

    # An extension: the upload's first 1,000 rows again, as a new step after the last one.
    head = pq.read_table(source).slice(0, 1_000)
    stored = pq.read_table(outcome.time_series_path, columns=[col.TIME, col.STEP, col.CYCLE])
    last_time, last_step, last_cycle = (stored.column(name)[-1].as_py() for name in (col.TIME, col.STEP, col.CYCLE))
    shifted = head.to_pydict()
    shifted[col.TIME] = [last_time + 1 + t for t in shifted[col.TIME]]
    shifted[col.STEP] = [last_step + 1] * head.num_rows
    shifted[col.CYCLE] = [last_cycle] * head.num_rows
    delta = str(tmp_path / "delta.parquet")
    pq.write_table(head.from_pydict(shifted, schema=head.schema), delta)
    extended_dir = tmp_path / "extended"
    extended_dir.mkdir()
    extended = extend_series(outcome.time_series_path, delta, str(extended_dir), parse_options(None)[0], version=2)
    assert extended.status == "ready", extended.issues
    assert extended.overview_path == str(extended_dir / "time_series.v2.overview.parquet")
    overview_times = pq.read_table(extended.overview_path, columns=[col.TIME]).column(0)
    assert overview_times[-1].as_py() == shifted[col.TIME][-1]


def test_the_api_looks_for_overviews_from_the_same_length():
    keys = (Path(__file__).parents[2] / "storage" / "measurementKeys.ts").read_text()
    match = re.search(r"export const OVERVIEW_MIN_ROWS = ([\d_]+);", keys)
    assert match and int(match.group(1).replace("_", "")) == MIN_ROWS
