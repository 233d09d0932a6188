// Where a measurement's objects live. Everything sits under the measurement's prefix (inside
// its project's), so deleting the measurement or its project removes all of it.
//   uploads/            what clients PUT (raw time series, steps, extension deltas, files), and
//                       next to each, in sealed/, the copy confirm makes for processing to read
//   files/              the files of a file measurement, served as uploaded
//   series/             canonical Parquet written by processing (versioned on extend), and
//                       the plot overview of a long series next to it

export const measurementPrefix = (organizationId: string, projectId: string, measurementId: string) =>
  `orgs/${organizationId}/projects/${projectId}/measurements/${measurementId}/`;

export const TIME_SERIES_UPLOAD = 'time_series.parquet';
export const STEPS_UPLOAD = 'steps.parquet';
export const EXTEND_UPLOAD = 'time_series_extend.parquet';

export const uploadKey = (prefix: string, filename: string) => `${prefix}uploads/${filename}`;
export const extendKey = (prefix: string, version: number) => `${prefix}uploads/extend-v${version}/${EXTEND_UPLOAD}`;
/**
 * Where confirm copies an upload: a key no signed URL or scoped credential names (each names
 * exactly its own upload key), so the bytes confirmed cannot be rewritten afterwards. In the
 * upload's folder, so what removes the folder removes the copy.
 */
export const sealedKey = (uploadPath: string) => uploadPath.replace(/([^/]+)$/, 'sealed/$1');
/** A file measurement's file is uploaded here; confirm copies it to its fileKey, where it is served from. */
export const fileUploadKey = (prefix: string, index: number, filename: string) =>
  uploadKey(prefix, fileKey(prefix, index, filename).slice(prefix.length));
export const seriesPrefix = (prefix: string) => `${prefix}series/`;
/** The plot overview of a canonical series (pyworker/cellar_worker/measurements/overview.py names it the same way). */
export const overviewKey = (timeSeriesKey: string) => timeSeriesKey.replace(/\.parquet$/, '') + '.overview.parquet';
/** Processing writes an overview only for series of at least this many rows (overview.py's MIN_ROWS). */
export const OVERVIEW_MIN_ROWS = 100_000;

/**
 * A user's filename as an object key segment: its position keeps names that differ only in
 * unsafe characters apart; the original name stays on the record and in downloads.
 */
export function fileKey(prefix: string, index: number, filename: string): string {
  const safe =
    filename
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._-]+/, '')
      .slice(0, 120) || 'file';
  return `${prefix}files/${String(index).padStart(3, '0')}-${safe}`;
}
