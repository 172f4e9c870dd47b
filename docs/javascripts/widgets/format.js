// How a number looks on a page, as mlp_ref.course.tables writes it: fixed decimals rounded as
// Python's format() rounds (to nearest, ties to even, on the exact binary value), no "-0.00";
// counts with the page's thousands separator (a comma in English, a narrow no-break space in Russian).

// toFixed rounds ties up; a tie is only possible when x has at most p + 1 binary fraction digits
// (then its decimal expansion ends at digit p + 1 and toFixed(p + 1) is exact).
function fixed(a, p) {
  if (!Number.isInteger(a * 2 ** (p + 1))) return a.toFixed(p);
  const exact = a.toFixed(p + 1);
  if (!exact.endsWith('5')) return a.toFixed(p);
  const kept = exact.slice(0, -1);
  const last = kept.replace('.', '').slice(-1);
  if (Number(last) % 2 === 1) return a.toFixed(p); // odd: rounds up to even, as toFixed does
  return p === 0 ? kept.replace('.', '') : kept;
}

export function formatNumber(x, precision = 4) {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const text = fixed(Math.abs(x), precision);
  const negative = x < 0 || Object.is(x, -0);
  return negative && Number(text) !== 0 ? `-${text}` : text;
}

export function formatCount(n, separator = ',') {
  const digits = BigInt(n).toString();
  const sign = digits.startsWith('-') ? '-' : '';
  const body = sign ? digits.slice(1) : digits;
  return sign + body.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

// A double written so that Number(text) gives back exactly the same double.
export const exact = (x) => String(x);
