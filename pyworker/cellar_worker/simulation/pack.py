"""Result packs: many simulations' Parquet files in one storage object.

A sweep's chunk solves hundreds of points a second; an object (and its fsync) per file would
cost more than the solves. So each flush of a chunk stores one pack: the standalone
``time_series.parquet`` and ``steps.parquet`` of each of its simulations, one after another.
A simulation records where its two files lie in the pack (``result_pack`` in the database)::

    {"key": "<pack object key>", "time_series": [offset, length], "steps": [offset, length]}

and a download reads exactly that byte range: the same file a simulation stored alone had.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq


def parquet_bytes(table: pa.Table) -> bytes:
    # Written in memory: the files are small. Dictionary encoding is left out because it only
    # pays for repeated values, which solver output hardly has.
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, use_dictionary=False)
    return sink.getvalue().to_pybytes()


class PackWriter:
    """Collects files in memory; ``locations`` are filled in once the key is known."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self.size = 0
        self.count = 0

    def add(self, time_series: bytes, steps: bytes) -> dict:
        """Append one simulation's two files; answers their ranges (the key is added by the caller)."""
        where = {"time_series": [self.size, len(time_series)], "steps": [self.size + len(time_series), len(steps)]}
        self._parts += (time_series, steps)
        self.size += len(time_series) + len(steps)
        self.count += 1
        return where

    def data(self) -> bytes:
        return b"".join(self._parts)
