"""A series pass run over its batches: reading ahead and writing behind on their own threads,
reporting progress, stopping when cancelled."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from . import columns as col
from .pipeline import SeriesPass

# Dictionary encoding only pays off for the count columns; on float measurements it
# makes writing several times slower, and so do statistics on every column (kept for the
# columns readers filter on). Snappy is fast and every Parquet reader has it (the API
# reads these files too).
PARQUET_WRITE_OPTIONS = {
    "compression": "snappy",
    "use_dictionary": sorted(col.COUNTS),
    "write_statistics": [col.TIME, col.STEP, col.CYCLE],
}


class ProcessingCancelled(Exception):
    """The activity was cancelled; processing stopped between two batches."""


class Progress:
    """Rows processed so far, read by the heartbeat loop; also carries cancellation."""

    def __init__(self) -> None:
        self.rows_done = 0
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        self._cancelled.set()

    def advance(self, rows: int) -> None:
        self.rows_done += rows
        if self._cancelled.is_set():
            raise ProcessingCancelled()


def run_pass(series_pass: SeriesPass, batches: Iterator[dict[str, np.ndarray]], path: str, progress: Progress) -> None:
    # Decoding, numpy work and encoding each release the GIL, so reading ahead and
    # writing behind on their own threads keeps both cores busy.
    with _Background(_write_batches(path, series_pass.schema)) as writer, _ReadAhead(batches) as prefetched:
        series_pass.sink = writer.send
        for batch in prefetched:
            series_pass.feed(batch)
            progress.advance(len(batch[col.TIME]))


def _write_batches(path: str, schema: pa.Schema):
    """Consumer generator: each batch sent in becomes a row group; closing it ends the file."""
    with pq.ParquetWriter(path, schema, **PARQUET_WRITE_OPTIONS) as writer:
        while True:
            writer.write_batch((yield))


class _Background:
    """Runs a consumer generator on a thread, fed through a small bounded queue."""

    def __init__(self, consumer, depth: int = 2):
        self._queue: queue.Queue = queue.Queue(maxsize=depth)
        self._consumer = consumer
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> _Background:
        next(self._consumer)
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            while (item := self._queue.get()) is not None:
                self._consumer.send(item)
        except BaseException as error:  # handed to the caller's thread by send / __exit__
            self._error = error
            while self._queue.get() is not None:  # keep the producer from blocking
                pass
        try:
            self._consumer.close()
        except BaseException as error:
            self._error = self._error or error

    def send(self, item) -> None:
        if self._error is not None:
            raise self._error
        self._queue.put(item)

    def __exit__(self, *exc_info) -> None:
        self._queue.put(None)
        self._thread.join()
        if self._error is not None and exc_info[0] is None:
            raise self._error


class _ReadAhead:
    """Iterates ``source`` on a thread, at most ``depth`` items ahead of the consumer."""

    def __init__(self, source: Iterator, depth: int = 2):
        self._queue: queue.Queue = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(source,), daemon=True)

    def __enter__(self) -> _ReadAhead:
        self._thread.start()
        return self

    def _run(self, source: Iterator) -> None:
        try:
            for item in source:
                if not self._put(("item", item)):
                    return
            self._put(("end", None))
        except BaseException as error:  # re-raised in the consumer's thread
            self._put(("error", error))

    def _put(self, message) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(message, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def __iter__(self) -> Iterator:
        while True:
            kind, value = self._queue.get()
            if kind == "item":
                yield value
            elif kind == "error":
                raise value
            else:
                return

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join()
