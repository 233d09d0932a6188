// Fits from measured data: POST /fit-from-measurements and POST /fit-from-file are conveniences
// that become a simple pipeline with one data_fit element named "fit", created by the simple
// pipelines' own code (same checks, records and workflow). Errors are reported at the fields of
// these requests rather than at the element the fields become.
import { parquetMetadata, parquetReadObjects, parquetSchema, type FileMetaData } from 'hyparquet';
import type { RequestContext } from '../context.ts';
import { AppError, ValidationFailed, invalid, type ValidationIssue } from '../errors.ts';
import { requireProjectPermission } from './access.ts';
import { createPipeline } from './pipelines/creation.ts';
import { MAX_INLINE_ROWS } from './pipelines/dataChecks.ts';
import { isPlainObject, quoted, UUID } from '../values.ts';
import { isDecimal } from '../decimal.ts';
import type { RequestBody, Schema } from '../schemas.ts';

/** The element's name: its result is element_results.fit of GET /pipelines/{id}/result. */
const FIT_ELEMENT = 'fit';
/** data_fit fields besides model, parameters and data, passed on as given. */
const FIT_OPTIONS = ['cost', 'fixed_parameters', 'protocol', 'target', 'optimizer', 'time_range'] as const;

const TIME = 'Time [s]';
const CURRENT = 'Current [A]';
const VOLTAGE = 'Voltage [V]';
const FILE_LOC = ['body', 'file'];

type Loc = (string | number)[];
type Json = Record<string, unknown>;
type Column = (number | null)[];

/** What both fit forms share; measurement_ids is exactly one (openapi.yaml): array_data_fit needs a
 * number per data set that a measurement does not carry. */
type FitFields = Omit<RequestBody<'fitFromMeasurements'>, 'measurement_ids'>;

export interface UploadedFile {
  fieldname: string;
  buffer: Buffer;
}

export async function fitFromMeasurements(ctx: RequestContext, body: RequestBody<'fitFromMeasurements'>) {
  return createFit(ctx, body, `db:${body.measurement_ids[0]}`, ['body', 'measurement_ids', 0]);
}

export async function fitFromFile(
  ctx: RequestContext,
  body: Omit<Schema<'FitFromFileCreate'>, 'file'>,
  files: UploadedFile[] | undefined,
) {
  // Who may create comes before what the file holds, as for POST /simple_pipelines.
  await requireProjectPermission(ctx, body.project_id, 'pipeline:create');
  const parts = (files ?? []).filter((f) => f.fieldname === 'file');
  if (parts.length === 0)
    throw invalid(
      FILE_LOC,
      'a file part named "file" holding the measured data (CSV with a header row, or Parquet) is required',
      'missing',
    );
  if (parts.length > 1)
    throw invalid(FILE_LOC, `exactly one file part named "file" is accepted, got ${parts.length}`, 'value_error');
  const columns = await readFitColumns(parts[0]!.buffer, fitColumns(body));
  return createFit(ctx, body, columns, FILE_LOC);
}

/**
 * POST /fit-from-file before its file is read: a caller who may not create pipelines in the
 * project named by the fields sent before the file is refused without reading it.
 */
export async function fitFileGate(ctx: RequestContext, fields: Record<string, string>) {
  const projectId = fields.project_id;
  if (projectId && UUID.test(projectId))
    await requireProjectPermission(ctx, projectId.toLowerCase(), 'pipeline:create');
}

async function createFit(ctx: RequestContext, fields: FitFields, data: unknown, dataLoc: Loc) {
  const fit: Json & { element_type: 'data_fit' } = {
    element_type: 'data_fit',
    model: fields.model,
    parameters: fields.parameters,
    data,
  };
  for (const option of FIT_OPTIONS) if (fields[option] !== undefined) fit[option] = fields[option];
  try {
    return await createPipeline(
      ctx,
      {
        project_id: fields.project_id,
        name: fields.name,
        description: fields.description ?? null,
        elements: { [FIT_ELEMENT]: fit },
      },
      'simple',
    );
  } catch (err) {
    throw atRequestFields(err, dataLoc);
  }
}

/** ['body', 'elements', 'fit', 'cost'] → ['body', 'cost']; the element's data → where this request gave it. */
function requestLoc(loc: Loc, dataLoc: Loc): Loc {
  const [body, elements, element, field, ...rest] = loc;
  if (body !== 'body' || elements !== 'elements' || element !== FIT_ELEMENT) return loc;
  if (field === undefined) return ['body'];
  return field === 'data' ? [...dataLoc, ...rest] : ['body', field, ...rest];
}

