// Reads canonical Parquet from object storage in the API process (hyparquet: pure JS, ranged
// reads of the footer and of the needed column chunks only), and downsamples a series for
// plotting with Largest-Triangle-Three-Buckets, one row group at a time.
import { parquetMetadataAsync, parquetRead, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { ObjectNotFound, type ObjectStorage } from '../../storage/storage.ts';
import { FloatColumn } from '../jsonFloats.ts';
import { compressors } from '../parquetCodecs.ts';

export type Cell = number | string | boolean | null;

export interface ParquetObject {
  file: AsyncBuffer;
  metadata: FileMetaData;
  columns: string[];
  rowCount: number;
}

export async function openParquet(storage: ObjectStorage, key: string): Promise<ParquetObject> {
  const head = await storage.head(key);
  if (!head) throw new ObjectNotFound(key);
  const file: AsyncBuffer = {
    byteLength: head.size,
    async slice(start: number, end?: number) {
      const b = await storage.readRange(key, start, end ?? head.size);
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
    },
  };
  const metadata = await parquetMetadataAsync(file);
  // The schema's first element is the root; top-level columns follow (canonical files are flat).
  const columns = metadata.schema.slice(1).map((s) => s.name);
  return { file, metadata, columns, rowCount: Number(metadata.num_rows) };
}

function toCell(v: unknown): Cell {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  return String(v);
}

/** Rows [start, end) of some columns as hyparquet decodes them (no copy when one chunk covers them, no conversion). */
interface Group {
  start: number;
  end: number;
  cols: ArrayLike<unknown>[];
}

async function readGroup(p: ParquetObject, columns: string[], start: number, end: number): Promise<Group> {
  const cols: ArrayLike<unknown>[] = columns.map(() => []);
  const index = new Map(columns.map((c, i) => [c, i]));
  await parquetRead({
    file: p.file,
    metadata: p.metadata,
    compressors,
    columns,
    rowStart: start,
    rowEnd: end,
    onChunk(chunk) {
      const k = index.get(chunk.columnName)!;
      if (chunk.rowStart === start && chunk.rowEnd >= end) {
        cols[k] = chunk.columnData;
        return;
      }
      // A chunk covering part of the group: copy it into place.
      let target = cols[k] as unknown[];
      if (target.length !== end - start) cols[k] = target = new Array<unknown>(end - start).fill(null);
      const data = chunk.columnData;
      for (let r = Math.max(chunk.rowStart, start); r < Math.min(chunk.rowEnd, end); r++)
        target[r - start] = data[r - chunk.rowStart];
    },
  });
  return { start, end, cols };
}

/** Rows [start, end) of some columns, in the order asked. */
export async function readRows(
  p: ParquetObject,
  columns: string[],
  start: number,
  end: number,
): Promise<ArrayLike<unknown>[]> {
  return (await readGroup(p, columns, start, end)).cols;
}

/** A whole (small) table as {column: values}: steps and cycles summaries. */
export async function readTable(storage: ObjectStorage, key: string): Promise<Record<string, Cell[]>> {
  const p = await openParquet(storage, key);
  const { cols } = await readGroup(p, p.columns, 0, p.rowCount);
  const schema = p.metadata.schema.slice(1);
  return Object.fromEntries(
    p.columns.map((c, i) => {
      const values = Array.from({ length: p.rowCount }, (_, r) => toCell(cols[i]![r]));
      const float = schema[i]!.type === 'DOUBLE' || schema[i]!.type === 'FLOAT';
      return [c, float ? FloatColumn.from(values as (number | null)[]) : values];
    }),
  );
}

/** Points (x, y, row) of one LTTB bucket, in plain number arrays reused from bucket to bucket. */
class Bucket {
  xs: number[] = [];
  ys: number[] = [];
  rows: number[] = [];
  push(x: number, y: number, row: number) {
    this.xs.push(x);
    this.ys.push(y);
    this.rows.push(row);
  }
  clear() {
    this.xs.length = 0;
    this.ys.length = 0;
    this.rows.length = 0;
  }
  get length() {
    return this.rows.length;
  }
}

/**
 * LTTB over (x, y), streaming: rows are pushed in order and a bucket's point is chosen once
 * the next bucket's average is known, so only two buckets are held. The first and last rows
 * are always kept. A row without y is chosen only when no row of its bucket has one; a row
 * without x takes the previous x.
 * Points live in reused number arrays, not one object per row: a plot read of a 10-million-row
 * series pushes every row through here.
 */
export class Lttb {
  readonly #n: number;
  readonly #every: number;
  readonly #buckets: number;
  readonly #emit: (row: number) => void;
  #ax = 0;
  #ay = 0;
  #current = new Bucket();
  #next = new Bucket();
  #nextSum = { x: 0, y: 0, n: 0 };
  #bucket = 0; // the bucket #current holds
  #lastX = 0;

  constructor(n: number, maxPoints: number, emit: (row: number) => void) {
    this.#n = n;
    this.#buckets = maxPoints - 2;
    this.#every = (n - 2) / this.#buckets;
    this.#emit = emit;
  }

  /** The first row that may still be emitted (rows before it can be let go). */
  get pendingFrom(): number {
    return this.#current.length ? this.#current.rows[0]! : this.#next.length ? this.#next.rows[0]! : Infinity;
  }

  #start(b: number): number {
    return b >= this.#buckets ? this.#n - 1 : Math.floor(b * this.#every) + 1;
  }

  #choose(avgX: number, avgY: number) {
    const { xs, ys, rows } = this.#current;
    let best = 0;
    let bestArea = -1;
    for (let k = 0; k < rows.length; k++) {
      const y = ys[k]!;
      const area = Number.isNaN(y)
        ? -1
        : Math.abs((this.#ax - avgX) * (y - this.#ay) - (this.#ax - xs[k]!) * (avgY - this.#ay));
      if (area > bestArea) {
        bestArea = area;
        best = k;
      }
    }
    this.#emit(rows[best]!);
    if (!Number.isNaN(ys[best]!)) {
      this.#ax = xs[best]!;
      this.#ay = ys[best]!;
    }
  }

  push(i: number, xRaw: unknown, yRaw: unknown) {
    const x = typeof xRaw === 'number' ? xRaw : this.#lastX;
    this.#lastX = x;
    const y = typeof yRaw === 'number' ? yRaw : Number.NaN;
    if (i === 0) {
      this.#emit(0);
      this.#ax = x;
      this.#ay = Number.isNaN(y) ? 0 : y;
      return;
    }
    if (i === this.#n - 1) {
      // The last row is the "next bucket" of the last real bucket.
      if (this.#next.length) this.#advance();
      if (this.#current.length) this.#choose(x, Number.isNaN(y) ? this.#ay : y);
      this.#emit(i);
      return;
    }
    while (i >= this.#start(this.#bucket + 2)) this.#advance();
    if (i < this.#start(this.#bucket + 1)) {
      this.#current.push(x, y, i);
    } else {
      this.#next.push(x, y, i);
      if (!Number.isNaN(y)) {
        this.#nextSum.x += x;
        this.#nextSum.y += y;
        this.#nextSum.n += 1;
      }
    }
  }

  /** The next bucket is complete: choose in the current one and move on. */
  #advance() {
    const s = this.#nextSum;
    if (this.#current.length) {
      if (s.n) this.#choose(s.x / s.n, s.y / s.n);
      else this.#choose(this.#ax, this.#ay);
    }
    [this.#current, this.#next] = [this.#next, this.#current];
    this.#next.clear();
    this.#nextSum = { x: 0, y: 0, n: 0 };
    this.#bucket += 1;
  }
}

/**
 * The requested columns, all rows when there are at most `maxPoints`, else LTTB-selected rows
 * (x = time, y = voltage), read one row group at a time. Only the row groups holding rows the
 * sampler may still choose are kept.
 */
export async function downsample(
  p: ParquetObject,
  columns: string[],
  maxPoints: number,
  axes: { x: string; y: string },
): Promise<{ columns: Record<string, Cell[]>; downsampled: boolean }> {
  const wanted = [...new Set([...columns, axes.x, axes.y].filter((c) => p.columns.includes(c)))];
  const xi = wanted.indexOf(axes.x);
  const yi = wanted.indexOf(axes.y);
  const out = columns.map(() => [] as Cell[]);
  const pick = columns.map((c) => wanted.indexOf(c));
  let groups: Group[] = [];
  const emit = (row: number) => {
    const g = groups.find((candidate) => row < candidate.end)!;
    pick.forEach((w, k) => out[k]!.push(toCell(g.cols[w]![row - g.start])));
  };
  const n = p.rowCount;
  const sampler = n > maxPoints ? new Lttb(n, maxPoints, emit) : null;
  let rowStart = 0;
  for (const group of p.metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    const g = await readGroup(p, wanted, rowStart, rowEnd);
    groups.push(g);
    const xs = xi >= 0 ? g.cols[xi]! : null;
    const ys = yi >= 0 ? g.cols[yi]! : null;
    for (let row = rowStart; row < rowEnd; row++) {
      const r = row - rowStart;
      if (sampler) sampler.push(row, xs ? xs[r] : row, ys ? ys[r] : null);
      else emit(row);
    }
    const keepFrom = sampler ? sampler.pendingFrom : rowEnd;
    groups = groups.filter((candidate) => candidate.end > keepFrom);
    rowStart = rowEnd;
  }
  return { columns: Object.fromEntries(columns.map((c, k) => [c, out[k]!])), downsampled: sampler !== null };
}
