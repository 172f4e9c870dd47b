// The parameter counter (lesson 6): the per-layer table of an MLP from typed widths, and the
// breakdown of a published transformer with changed sizes. The same formulas as
// mlp_ref.counting and mlp_ref.transformer_counts, in exact integers (BigInt).
import { formatCount, formatNumber } from './format.js';
import { el, placeholders, scrollBox, uid } from './ui.js';

const B = BigInt;

// --- parsing: whole positive numbers, one per comma -----------------------------------------

function parseWidths(text) {
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length === 1 && parts[0] === '') return { error: 'expected layer widths separated by commas, such as 784, 128, 10; received nothing' };
  for (const [k, part] of parts.entries()) {
    if (part === '') return { error: `width ${k + 1}: expected a positive whole number, received nothing (two commas in a row, or one at the end?)` };
    if (/^\d+\s+\d+$/.test(part)) return { error: `width ${k + 1}: expected one number between commas, received "${part}" (a missing comma?)` };
    if (!/^[+-]?\d+$/.test(part)) return { error: `width ${k + 1}: expected a positive whole number, received "${part}"` };
    if (B(part) <= 0n) return { error: `width ${k + 1}: expected a positive whole number, received ${part}` };
  }
  if (parts.length < 2) return { error: `expected at least 2 widths (input and output), received ${parts.length}` };
  return { sizes: parts.map((s) => B(s)) };
}

// --- MLP: mlp_ref.counting.layer_table ------------------------------------------------------

function layerTable(sizes) {
  const rows = [];
  for (let l = 1; l < sizes.length; l += 1) {
    const [dIn, dOut] = [sizes[l - 1], sizes[l]];
    rows.push([String(l), `(${dIn}, ${dOut})`, dIn * dOut, dOut, dIn * dOut + dOut]);
  }
  const sum = (k) => rows.reduce((s, r) => s + r[k], 0n);
  return { rows, total: ['total', '', sum(2), sum(3), sum(4)] };
}

// --- transformers: mlp_ref.transformer_counts -----------------------------------------------

function ffn(d, dFF, bias) { return 2n * d * dFF + (bias ? dFF + d : 0n); }
function gated(d, h) { return 3n * d * h; }
// A bad size throws this, naming the field the reader should change.
function fault(field, message) { return Object.assign(new Error(message), { field }); }

function attention(d, nQ, nKV, hd, bias) {
  if (nQ % nKV !== 0n) throw fault('n_kv_heads', `expected a divisor of the ${nQ} heads, received ${nKV}`);
  return 2n * d * nQ * hd + 2n * d * nKV * hd + (bias ? nQ * hd + 2n * nKV * hd + d : 0n);
}
// DeepSeek-V3's multi-head latent attention with its published ranks and head sizes
function mla(d, heads) {
  const [qRank, kvRank, nope, rope, v] = [1536n, 512n, 128n, 64n, 128n];
  return d * qRank + qRank + qRank * heads * (nope + rope) + d * (kvRank + rope) + kvRank
    + kvRank * heads * (nope + v) + heads * v * d;
}

function headDim(c) {
  if (c.head_dim !== null) return B(c.head_dim);
  if (c.d_model % c.n_heads !== 0n) throw fault('n_heads', `expected a divisor of d_model = ${c.d_model}, received ${c.n_heads}`);
  return c.d_model / c.n_heads;
}

