// The parameter counter (lesson 6): the per-layer table of an MLP from typed widths, and the
// breakdown of a published transformer with changed sizes. The same formulas as
// mlp_ref.counting and mlp_ref.transformer_counts, in exact integers (BigInt).
import { formatCount, formatNumber } from './format.js';
import { el, fill, placeholders, scrollBox, uid } from './ui.js';

const B = BigInt;

// --- parsing: whole positive numbers, one per comma -----------------------------------------
// words: the page's words (mlp_ref.course.widgets); an error is one of its templates, filled.

function parseWidths(text, words) {
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length === 1 && parts[0] === '') return { error: words.noWidths };
  for (const [k, part] of parts.entries()) {
    const error = (key) => ({ error: fill(words[key], { k: k + 1, part }) });
    if (part === '') return error('emptyWidth');
    if (/^\d+\s+\d+$/.test(part)) return error('oneNumber');
    if (!/^[+-]?\d+$/.test(part)) return error('notWhole');
    if (B(part) <= 0n) return error('notPositive');
  }
  if (parts.length < 2) return { error: fill(words.tooFew, { n: parts.length }) };
  return { sizes: parts.map((s) => B(s)) };
}

// --- MLP: mlp_ref.counting.layer_table ------------------------------------------------------

function layerTable(sizes, totalLabel) {
  const rows = [];
  for (let l = 1; l < sizes.length; l += 1) {
    const [dIn, dOut] = [sizes[l - 1], sizes[l]];
    rows.push([String(l), `(${dIn}, ${dOut})`, dIn * dOut, dOut, dIn * dOut + dOut]);
  }
  const sum = (k) => rows.reduce((s, r) => s + r[k], 0n);
  return { rows, total: [totalLabel, '', sum(2), sum(3), sum(4)] };
}

// --- transformers: mlp_ref.transformer_counts -----------------------------------------------

function ffn(d, dFF, bias) { return 2n * d * dFF + (bias ? dFF + d : 0n); }
function gated(d, h) { return 3n * d * h; }
// A bad size throws this, naming the field the reader should change and the template of the
// page's words (with its values) that says why.
function fault(field, key, values) { return Object.assign(new Error(key), { field, key, values }); }

function attention(d, nQ, nKV, hd, bias) {
  if (nQ % nKV !== 0n) throw fault('n_kv_heads', 'kvHeads', { heads: nQ, kv: nKV });
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
  if (c.d_model % c.n_heads !== 0n) throw fault('n_heads', 'headsDivide', { d: c.d_model, heads: c.n_heads });
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
    if (moeLayers < 0n) throw fault('layers', 'denseLayers', { dense, layers: L });
    if (c.top_k > c.n_experts) throw fault('top_k', 'topK', { experts: c.n_experts, k: c.top_k });
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
  const labels = rowLabels[c.family].map((t) => fill(t, fields));
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
  const words = config.text; // the page's words, in its language (mlp_ref.course.widgets)
  const count = (n) => formatCount(n, config.thousands);
  // --- an MLP from its widths
  const widthsId = uid('widths');
  const widths = el('input', { type: 'text', id: widthsId, value: config.sizes.join(', '), spellcheck: 'false',
    autocomplete: 'off', 'aria-describedby': `${widthsId}-error` });
  const mlpError = el('p', { id: `${widthsId}-error`, class: 'mlp-widget__error', role: 'alert' });
  const mlpTable = el('div', { class: 'mlp-widget__result' });
  const mlpSummary = el('output', { class: 'mlp-widget__readout', 'aria-live': 'polite' });
  function updateMLP() {
    const parsed = parseWidths(widths.value, words);
    if (parsed.error) {
      widths.setAttribute('aria-invalid', 'true');
      mlpError.textContent = parsed.error;
      mlpTable.replaceChildren();
      mlpSummary.textContent = '';
      return;
    }
    widths.removeAttribute('aria-invalid');
    mlpError.textContent = '';
    const { rows, total } = layerTable(parsed.sizes, words.layerTable.total);
    const show = (r) => r.map((cell) => (typeof cell === 'bigint' ? count(cell) : cell));
    mlpTable.replaceChildren(
      scrollBox(tableOf(words.layerTable.headers, [...rows, total].map(show),
        ['left', 'right', 'right', 'right', 'right']), words.layerBox));
    mlpSummary.textContent = fill(words.mlpSummary, { total: count(total[4]), layers: rows.length });
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
        if (!/^\d+$/.test(text) || B(text) < 1n) throw fault(name, 'fieldNotWhole', { text: input.value });
        c[name] = B(text);
      }
      const result = breakdown(c, config.rowLabels);
      const p = config.sharePrecision;
      const share = (n) => formatNumber((100 * Number(n)) / Number(result.total), p);
      const rows = result.rows.map(([label, n]) => [label, count(n), formatNumber(100 * (Number(n) / Number(result.total)), p)]);
      rows.push([words.breakdown.total, count(result.total), formatNumber(100, p)]);
      if (result.active !== null) rows.push([words.breakdown.active, count(result.active), share(result.active)]);
      tfError.textContent = '';
      Object.values(fields).forEach((input) => input.removeAttribute('aria-invalid'));
      tfTable.replaceChildren(scrollBox(tableOf(words.breakdown.headers, rows, ['left', 'right', 'right']),
        words.breakdownBox));
      tfSummary.textContent = fill(words.tfSummary, { model: c.model, total: count(result.total) })
        + (result.active !== null ? fill(words.tfActive, { active: count(result.active) }) : '');
    } catch (error) {
      if (!error.field) throw error;
      tfError.textContent = `${config.fieldLabels[error.field]}: ${fill(words[error.key], error.values)}`;
      Object.values(fields).forEach((input) => input.removeAttribute('aria-invalid'));
      fields[error.field]?.setAttribute('aria-invalid', 'true');
      tfTable.replaceChildren();
      tfSummary.textContent = '';
    }
  }
  model.addEventListener('change', showFields);

  root.append(el('p', { class: 'mlp-widget__title', text: words.title }),
    el('fieldset', {}, el('legend', { text: words.mlp }),
      el('div', { class: 'mlp-widget__control' }, el('label', { for: widthsId, text: words.widths }), widths),
      mlpError, mlpTable, mlpSummary),
    el('fieldset', {}, el('legend', { text: words.transformer }),
      el('div', { class: 'mlp-widget__control' }, el('label', { for: modelId, text: words.model }), model),
      fieldBox, tfError, tfTable, tfSummary));
  updateMLP();
  showFields();
}

for (const [root, config] of placeholders('parameter-counter')) build(root, config);
