// Numbers written as text, read by a hand scanner: the regular expression it replaces
// (`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`) backtracks quadratically on a long run of digits
// that ends badly, and these strings come from requests (CSV cells, protocol thresholds).

const isDigit = (c: number) => c >= 48 && c <= 57;

/** The index after a run of digits starting at `i`. */
function digitsFrom(s: string, i: number): number {
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  return i;
}

/**
 * True when `s` is exactly a decimal: optional sign, digits with an optional point (at least one digit), optional
 * exponent.
 */
export function isDecimal(s: string): boolean {
  let i = 0;
  if (s[i] === '+' || s[i] === '-') i++;
  const intEnd = digitsFrom(s, i);
  let seen = intEnd > i;
  i = intEnd;
  if (s[i] === '.') {
    const fracEnd = digitsFrom(s, i + 1);
    seen ||= fracEnd > i + 1;
    i = fracEnd;
  }
  if (!seen) return false;
  if (s[i] === 'e' || s[i] === 'E') {
    i++;
    if (s[i] === '+' || s[i] === '-') i++;
    const expEnd = digitsFrom(s, i);
    if (expEnd === i) return false;
    i = expEnd;
  }
  return i === s.length;
}