const FAMILIES = {
  'encoder-decoder': (c) => {
    const [d, L] = [c.d_model, c.layers];
    const attn = attention(d, c.n_heads, c.n_kv_heads, headDim(c), true);
    const f = ffn(d, c.d_ff, true);
    const norm = 2n * d;
    return [[c.vocab * d, L * attn, L * f, L * attn, L * attn, L * f, L * 2n * norm + L * 3n * norm], null];
  },
  gpt2: (c) => {
    const [d, L] = [c.d_model, c.layers];
    return [[c.vocab * d, B(c.context) * d, L * attention(d, c.n_heads, c.n_kv_heads, headDim(c), true),
      L * ffn(d, c.d_ff, true), (2n * L + 1n) * 2n * d], null];
  },
  qwen3: (c) => {
    const [d, L, hd] = [c.d_model, c.layers, headDim(c)];
    return [[c.vocab * d, L * attention(d, c.n_heads, c.n_kv_heads, hd, false), L * 2n * hd,
      L * gated(d, c.d_ff), (2n * L + 1n) * d], null];
  },
  'deepseek-v3': (c) => {
    const [d, L, dense] = [c.d_model, c.layers, B(c.dense_layers)];
    const moeLayers = L - dense;
    if (moeLayers < 0n) throw fault('layers', `expected at least the ${dense} dense layers, received ${L}`);
    if (c.top_k > c.n_experts) throw fault('top_k', `expected at most the ${c.n_experts} routed experts, received ${c.top_k}`);
    const attn = mla(d, c.n_heads);
    const denseFFN = gated(d, c.d_ff);
    const expert = gated(d, B(c.d_expert));
    const router = d * c.n_experts + c.n_experts;
    const shared = B(c.n_shared);
    const embedding = c.vocab * d;
    const norms = (2n * L + 1n) * d;
    const active = embedding + embedding + L * attn + dense * denseFFN
      + moeLayers * ((c.top_k + shared) * expert + router) + norms;
    return [[embedding, embedding, L * attn, dense * denseFFN, moeLayers * c.n_experts * expert,
      moeLayers * shared * expert, moeLayers * router, norms], active];
  },
};

function breakdown(c, rowLabels) {
  const [counts, active] = FAMILIES[c.family](c);
  const fields = { ...c, head_dim: headDim(c), moe_layers: c.layers - B(c.dense_layers) };
  const labels = rowLabels[c.family].map((t) => t.replace(/\{(\w+)\}/g, (_, name) => String(fields[name])));
  const total = counts.reduce((s, n) => s + n, 0n);
  return { rows: labels.map((label, k) => [label, counts[k]]), total, active };
}

// --- the widget ------------------------------------------------------------------------------

function tableOf(headers, rows, align) {
  return el('table', {},
    el('thead', {}, el('tr', {}, ...headers.map((h, k) => el('th', { text: h, style: `text-align:${align[k]}` })))),
    el('tbody', {}, ...rows.map((row) => el('tr', {}, ...row.map((cell, k) => el('td', { text: cell, style: `text-align:${align[k]}` }))))));
}

