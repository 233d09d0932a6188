"""The model-vs-data series of a fit or validation, stored beside its result.

The service functions put ``"_series": {source: (time, data, model, target)}`` in their answer
(``optimal``: the fitted or validated values; ``baseline``: a fit's start point). When the
request names a ``series_prefix``, the activity writes each source as ``<prefix><source>.parquet``
with the columns ``Time [s]``, ``<target> (data)`` and ``<target> (model)`` -- the series the
Python client reads through ``GET /jobs/{id}/series`` -- and drops them from the answer, which
travels through Temporal and stays small.
"""

from __future__ import annotations

import io

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .. import storage

SOURCES = ("optimal", "baseline")


def series_columns(time, data, model, target: str) -> tuple:
    return (np.asarray(time, float), np.asarray(data, float), np.asarray(model, float), target)


def store(request: dict, answer: dict) -> dict:
    """Writes the answer's series under the request's ``series_prefix``; answers without them."""
    series = answer.pop("_series", None) or {}
    prefix = request.get("series_prefix") if isinstance(request, dict) else None
    if not prefix:
        return answer
    for source, (time, data, model, target) in series.items():
        table = pa.table(
            {
                "Time [s]": pa.array(time, pa.float64()),
                f"{target} (data)": pa.array(data, pa.float64()),
                # Points the model did not reach (it stopped at a limit first) are null.
                f"{target} (model)": pa.array(
                    np.where(np.isfinite(model), model, np.nan), pa.float64(), from_pandas=True
                ),
            }
        )
        buffer = io.BytesIO()
        pq.write_table(table, buffer)  # snappy: what the API's Parquet reader decodes
        storage.put_bytes(f"{prefix}{source}.parquet", buffer.getvalue())
    return answer
