"""Streaming readers for uploaded time series (Parquet or CSV with canonical names).

The format is decided by content, not by name: uploads always land under a
``.parquet`` key even when the client sent CSV bytes. Batches come out as
``{canonical column: float64 ndarray}`` with nulls as NaN; every problem a person
can fix in the file is raised as ``MeasurementFileError`` carrying an error issue.
"""

from __future__ import annotations

import csv
import gzip
import os
import re
import shutil
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from . import columns as col
from . import issues as iss

PARQUET_MAGIC = b"PAR1"
DEFAULT_BATCH_ROWS = 262_144
CSV_BLOCK_BYTES = 16 << 20
# pyarrow numbers CSV columns by their 0-based position in the file.
_CSV_CELL_ERROR = re.compile(r"CSV column #(\d+): (?:Row #\d+: )?CSV conversion error to \w+: invalid value '(.*)'")


class MeasurementFileError(Exception):
    """A user-fixable problem with an uploaded file; ``issue`` says what and where."""

    def __init__(self, issue: dict):
        super().__init__(issue["message"])
        self.issue = issue


def _fail(code: str, message: str, **payload) -> MeasurementFileError:
    return MeasurementFileError(iss.make_issue(code, message, payload))


GZIP_MAGIC = b"\x1f\x8b"


def inflated(path: str, label: str) -> str:
    """The upload itself, or its inflated copy when it arrived gzip-compressed.

    Clients compress bodies of 512 KiB and more (Content-Encoding: gzip), and object stores
    keep such a PUT's bytes as sent, so an upload may be a gzip stream of the file.
    """
    with open(path, "rb") as handle:
        if handle.read(2) != GZIP_MAGIC:
            return path
    target = path + ".inflated"
    try:
        with gzip.open(path, "rb") as source, open(target, "wb") as out:
            shutil.copyfileobj(source, out, 1 << 20)
    except (OSError, EOFError, zlib.error) as exc:
        raise _fail(
            iss.UNREADABLE_FILE,
            f"The {label} file is gzip-compressed but could not be inflated ({exc}); upload it again.",
            file=label,
        ) from exc
    return target


def sniff_format(path: str, label: str) -> str:
    """'parquet' or 'csv'; raises for empty or binary non-Parquet content."""
    if os.path.getsize(path) == 0:
        raise _fail(iss.EMPTY_FILE, f"The {label} file is empty (0 bytes).", file=label)
    with open(path, "rb") as handle:
        head = handle.read(4096)
    if head.startswith(PARQUET_MAGIC):
        return "parquet"
    if b"\x00" in head:
        raise _fail(
            iss.UNREADABLE_FILE,
            f"The {label} file is neither Parquet nor CSV text; upload a Parquet file or a CSV file with a header row.",
            file=label,
        )
    return "csv"


