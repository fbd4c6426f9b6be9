/**
 * Python's `repr(float)`: the shortest digits that round-trip (JavaScript finds the same digits),
 * written in fixed notation when the decimal exponent is in -4..15 and in scientific notation with
 * a signed, at least two-digit exponent otherwise. Non-finite values are spelt as `json.dumps`
 * spells them unless `python` style is asked for (`inf`, `nan`).
 */
export function pyFloatRepr(value: number, style: 'json' | 'python' = 'json'): string {
  if (Number.isNaN(value)) return style === 'json' ? 'NaN' : 'nan';
  if (value === Number.POSITIVE_INFINITY) return style === 'json' ? 'Infinity' : 'inf';
  if (value === Number.NEGATIVE_INFINITY) return style === 'json' ? '-Infinity' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const [mantissa = '', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const head = digits.slice(0, 1);
    const tail = digits.slice(1);
    const expSign = exponent < 0 ? '-' : '+';
    const expDigits = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${head}${tail ? `.${tail}` : ''}e${expSign}${expDigits}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction || '0'}`;
}

/**
 * A JavaScript number as Python would print the value it most likely came from: integral values
 * as `int` (JSON cannot tell `1` from `1.0` once parsed), everything else as `float`.
 */
export function pyNumberRepr(value: number, style: 'json' | 'python' = 'json'): string {
  if (Number.isInteger(value)) {
    if (Object.is(value, -0)) return '0';
    return Math.abs(value) < 1e21 ? value.toFixed(0) : BigInt(value).toString();
  }
  return pyFloatRepr(value, style);
}
