// Decompressors hyparquet lacks built in (it reads Snappy and uncompressed pages), from Node's
// zlib: Parquet written by polars (the client's default) is ZSTD-compressed. A page inflates to
// no more than its header declares, and never past MAX_PAGE_BYTES: a compression bomb fails.
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import type { Compressors } from 'hyparquet';

const MAX_PAGE_BYTES = 256 * 1024 * 1024;
const limit = (outputLength: number) => ({ maxOutputLength: Math.max(1, Math.min(outputLength, MAX_PAGE_BYTES)) });

export const compressors: Compressors = {
  ZSTD: (input, outputLength) => new Uint8Array(zstdDecompressSync(input, limit(outputLength))),
  GZIP: (input, outputLength) => new Uint8Array(gunzipSync(input, limit(outputLength))),
  BROTLI: (input, outputLength) => new Uint8Array(brotliDecompressSync(input, limit(outputLength))),
};