@dataclass
class SeriesSource:
    """An opened time-series file: which canonical columns it has, read in batches."""

    path: str
    format: str
    label: str
    columns: list[str]  # canonical names present, storage order
    dropped: list[str]  # file columns that are not part of the canonical set
    _file_names: dict[str, str]  # canonical name -> name in the file
    _csv_delimiter: str = ","

    def iter_batches(self, batch_rows: int = DEFAULT_BATCH_ROWS) -> Iterator[dict[str, np.ndarray]]:
        batches = self._parquet_batches(batch_rows) if self.format == "parquet" else self._csv_batches()
        row0 = 0
        for batch in batches:
            if batch.num_rows == 0:
                continue
            yield {name: self._to_float(batch.column(self._file_names[name]), name, row0) for name in self.columns}
            row0 += batch.num_rows
        if row0 == 0:
            raise _fail(iss.EMPTY_FILE, f"The {self.label} file has a header but no data rows.", file=self.label)

    def _parquet_batches(self, batch_rows: int) -> Iterator[pa.RecordBatch]:
        try:
            # pre_buffer would read every column chunk of the file up front: memory ∝ file size.
            parquet = pq.ParquetFile(self.path, pre_buffer=False)
            yield from parquet.iter_batches(batch_size=batch_rows, columns=list(self._file_names.values()))
        except (pa.ArrowException, OSError) as exc:
            raise _fail(
                iss.UNREADABLE_FILE,
                f"The {self.label} Parquet file is corrupt or truncated ({exc}); export it again and re-upload.",
                file=self.label,
            ) from exc

    def _csv_batches(self) -> Iterator[pa.RecordBatch]:
        wanted = list(self._file_names.values())
        try:
            reader = pacsv.open_csv(
                self.path,
                read_options=pacsv.ReadOptions(block_size=CSV_BLOCK_BYTES),
                parse_options=pacsv.ParseOptions(delimiter=self._csv_delimiter),
                convert_options=pacsv.ConvertOptions(
                    include_columns=wanted, column_types={name: pa.float64() for name in wanted}
                ),
            )
            yield from reader
        except pa.ArrowInvalid as exc:
            raise self._csv_error(exc) from exc

    def _csv_error(self, exc: Exception) -> MeasurementFileError:
        match = _CSV_CELL_ERROR.search(str(exc))
        if match:
            file_name = _read_csv_header(self.path, self._csv_delimiter)[int(match.group(1))]
            canonical = {name: key for key, name in self._file_names.items()}[file_name]
            value = match.group(2)
            return _fail(
                iss.COLUMN_NOT_NUMERIC,
                f"Column '{file_name}' must hold numbers, but the {self.label} file has the text '{value}' in it.",
                file=self.label,
                column=canonical,
                value=value,
            )
        return _fail(
            iss.UNREADABLE_FILE,
            f"The {self.label} CSV file could not be parsed ({exc}); check that every row has the "
            "same number of fields as the header.",
            file=self.label,
        )

    def _to_float(self, array: pa.Array, name: str, row0: int) -> np.ndarray:
        if array.type != pa.float64():
            try:
                array = pc.cast(array, pa.float64())
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
                raise self._not_numeric(array, name, row0) from exc
        return array.to_numpy(zero_copy_only=False)

    def _not_numeric(self, array: pa.Array, name: str, row0: int) -> MeasurementFileError:
        payload = {"file": self.label, "column": name}
        detail = f"its type is {array.type}"
        if pa.types.is_string(array.type) or pa.types.is_large_string(array.type):
            for offset, value in enumerate(array.to_pylist()):
                try:
                    float(value) if value is not None else None
                except ValueError:
                    payload.update(row_index=row0 + offset, value=value)
                    detail = f"row {row0 + offset} holds the text '{value}'"
                    break
        return MeasurementFileError(
            iss.make_issue(
                iss.COLUMN_NOT_NUMERIC,
                f"Column '{name}' must hold numbers, but in the {self.label} file {detail}.",
                payload,
            )
        )


def _read_csv_header(path: str, delimiter: str | None = None) -> list[str]:
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            first = handle.readline()
    except UnicodeDecodeError:
        return []
    if delimiter is None:
        delimiter = _guess_delimiter(first)
    return next(csv.reader([first], delimiter=delimiter), [])


def _guess_delimiter(header_line: str) -> str:
    return max((",", ";", "\t"), key=header_line.count)


def _is_numeric_type(data_type: pa.DataType) -> bool:
    return (
        pa.types.is_integer(data_type)
        or pa.types.is_floating(data_type)
        or pa.types.is_decimal(data_type)
        or pa.types.is_null(data_type)
        or pa.types.is_string(data_type)  # numbers stored as text are cast batch by batch
        or pa.types.is_large_string(data_type)
    )