function atRequestFields(err: unknown, dataLoc: Loc): unknown {
  if (err instanceof ValidationFailed) {
    return new ValidationFailed(
      err.issues.map((issue): ValidationIssue => {
        const loc = requestLoc(issue.loc, dataLoc);
        // "db:<id>" is the element's spelling; the request named the id.
        const input =
          typeof issue.input === 'string' && issue.input.startsWith('db:') ? issue.input.slice(3) : issue.input;
        return { ...issue, loc, ...(input !== undefined ? { input } : {}) };
      }),
    );
  }
  if (err instanceof AppError && isPlainObject(err.detail) && Array.isArray(err.detail.loc)) {
    return new AppError(err.code, err.message, { ...err.detail, loc: requestLoc(err.detail.loc as Loc, dataLoc) });
  }
  return err;
}

interface WantedColumns {
  required: string[];
  optional: string[];
}

/** Time, the target (voltage by default) and the current, which drives the model unless a protocol does. */
function fitColumns(body: FitFields): WantedColumns {
  const target = typeof body.target === 'string' ? body.target : VOLTAGE;
  const required = [...new Set([TIME, target, ...(body.protocol === undefined ? [CURRENT] : [])])];
  return { required, optional: required.includes(CURRENT) ? [] : [CURRENT] };
}

/** The file's fit columns as inline data (other columns are left out); CSV or Parquet by content. */
async function readFitColumns(bytes: Buffer, wanted: WantedColumns): Promise<Record<string, Column>> {
  if (bytes.length === 0) throw invalid(FILE_LOC, 'is empty', 'value_error');
  if (bytes.subarray(0, 4).toString('latin1') === 'PAR1') return readParquetColumns(bytes, wanted);
  if (bytes.subarray(0, 4096).includes(0)) {
    throw invalid(
      FILE_LOC,
      'is neither Parquet nor CSV text; upload a Parquet file or a CSV file with a header row',
      'value_error',
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes); // a BOM is dropped;
  } catch {
    throw invalid(
      FILE_LOC,
      'is neither Parquet nor UTF-8 CSV text; upload a Parquet file or a CSV file with a header row',
      'value_error',
    );
  }
  return readCsvColumns(text, wanted);
}

function tooManyRows(rows: number | undefined): ValidationFailed {
  const counted = rows === undefined ? `more than ${MAX_INLINE_ROWS}` : String(rows);
  return invalid(
    FILE_LOC,
    `has ${counted} data rows; ` +
      `a fit from a file takes at most ${MAX_INLINE_ROWS} (upload larger data as a cell measurement and use POST ` +
      `/fit-from-measurements)`,
    'too_long',
    undefined,
    { max_rows: MAX_INLINE_ROWS, ...(rows !== undefined ? { rows } : {}) },
  );
}

/** Which wanted columns the file has, by name (surrounding spaces ignored); a missing required one is refused. */
function pickColumns(fileColumns: string[], wanted: WantedColumns): Map<string, number> {
  const index = new Map<string, number>();
  fileColumns.forEach((name, i) => {
    const canonical = name.trim();
    if (!index.has(canonical)) index.set(canonical, i);
  });
  const missing = wanted.required.filter((c) => !index.has(c));
  if (missing.length) {
    throw invalid(
      FILE_LOC,
      `has no ${missing.map((c) => `"${c}"`).join(', ')} column; ` +
        `the fit needs ${wanted.required.map((c) => `"${c}"`).join(', ')}`,
      'missing',
      undefined,
      { missing_columns: missing, available_columns: fileColumns },
    );
  }
  return new Map([...wanted.required, ...wanted.optional].filter((c) => index.has(c)).map((c) => [c, index.get(c)!]));
}

/** A cell as a number; empty and NaN are missing values (the fit drops their rows). */
function toNumber(raw: unknown, column: string, row: number): number | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'bigint') return Number(raw);
  if (typeof raw === 'number') {
    if (Number.isNaN(raw)) return null;
    if (Number.isFinite(raw)) return raw;
  } else if (typeof raw === 'string') {
    const s = raw.trim();
    if (s === '' || /^nan$/i.test(s)) return null;
    if (isDecimal(s)) return Number(s);
  }
  throw invalid(
    [...FILE_LOC, column],
    `data row ${row}: ${quoted(typeof raw === 'string' ? raw : String(raw))} is not a finite number`,
    'float_parsing',
  );
}

