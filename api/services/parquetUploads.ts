// A Parquet table from a multipart part (a material property dataset, an analysis), read once in
// memory (the multipart reader bounds its size) so it can be checked before it is stored as
// uploaded. Errors name ["body", "file"].
import { parquetMetadata, parquetReadObjects, parquetSchema, type FileMetaData } from 'hyparquet';
import { invalid } from '../errors.ts';
import type { UploadedFile } from '../multipart.ts';
import { compressors } from '../parquetCodecs.ts';

export const MAX_ROWS = 100_000;
const MAX_COLUMNS = 1000;
/** Rows times columns: what a read of the whole table (GET .../data) may hold in memory. */
const MAX_CELLS = 2_000_000;
const FILE_LOC = ['body', 'file'];

export interface ParsedFile {
  bytes: Buffer;
  names: string[];
  rows: Record<string, unknown>[];
}

export function onePart(files: UploadedFile[] | undefined): UploadedFile {
  const parts = (files ?? []).filter((f) => f.fieldname === 'file');
  if (parts.length !== 1) {
    throw invalid(
      FILE_LOC,
      parts.length
        ? `exactly one file part named "file" is accepted, got ${parts.length}`
        : 'a file part named "file" holding Parquet is required',
      parts.length ? 'value_error' : 'missing',
    );
  }
  return parts[0]!;
}

export async function readParquet(bytes: Buffer): Promise<ParsedFile> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let metadata: FileMetaData;
  try {
    metadata = parquetMetadata(file);
  } catch (err) {
    throw invalid(FILE_LOC, `is not a readable Parquet file (${(err as Error).message})`, 'value_error');
  }
  const rowCount = Number(metadata.num_rows);
  if (rowCount > MAX_ROWS)
    throw invalid(FILE_LOC, `has ${rowCount} rows; a table holds at most ${MAX_ROWS}`, 'value_error', undefined, {
      max_rows: MAX_ROWS,
    });
  const names = parquetSchema(metadata).children.map((c) => c.element.name);
  if (names.length > MAX_COLUMNS)
    throw invalid(FILE_LOC, `has ${names.length} columns; a table holds at most ${MAX_COLUMNS}`, 'value_error');
  if (names.length * rowCount > MAX_CELLS) {
    throw invalid(
      FILE_LOC,
      `has ${rowCount} rows of ${names.length} columns; a table holds at most ${MAX_CELLS} values`,
      'value_error',
      undefined,
      { max_values: MAX_CELLS },
    );
  }
  try {
    return { bytes, names, rows: await parquetReadObjects({ file, metadata, compressors }) };
  } catch (err) {
    throw invalid(FILE_LOC, `could not be read as Parquet (${(err as Error).message})`, 'value_error');
  }
}
