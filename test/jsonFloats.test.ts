// Float columns are written as Python's JSON writes floats, so the Python client's DataFrames
// keep them float.
import { describe, expect, it } from 'vitest';
import { FloatColumn, stringifyJson } from '../api/jsonFloats.ts';

describe('stringifyJson', () => {
  it('writes whole values of a float column with a decimal point, and nothing else changes', () => {
    const body = {
      steps: { v: FloatColumn.from([0, 1.5, null, -3, 1e22]), n: [0, 1] },
      name: 'a "quoted" \u0000float- name',
    };
    const text = stringifyJson(body);
    expect(text).toBe('{"steps":{"v":[0.0,1.5,null,-3.0,1e+22],"n":[0,1]},"name":"a \\"quoted\\" \\u0000float- name"}');
    expect(JSON.parse(text)).toEqual({ ...body, steps: { ...body.steps, v: [0, 1.5, null, -3, 1e22] } });
  });
});
