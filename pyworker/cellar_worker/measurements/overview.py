"""A plot overview of a long canonical time series, stored next to it by processing.

The API's plot read (``GET /cell_measurements/{id}/time_series?max_points=N``) downsamples
with LTTB (x = time, y = voltage). Decoding a 10-million-row series for that takes seconds
in the API, so processing also stores the rows LTTB keeps at ``OVERVIEW_POINTS`` points, with
every column. The API downsamples the overview for any smaller ``max_points`` (LTTB of LTTB
keeps the shape, and the first and last rows) and reads the series itself only for larger
requests or series without an overview.

The overview is named after its series (``time_series.v2.parquet`` →
``time_series.v2.overview.parquet``); the API derives the name the same way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from . import columns as col

OVERVIEW_POINTS = 20_000
# Shorter series are read whole by the API in well under a second (the API skips looking for
# their overview: OVERVIEW_MIN_ROWS in storage/measurementKeys.ts).
MIN_ROWS = 100_000


def overview_name(series_name: str) -> str:
    return series_name.removesuffix(".parquet") + ".overview.parquet"


def _fill_forward(x: np.ndarray, previous: float) -> np.ndarray:
    """Missing values take the last value before them (``previous`` before the first)."""
    missing = np.isnan(x)
    if not missing.any():
        return x
    last_present = np.maximum.accumulate(np.where(missing, -1, np.arange(len(x))))
    return np.where(last_present >= 0, x[np.maximum(last_present, 0)], previous)


def lttb_rows(chunks: Iterable[tuple[np.ndarray, np.ndarray]], n: int, points: int) -> np.ndarray:
    """The rows (ascending) LTTB keeps of ``n`` rows given in order as (x, y) chunks.

    The rules are those of the API's sampler (``Lttb`` in api/services/parquetColumns.ts):
    the first and last rows are kept; a row without y is chosen only when no row of its
    bucket has one; a row without x takes the previous x. Only the rows of buckets not yet
    chosen are held, so a series of any length streams through.
    """
    if n <= points:
        return np.arange(n)
    buckets = points - 2
    # Bucket b holds rows [starts[b], starts[b + 1]); the last row follows the last bucket.
    starts = (np.floor(np.arange(buckets + 1) * ((n - 2) / buckets)).astype(np.int64) + 1).tolist()
    starts[buckets] = n - 1
    starts.append(n - 1)

    kept = [0]
    xs = np.empty(0)
    ys = np.empty(0)
    base = 0  # the row of xs[0]
    ax = ay = 0.0  # the point kept last
    last_x = 0.0
    b = 0
    for x_chunk, y_chunk in chunks:
        if not len(x_chunk):
            continue
        x = _fill_forward(np.asarray(x_chunk, dtype=np.float64), last_x)
        y = np.asarray(y_chunk, dtype=np.float64)
        if base == 0 and not len(xs):
            ax, ay = float(x[0]), (0.0 if np.isnan(y[0]) else float(y[0]))
        last_x = float(x[-1])
        xs = np.concatenate([xs, x])
        ys = np.concatenate([ys, y])
        end = base + len(xs)
        # Buckets whose next bucket is complete can be chosen now (the last one needs the last row).
        last = b
        while last < buckets and (starts[last + 2] <= end if last + 1 < buckets else end >= n):
            last += 1
        if last > b:
            # The averages of the next buckets, over their rows with a y, all at once. reduceat sums
            # [edges[i], edges[i + 1]); the padding lets the final edge be the buffer's end.
            present = np.append(~np.isnan(ys), False)
            edges = np.asarray(starts[b + 1 : min(last, buckets - 1) + 2]) - base
            counts = np.add.reduceat(present.astype(np.int64), edges)[:-1]
            sums_x = np.add.reduceat(np.where(present, np.append(xs, 0.0), 0.0), edges)[:-1]
            sums_y = np.add.reduceat(np.where(present, np.append(ys, 0.0), 0.0), edges)[:-1]
            for k, bucket in enumerate(range(b, last)):
                if bucket + 1 < buckets:
                    count = int(counts[k])
                    avg_x, avg_y = (float(sums_x[k]) / count, float(sums_y[k]) / count) if count else (ax, ay)
                else:
                    # The last bucket's "next bucket" is the last row.
                    avg_x, last_y = float(xs[n - 1 - base]), float(ys[n - 1 - base])
                    avg_y = ay if math.isnan(last_y) else last_y
                lo, hi = starts[bucket] - base, starts[bucket + 1] - base
                cx, cy = xs[lo:hi], ys[lo:hi]
                # |(a - avg) x (p - a)|, rearranged; a row without y gets -1 (fmax drops the NaN).
                area = np.fmax(np.abs(cy * (ax - avg_x) + cx * (avg_y - ay) + (ay * avg_x - ax * avg_y)), -1.0)
                best = int(np.argmax(area))  # the first of equal areas, as the API's sampler
                kept.append(starts[bucket] + best)
                if not np.isnan(cy[best]):
                    ax, ay = float(cx[best]), float(cy[best])
            b = last
        keep_from = starts[b] if b < buckets else end
        xs, ys = xs[keep_from - base :], ys[keep_from - base :]
        base = keep_from
    kept.append(n - 1)
    return np.asarray(kept, dtype=np.int64)


def write_overview(series_path: str, out_path: str, write_options: dict) -> bool:
    """Write the overview of a stored series; False (and nothing written) when it is short."""
    parquet = pq.ParquetFile(series_path)
    n = parquet.metadata.num_rows
    if n < MIN_ROWS:
        return False
    has_voltage = col.VOLTAGE in parquet.schema_arrow.names

    def axes():
        for group in range(parquet.num_row_groups):
            table = parquet.read_row_group(group, columns=[col.TIME, *([col.VOLTAGE] if has_voltage else [])])
            x = table.column(col.TIME).to_numpy(zero_copy_only=False)
            y = table.column(col.VOLTAGE).to_numpy(zero_copy_only=False) if has_voltage else np.full(len(x), np.nan)
            yield x, y

    rows = lttb_rows(axes(), n, OVERVIEW_POINTS)
    # The kept rows with every column, one row group at a time.
    parts = []
    first = 0
    for group in range(parquet.num_row_groups):
        size = parquet.metadata.row_group(group).num_rows
        lo, hi = np.searchsorted(rows, [first, first + size])
        if hi > lo:
            parts.append(parquet.read_row_group(group).take(pa.array(rows[lo:hi] - first)))
        first += size
    pq.write_table(pa.concat_tables(parts), out_path, **write_options)
    return True
