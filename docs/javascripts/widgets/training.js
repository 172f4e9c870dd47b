// One training step of an MLP with a sigmoid output, as mlp_ref's readable fit writes it
// (mlp_ref/training.py): forward, loss_and_delta, backward, sgd_step; and the playground's
// initial weights (mlp_ref/course/playground.py). Arrays are plain nested arrays of doubles in
// the row-batch layout: X (B, d_0), W_l (d_{l-1}, d_l), b_l (d_l,). tests/test_widgets.py
// holds the weights and the loss after many steps to mlp_ref's.
import { activation, sigmoid } from './activations.js';

// --- mlp_ref.course.playground.mulberry32: 32-bit integers, the same bits as Python's
export function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6D2B79F5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

// --- playground.uniform: a 53-bit integer over 2**53, exact
export function uniform(bits) {
  const a = bits() >>> 5;
  const b = bits() >>> 6;
  return (a * 67108864 + b) / 9007199254740992;
}

// --- playground.init_limit: He uniform for relu, Glorot uniform for tanh and sigmoid
export const initLimit = (dIn, dOut, name) => (name === 'relu' ? Math.sqrt(6 / dIn) : Math.sqrt(6 / (dIn + dOut)));

// --- playground.initial_weights: [2, ...widths, 1], row-major draws, zero biases
export function initialWeights(widths, name, seed) {
  const sizes = [2, ...widths, 1];
  const bits = mulberry32(seed);
  const W = [];
  const b = [];
  for (let l = 1; l < sizes.length; l += 1) {
    const limit = initLimit(sizes[l - 1], sizes[l], name);
    W.push(Array.from({ length: sizes[l - 1] }, () => Array.from({ length: sizes[l] }, () => (2 * uniform(bits) - 1) * limit)));
    b.push(new Array(sizes[l]).fill(0));
  }
  return { W, b };
}

// --- MLP._forward: z_l = a_{l-1} @ W_l + b_l, a_l = f(z_l); the last layer's head is the sigmoid.
// Returns the cache (ForwardCache): zs = [z_1..z_L], as = [a_0 = X, a_1..a_L].
export function forward(net, X) {
  const [f] = activation(net.activation);
  const zs = [];
  const as = [X];
  let a = X;
  const last = net.W.length - 1;
  net.W.forEach((W, l) => {
    const b = net.b[l];
    const z = a.map((row) => b.map((bias, j) => {
      let s = 0; // a @ W: the sum over the input units, in their order
      for (let i = 0; i < row.length; i += 1) s += row[i] * W[i][j];
      return s + bias;
    }));
    a = z.map((row) => row.map(l === last ? sigmoid : f));
    zs.push(z);
    as.push(a);
  });
  return { zs, as };
}

// forward for one point (x1, x2) with no cache: the output ŷ alone, for the heat map's many cells
// (the same sums in the same order as forward, in two scratch rows instead of new arrays)
const scratch = [new Float64Array(8), new Float64Array(8)];
export function outputAt(net, x1, x2) {
  const [f] = activation(net.activation);
  const last = net.W.length - 1;
  let a = scratch[0];
  a[0] = x1;
  a[1] = x2;
  let width = 2;
  for (let l = 0; l <= last; l += 1) {
    const W = net.W[l];
    const b = net.b[l];
    const next = scratch[(l + 1) % 2];
    for (let j = 0; j < b.length; j += 1) {
      let s = 0;
      for (let i = 0; i < width; i += 1) s += a[i] * W[i][j];
      next[j] = l === last ? sigmoid(s + b[j]) : f(s + b[j]);
    }
    a = next;
    width = b.length;
  }
  return a[0];
}

// --- losses.binary_cross_entropy_and_grad, through MLP.loss_and_delta: the mean over the B rows of
// max(z, 0) - z y + log1p(exp(-|z|)) (no overflow for any finite z), and dLoss/dz = (sigmoid(z) - y) / B
export function lossAndDelta(logits, y) {
  const n = logits.length;
  let sum = 0;
  logits.forEach(([z], r) => { sum += Math.max(z, 0) - z * y[r] + Math.log1p(Math.exp(-Math.abs(z))); });
  const scale = 1 / n;
  return { loss: sum / n, delta: logits.map(([z], r) => [(sigmoid(z) - y[r]) * scale]) };
}

// --- MLP.backward: dW_l = a_{l-1}^T @ delta_l, db_l = delta_l summed over rows,
// delta_{l-1} = (delta_l @ W_l^T) * f'(z_{l-1})
export function backward(net, cache, deltaL) {
  const fprime = activation(net.activation)[1];
  const dW = [];
  const db = [];
  let delta = deltaL;
  for (let l = net.W.length - 1; l >= 0; l -= 1) {
    const a = cache.as[l];
    const W = net.W[l];
    dW[l] = W.map((_, i) => W[i].map((__, j) => {
      let s = 0;
      for (let r = 0; r < a.length; r += 1) s += a[r][i] * delta[r][j];
      return s;
    }));
    db[l] = net.b[l].map((_, j) => {
      let s = 0;
      for (let r = 0; r < delta.length; r += 1) s += delta[r][j];
      return s;
    });
    if (l > 0) {
      const z = cache.zs[l - 1];
      delta = delta.map((row, r) => W.map((Wi, i) => {
        let s = 0;
        for (let j = 0; j < row.length; j += 1) s += row[j] * Wi[j];
        return s * fprime(z[r][i]);
      }));
    }
  }
  return { dW, db };
}

const finite = (arrays) => arrays.every((m) => m.flat().every(Number.isFinite));

// --- training.sgd_step: W_l -= lr dW_l, b_l -= lr db_l; like mlp_ref it refuses a gradient that is
// not finite (returns false and changes nothing)
export function sgdStep(net, grads, lr) {
  if (!finite(grads.dW) || !finite(grads.db)) return false;
  net.W.forEach((W, l) => W.forEach((row, i) => row.forEach((w, j) => { row[j] = w - lr * grads.dW[l][i][j]; })));
  net.b.forEach((b, l) => b.forEach((v, j) => { b[j] = v - lr * grads.db[l][j]; }));
  return true;
}

export const copyNet = (net) => ({ ...net, W: structuredClone(net.W), b: structuredClone(net.b) });

// One step of full-batch gradient descent, as the body of fit's loop. state: {net, cache, loss,
// delta} for the current weights. Returns the next state, or null when the step diverges: the
// gradient or the next loss is not a finite number (fit raises FloatingPointError there).
export function trainStep(state, X, y, lr) {
  const grads = backward(state.net, state.cache, state.delta);
  const net = copyNet(state.net);
  if (!sgdStep(net, grads, lr)) return null;
  return evaluate(net, X, y);
}

// The cache, loss and delta of net on (X, y); null if the loss is not finite.
export function evaluate(net, X, y) {
  const cache = forward(net, X);
  const { loss, delta } = lossAndDelta(cache.zs[cache.zs.length - 1], y);
  return Number.isFinite(loss) && finite(net.W) && finite(net.b) ? { net, cache, loss, delta } : null;
}

// MLP.predict_from_output for a sigmoid head: class 1 where the output is above 0.5
export const correctCount = (state, y) => state.cache.as[state.cache.as.length - 1]
  .reduce((n, [p], r) => n + ((p > 0.5 ? 1 : 0) === (y[r] > 0.5 ? 1 : 0) ? 1 : 0), 0);