def open_series(path: str, label: str = "time series") -> SeriesSource:
    """Open a time-series upload; raises MeasurementFileError for unusable files."""
    path = inflated(path, label)
    fmt = sniff_format(path, label)
    delimiter = ","
    if fmt == "parquet":
        try:
            parquet = pq.ParquetFile(path)
        except (pa.ArrowException, OSError) as exc:
            raise _fail(
                iss.UNREADABLE_FILE,
                f"The {label} Parquet file is corrupt or truncated ({exc}); export it again and re-upload.",
                file=label,
            ) from exc
        schema = parquet.schema_arrow
        file_columns = schema.names
        if parquet.metadata.num_rows == 0:
            raise _fail(iss.EMPTY_FILE, f"The {label} file has no data rows.", file=label)
    else:
        with open(path, "rb") as handle:
            first_line = handle.readline()
        try:
            delimiter = _guess_delimiter(first_line.decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            raise _fail(
                iss.UNREADABLE_FILE,
                f"The {label} file is neither Parquet nor UTF-8 CSV text; upload a Parquet file "
                "or a CSV file with a header row.",
                file=label,
            ) from exc
        try:
            file_columns = _read_csv_header(path, delimiter)
        except csv.Error as exc:
            raise _fail(
                iss.UNREADABLE_FILE,
                f"The header row of the {label} file could not be read ({exc}); upload a CSV file whose "
                "first row names its columns, or a Parquet file.",
                file=label,
            ) from exc
        schema = None

    file_names: dict[str, str] = {}
    # Exact canonical names win over aliases when a file carries both.
    for name in file_columns:
        if name.strip() in col.KNOWN:
            file_names.setdefault(name.strip(), name)
    for name in file_columns:
        alias_of = col.ALIASES.get(name.strip())
        if alias_of:
            file_names.setdefault(alias_of, name)
    used = set(file_names.values())
    dropped = [name for name in file_columns if name not in used]

    if col.TIME not in file_names:
        # Say how the file was read: text that was meant to be Parquet is read as CSV.
        read_as = "Parquet" if fmt == "parquet" else "CSV text (it does not start with Parquet's PAR1 marker)"
        raise _fail(
            iss.TIME_COLUMN_MISSING,
            f"The {label} file, read as {read_as}, has no '{col.TIME}' column; "
            "add elapsed time in seconds under that exact name.",
            file=label,
            format=fmt,
            available_columns=list(file_columns),
        )
    for required in (col.CURRENT, col.VOLTAGE):
        if required not in file_names:
            raise _fail(
                iss.REQUIRED_COLUMN_MISSING,
                f"The {label} file has no '{required}' column; it is required for every time series.",
                file=label,
                column=required,
                available_columns=list(file_columns),
            )
    if schema is not None:
        for canonical, name in file_names.items():
            data_type = schema.field(name).type
            if not _is_numeric_type(data_type):
                raise _fail(
                    iss.COLUMN_NOT_NUMERIC,
                    f"Column '{name}' must hold numbers, but in the {label} file its type is {data_type}.",
                    file=label,
                    column=canonical,
                )
    return SeriesSource(
        path=path,
        format=fmt,
        label=label,
        columns=col.ordered(file_names),
        dropped=dropped,
        _file_names=file_names,
        _csv_delimiter=delimiter,
    )


def read_table(path: str, label: str) -> pa.Table:
    """Read a small tabular upload (the optional steps file) whole, keeping all columns."""
    path = inflated(path, label)
    fmt = sniff_format(path, label)
    try:
        if fmt == "parquet":
            table = pq.read_table(path)
        else:
            with open(path, "rb") as handle:
                delimiter = _guess_delimiter(handle.readline().decode("utf-8-sig", errors="replace"))
            table = pacsv.read_csv(path, parse_options=pacsv.ParseOptions(delimiter=delimiter))
    except (pa.ArrowException, OSError) as exc:
        raise _fail(
            iss.UNREADABLE_FILE,
            f"The {label} file could not be read ({exc}); upload Parquet or CSV with a header row.",
            file=label,
        ) from exc
    if table.num_rows == 0:
        raise _fail(iss.EMPTY_FILE, f"The {label} file has no data rows.", file=label)
    return table
