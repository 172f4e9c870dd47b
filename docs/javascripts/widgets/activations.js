// The activations of mlp_ref/activations.py, in JavaScript doubles, with the same formulas:
// tests/test_widgets.py holds every value a widget shows to mlp_ref's.

const INV_SQRT_2 = 1 / Math.sqrt(2);
const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);
const SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);
const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);
const GELU_TANH_CUBIC = 0.044715; // Hendrycks & Gimpel's constant, as in mlp_ref.activations

// erf for |x| <= 2: e^(-x^2) * sum 2^n x^(2n+1) / (1*3*...*(2n+1)), every term positive, so
// no cancellation; the relative error stays within a few ulps.
function erfSeries(x) {
  let term = x;
  let sum = x;
  const x2 = x * x;
  for (let n = 1; n < 200 && Math.abs(term) > 1e-17 * Math.abs(sum); n += 1) {
    term *= (2 * x2) / (2 * n + 1);
    sum += term;
  }
  return TWO_OVER_SQRT_PI * Math.exp(-x2) * sum;
}

// erfc for x > 2 by its continued fraction (modified Lentz):
// erfc(x) = e^(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...))))).
function erfcFraction(x) {
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 500; n += 1) {
    const a = n / 2;
    d = x + a * d;
    d = d === 0 ? tiny : 1 / d;
    c = x + a / c;
    if (c === 0) c = tiny;
    const step = c * d;
    f *= step;
    if (Math.abs(step - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / (f * Math.sqrt(Math.PI));
}

export function erf(x) {
  if (Number.isNaN(x)) return NaN;
  const a = Math.abs(x);
  if (a <= 2) return erfSeries(x);
  const value = 1 - erfcFraction(a); // erfc(2) ~ 4.7e-3: the subtraction loses nothing
  return x < 0 ? -value : value;
}

export function sigmoid(z) {
  // e = exp(-|z|) lies in (0, 1]: no overflow for any finite z (mlp_ref.activations.sigmoid)
  const e = Math.exp(-Math.abs(z));
  return z >= 0 ? 1 / (1 + e) : e / (1 + e);
}

const gelu = (z) => 0.5 * z * (1 + erf(z * INV_SQRT_2));
const geluTanhU = (z) => SQRT_2_OVER_PI * (z + GELU_TANH_CUBIC * z ** 3);

// name -> [f, f'], the pairs of mlp_ref.activations.ACTIVATION_KERNELS (and PReLU with its slope a)
export const ACTIVATIONS = {
  identity: [(z) => z, () => 1],
  relu: [(z) => Math.max(z, 0), (z) => (z > 0 ? 1 : 0)], // 0 at the kink, as mlp_ref
  sigmoid: [sigmoid, (z) => { const s = sigmoid(z); return s * (1 - s); }],
  tanh: [Math.tanh, (z) => { const t = Math.tanh(z); return 1 - t * t; }],
  gelu: [gelu, (z) => 0.5 * (1 + erf(z * INV_SQRT_2)) + z * INV_SQRT_2PI * Math.exp(-0.5 * z * z)],
  gelu_tanh: [
    (z) => 0.5 * z * (1 + Math.tanh(geluTanhU(z))),
    (z) => {
      const t = Math.tanh(geluTanhU(z));
      const du = SQRT_2_OVER_PI * (1 + 3 * GELU_TANH_CUBIC * z * z);
      return 0.5 * (1 + t) + 0.5 * z * (1 - t * t) * du;
    },
  ],
  silu: [(z) => z * sigmoid(z), (z) => { const s = sigmoid(z); return s * (1 + z * (1 - s)); }],
  softplus: [(z) => Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z))), sigmoid],
};

export function prelu(a) {
  return [(z) => (z > 0 ? z : a * z) + 0, (z) => (z > 0 ? 1 : a)];
}

export function activation(name, slope) {
  if (name === 'prelu') return prelu(slope);
  const pair = ACTIVATIONS[name];
  if (!pair) throw new Error(`activation: expected one of ${Object.keys(ACTIVATIONS).join(', ')}, received ${name}`);
  return pair;
}
