// JSON has one number type. The Python client builds DataFrames from JSON column lists and
// infers an integer column from whole numbers, then fails on a later fraction; Python's own
// JSON writes a float as 3.0. A FloatColumn is written the same way: its whole values with ".0".
import { randomUUID } from 'node:crypto';

/** A column of floating-point values (or nulls), written with a decimal point. */
export class FloatColumn extends Array<number | null> {}

// A marker no real string holds (it carries a per-process random id), replaced after stringify.
const ID = randomUUID();
const MARK = `\u0000float-${ID}:`;
const MARKED = new RegExp(`"\\\\u0000float-${ID}:([^"]*)"`, 'g');

function floatText(x: number): string {
  return Math.abs(x) < 1e21 ? x.toFixed(1) : String(x); // 1e21 and beyond already print with an exponent
}

export function stringifyJson(body: unknown): string {
  let marked = false;
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (!(value instanceof FloatColumn)) return value;
    marked = true;
    return Array.from(value, (x) => (typeof x === 'number' && Number.isInteger(x) ? MARK + floatText(x) : x));
  });
  return marked ? text.replace(MARKED, '$1') : text;
}