async function readParquetColumns(bytes: Buffer, wanted: WantedColumns): Promise<Record<string, Column>> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let metadata: FileMetaData;
  try {
    metadata = parquetMetadata(file);
  } catch (err) {
    throw invalid(FILE_LOC, `is not a readable Parquet file (${(err as Error).message})`, 'value_error');
  }
  const rows = Number(metadata.num_rows);
  if (rows > MAX_INLINE_ROWS) throw tooManyRows(rows);
  const names = parquetSchema(metadata).children.map((c) => c.element.name);
  const picked = pickColumns(names, wanted);
  let records: Record<string, unknown>[];
  try {
    records = await parquetReadObjects({ file, metadata, columns: [...picked.values()].map((i) => names[i]!) });
  } catch (err) {
    throw invalid(FILE_LOC, `could not be read as Parquet (${(err as Error).message})`, 'value_error');
  }
  const out: Record<string, Column> = {};
  for (const [column, i] of picked) out[column] = records.map((r, row) => toNumber(r[names[i]!], column, row + 1));
  return out;
}

/** The delimiter the header uses most: comma, semicolon or tab (as the measurement reader guesses it). */
function guessDelimiter(headerLine: string): string {
  let best = ',';
  let bestCount = -1;
  for (const d of [',', ';', '\t']) {
    const n = headerLine.split(d).length - 1;
    if (n > bestCount) [best, bestCount] = [d, n];
  }
  return best;
}

/**
 * RFC 4180 records (quoted fields may hold delimiters, doubled quotes and line breaks); blank
 * lines are skipped. Stops early when `onRecord` answers false.
 */
function eachCsvRecord(text: string, delimiter: string, onRecord: (fields: string[]) => boolean): void {
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  // Whether the field so far is only whitespace (a quote then opens a quoted field); kept as a
  // flag, since trimming the field at every quote was quadratic on a long run of quotes.
  let blank = true;
  let i = 0;
  const add = (run: string) => {
    field += run;
    blank &&= run.trim() === '';
  };
  /**
   * The end of the run of ordinary characters from `from`: up to a delimiter, a line break or (in quotes or in a
   * blank field) a quote.
   */
  const runEnd = (from: number, stopAtQuote: boolean) => {
    let e = from + 1;
    for (; e < text.length; e++) {
      const c = text[e];
      if (c === '"' ? stopAtQuote : !inQuotes && (c === delimiter || c === '\n' || c === '\r')) break;
    }
    return e;
  };
  const next = () => {
    field = '';
    blank = true;
  };
  const endRecord = () => {
    fields.push(field);
    const empty = fields.length === 1 && blank;
    next();
    const go = empty || onRecord(fields);
    fields = [];
    return go;
  };
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          add('"');
          i++;
        } else inQuotes = false;
      } else {
        const e = runEnd(i, true);
        add(text.slice(i, e));
        i = e - 1;
      }
    } else if (ch === '"' && blank) {
      inQuotes = true;
      next();
    } else if (ch === delimiter) {
      fields.push(field);
      next();
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      if (!endRecord()) return;
    } else {
      // A run at once: a field was built a character at a time before.
      const e = runEnd(i, blank);
      add(text.slice(i, e));
      i = e - 1;
    }
  }
  if (field !== '' || fields.length) endRecord();
}

function readCsvColumns(text: string, wanted: WantedColumns): Record<string, Column> {
  const delimiter = guessDelimiter(text.split(/\r?\n/, 1)[0]!);
  let header: string[] | undefined;
  let picked = new Map<string, number>();
  const out: Record<string, Column> = {};
  let rows = 0;
  let tooMany = false;
  eachCsvRecord(text, delimiter, (fields) => {
    if (!header) {
      header = fields;
      picked = pickColumns(header, wanted);
      for (const c of picked.keys()) out[c] = [];
      return true;
    }
    rows++;
    if (rows > MAX_INLINE_ROWS) {
      tooMany = true;
      return false;
    }
    if (fields.length !== header.length) {
      throw invalid(
        FILE_LOC,
        `data row ${rows} has ${fields.length} fields; the header has ${header.length}`,
        'value_error',
      );
    }
    for (const [column, i] of picked) out[column]!.push(toNumber(fields[i], column, rows));
    return true;
  });
  if (!header)
    throw invalid(
      FILE_LOC,
      'has no header row; the first line names the columns, e.g. "Time [s],Current [A],Voltage [V]"',
      'value_error',
    );
  if (tooMany) throw tooManyRows(undefined);
  return out;
}
