// Reads canonical Parquet from object storage in the API process (hyparquet: pure JS, ranged
// reads of the footer and of the needed column chunks only), and downsamples a series for
// plotting with Largest-Triangle-Three-Buckets, one row group at a time.
import { parquetMetadataAsync, parquetRead, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { ObjectNotFound, type ObjectStorage } from '../../storage/storage.ts';

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

/** Rows [rowStart, rowEnd) of the given columns, column by column. */
async function readRange(p: ParquetObject, columns: string[], rowStart: number, rowEnd: number): Promise<Cell[][]> {
  const out = columns.map(() => new Array<Cell>(rowEnd - rowStart).fill(null));
  const index = new Map(columns.map((c, i) => [c, i]));
  await parquetRead({
    file: p.file,
    metadata: p.metadata,
    columns,
    rowStart,
    rowEnd,
    onChunk(chunk) {
      const target = out[index.get(chunk.columnName)!]!;
      const data = chunk.columnData;
      for (let r = Math.max(chunk.rowStart, rowStart); r < Math.min(chunk.rowEnd, rowEnd); r++) {
        target[r - rowStart] = toCell(data[r - chunk.rowStart]);
      }
    },
  });
  return out;
}

/** A whole (small) table as {column: values}: steps and cycles summaries. */
export async function readTable(storage: ObjectStorage, key: string): Promise<Record<string, Cell[]>> {
  const p = await openParquet(storage, key);
  const cols = await readRange(p, p.columns, 0, p.rowCount);
  return Object.fromEntries(p.columns.map((c, i) => [c, cols[i]!]));
}

/** A candidate row: its axes, and where its values are (its row group's decoded columns). */
interface Point {
  x: number;
  y: number;
  cols: Cell[][];
  r: number;
}

/**
 * LTTB over (x, y), streaming: a bucket's point is chosen once the next bucket's average is
 * known, so only two buckets of rows are held. The first and last rows are always kept.
 */
class Lttb {
  readonly #n: number;
  readonly #every: number;
  readonly #buckets: number;
  readonly #emit: (cols: Cell[][], r: number) => void;
  #a = { x: 0, y: 0 };
  #current: Point[] = [];
  #next: Point[] = [];
  #nextSum = { x: 0, y: 0, n: 0 };
  #bucket = 0; // the bucket #current holds
  #lastX = 0;

  constructor(n: number, maxPoints: number, emit: (cols: Cell[][], r: number) => void) {
    this.#n = n;
    this.#buckets = maxPoints - 2;
    this.#every = (n - 2) / this.#buckets;
    this.#emit = emit;
  }

  #start(b: number): number {
    return b >= this.#buckets ? this.#n - 1 : Math.floor(b * this.#every) + 1;
  }

  #choose(avg: { x: number; y: number }) {
    let best = this.#current[0]!;
    let bestArea = -1;
    for (const p of this.#current) {
      const area = Number.isNaN(p.y) ? -1 : Math.abs((this.#a.x - avg.x) * (p.y - this.#a.y) - (this.#a.x - p.x) * (avg.y - this.#a.y));
      if (area > bestArea) {
        bestArea = area;
        best = p;
      }
    }
    this.#emit(best.cols, best.r);
    if (!Number.isNaN(best.y)) this.#a = { x: best.x, y: best.y };
  }

  push(i: number, xRaw: Cell, yRaw: Cell, cols: Cell[][], r: number) {
    const x = typeof xRaw === 'number' ? xRaw : this.#lastX;
    this.#lastX = x;
    const y = typeof yRaw === 'number' ? yRaw : Number.NaN;
    if (i === 0) {
      this.#emit(cols, r);
      this.#a = { x, y: Number.isNaN(y) ? 0 : y };
      return;
    }
    if (i === this.#n - 1) {
      // The last row is the "next bucket" of the last real bucket.
      if (this.#next.length) this.#advance();
      if (this.#current.length) this.#choose({ x, y: Number.isNaN(y) ? this.#a.y : y });
      this.#emit(cols, r);
      return;
    }
    while (i >= this.#start(this.#bucket + 2)) this.#advance();
    const p = { x, y, cols, r };
    if (i < this.#start(this.#bucket + 1)) {
      this.#current.push(p);
    } else {
      this.#next.push(p);
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
    if (this.#current.length) this.#choose(s.n ? { x: s.x / s.n, y: s.y / s.n } : this.#a);
    this.#current = this.#next;
    this.#next = [];
    this.#nextSum = { x: 0, y: 0, n: 0 };
    this.#bucket += 1;
  }
}

/**
 * The requested columns, all rows when there are at most `maxPoints`, else LTTB-selected rows
 * (x = time, y = voltage), read one row group at a time.
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
  const emit = (cols: Cell[][], r: number) => pick.forEach((w, k) => out[k]!.push(cols[w]![r]!));
  const n = p.rowCount;
  const sampler = n > maxPoints ? new Lttb(n, maxPoints, emit) : null;
  let rowStart = 0;
  for (const group of p.metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    const cols = await readRange(p, wanted, rowStart, rowEnd);
    const xs = xi >= 0 ? cols[xi]! : null;
    const ys = yi >= 0 ? cols[yi]! : null;
    for (let r = 0; r < rowEnd - rowStart; r++) {
      if (sampler) sampler.push(rowStart + r, xs ? xs[r]! : rowStart + r, ys ? ys[r]! : null, cols, r);
      else emit(cols, r);
    }
    rowStart = rowEnd;
  }
  return { columns: Object.fromEntries(columns.map((c, k) => [c, out[k]!])), downsampled: sampler !== null };
}