function build(root, config) {
  // --- an MLP from its widths
  const widthsId = uid('widths');
  const widths = el('input', { type: 'text', id: widthsId, value: config.sizes.join(', '), spellcheck: 'false',
    autocomplete: 'off', 'aria-describedby': `${widthsId}-error` });
  const mlpError = el('p', { id: `${widthsId}-error`, class: 'mlp-widget__error', role: 'alert' });
  const mlpTable = el('div', { class: 'mlp-widget__result' });
  const mlpSummary = el('output', { class: 'mlp-widget__readout', 'aria-live': 'polite' });
  function updateMLP() {
    const parsed = parseWidths(widths.value);
    if (parsed.error) {
      widths.setAttribute('aria-invalid', 'true');
      mlpError.textContent = parsed.error;
      mlpTable.replaceChildren();
      mlpSummary.textContent = '';
      return;
    }
    widths.removeAttribute('aria-invalid');
    mlpError.textContent = '';
    const { rows, total } = layerTable(parsed.sizes);
    const show = (r) => r.map((cell) => (typeof cell === 'bigint' ? formatCount(cell) : cell));
    mlpTable.replaceChildren(
      scrollBox(tableOf(['layer', 'W shape (d_in, d_out)', 'weights', 'biases', 'total'], [...rows, total].map(show),
        ['left', 'right', 'right', 'right', 'right']), 'parameters per layer'));
    mlpSummary.textContent = `${formatCount(total[4])} parameters in ${rows.length} layers`;
  }
  widths.addEventListener('input', updateMLP);

  // --- a published transformer with changed sizes
  const configs = config.configs;
  const modelId = uid('model');
  const model = el('select', { id: modelId });
  configs.forEach((c, k) => model.append(el('option', { value: String(k), text: c.model })));
  const fieldBox = el('div', { class: 'mlp-widget__grid' });
  const tfError = el('p', { class: 'mlp-widget__error', role: 'alert', id: uid('tf-error') });
  const tfTable = el('div', { class: 'mlp-widget__result' });
  const tfSummary = el('output', { class: 'mlp-widget__readout', 'aria-live': 'polite' });
  let fields = {};

  function showFields() {
    const c = configs[Number(model.value)];
    fieldBox.replaceChildren();
    fields = {};
    for (const name of c.editable) {
      const id = uid(name);
      const input = el('input', { type: 'number', id, min: 1, step: 1, value: String(c[name]), 'data-field': name,
        'aria-describedby': tfError.id });
      input.addEventListener('input', updateTransformer);
      fields[name] = input;
      fieldBox.append(el('div', { class: 'mlp-widget__control mlp-widget__control--wide' },
        el('label', { for: id, text: config.fieldLabels[name] }), input));
    }
    updateTransformer();
  }

  function updateTransformer() {
    const c = { ...configs[Number(model.value)] };
    for (const key of ['d_model', 'd_ff', 'n_heads', 'n_kv_heads', 'layers', 'vocab', 'n_experts', 'top_k']) c[key] = B(c[key]);
    try {
      for (const [name, input] of Object.entries(fields)) {
        const text = input.value.trim();
        if (!/^\d+$/.test(text) || B(text) < 1n) throw fault(name, `expected a positive whole number, received "${input.value}"`);
        c[name] = B(text);
      }
      const result = breakdown(c, config.rowLabels);
      const p = config.sharePrecision;
      const share = (n) => formatNumber((100 * Number(n)) / Number(result.total), p);
      const rows = result.rows.map(([label, n]) => [label, formatCount(n), formatNumber(100 * (Number(n) / Number(result.total)), p)]);
      rows.push(['total', formatCount(result.total), formatNumber(100, p)]);
      if (result.active !== null) rows.push(['active per token', formatCount(result.active), share(result.active)]);
      tfError.textContent = '';
      Object.values(fields).forEach((input) => input.removeAttribute('aria-invalid'));
      tfTable.replaceChildren(scrollBox(tableOf(['component', 'parameters', 'share (%)'], rows, ['left', 'right', 'right']),
        'where the parameters live'));
      tfSummary.textContent = `${c.model} with these sizes: ${formatCount(result.total)} parameters`
        + (result.active !== null ? `, ${formatCount(result.active)} active per token` : '');
    } catch (error) {
      if (!error.field) throw error;
      tfError.textContent = `${config.fieldLabels[error.field]}: ${error.message}`;
      Object.values(fields).forEach((input) => input.removeAttribute('aria-invalid'));
      fields[error.field]?.setAttribute('aria-invalid', 'true');
      tfTable.replaceChildren();
      tfSummary.textContent = '';
    }
  }
  model.addEventListener('change', showFields);

  root.append(el('p', { class: 'mlp-widget__title', text: 'The parameter counter' }),
    el('fieldset', {}, el('legend', { text: 'An MLP' }),
      el('div', { class: 'mlp-widget__control' }, el('label', { for: widthsId, text: 'layer widths' }), widths),
      mlpError, mlpTable, mlpSummary),
    el('fieldset', {}, el('legend', { text: 'A published transformer, resized' }),
      el('div', { class: 'mlp-widget__control' }, el('label', { for: modelId, text: 'model' }), model),
      fieldBox, tfError, tfTable, tfSummary));
  updateMLP();
  showFields();
}

for (const [root, config] of placeholders('parameter-counter')) build(root, config);
