// The activation explorer (lesson 4): pick an activation of the page's table, move z, read f(z)
// and f'(z); for GELU the exact (erf) and tanh forms side by side, with their difference.
import { activation } from './activations.js';
import { exact, formatNumber } from './format.js';
import { el, fill, numberControl, placeholders, scrollBox, uid } from './ui.js';

const NS = 'http://www.w3.org/2000/svg';
const svg = (tag, attrs = {}) => {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
};
const GELU_FORMS = ['gelu', 'gelu_tanh'];

function build(root, config) {
  const entries = config.activations;
  const [low, high] = config.range;
  const precision = config.precision;
  const words = config.text; // the page's words, in its language (mlp_ref.course.widgets)
  let chosen = entries[0];
  let z = 0;

  const select = el('select', { id: uid('activation') });
  entries.forEach((entry, k) => select.append(el('option', { value: String(k), text: entry.label })));
  select.addEventListener('change', () => { chosen = entries[Number(select.value)]; update(); });
  const control = numberControl({ label: 'z', value: z, min: low, max: high, step: 0.01, words,
    onChange: (v) => { z = v; update(); } });
  control.field.dataset.param = 'z';

  const W = 480;
  const H = 220;
  const plot = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img' });
  const readout = el('table');
  const live = el('output', { 'aria-live': 'polite', class: 'mlp-widget__readout' });

  const pairFor = (entry) => activation(entry.name, entry.slope);

  function drawPlot(pair) {
    const n = 241;
    const zs = Array.from({ length: n }, (_, i) => low + ((high - low) * i) / (n - 1));
    const curves = pair.map((fn) => zs.map(fn));
    const all = curves.flat();
    const top = Math.max(1, ...all);
    const bottom = Math.min(-0.5, ...all);
    const px = (v) => 30 + ((v - low) / (high - low)) * (W - 40);
    const py = (v) => 10 + ((top - v) / (top - bottom)) * (H - 30);
    plot.replaceChildren();
    plot.append(svg('line', { x1: px(low), x2: px(high), y1: py(0), y2: py(0), stroke: 'currentColor', 'stroke-opacity': 0.4 }));
    plot.append(svg('line', { x1: px(0), x2: px(0), y1: py(top), y2: py(bottom), stroke: 'currentColor', 'stroke-opacity': 0.4 }));
    const styles = [{ stroke: '#0072B2', dash: '' }, { stroke: '#D55E00', dash: '6 4' }];
    curves.forEach((ys, k) => plot.append(svg('polyline', {
      points: zs.map((v, i) => `${px(v).toFixed(1)},${py(ys[i]).toFixed(1)}`).join(' '),
      fill: 'none', stroke: styles[k].stroke, 'stroke-width': 2.5, 'stroke-dasharray': styles[k].dash })));
    const shown = Math.min(high, Math.max(low, z));
    pair.forEach((fn, k) => plot.append(svg('circle', { cx: px(shown), cy: py(Math.min(top, Math.max(bottom, fn(shown)))),
      r: 5, fill: styles[k].stroke, stroke: 'currentColor' })));
    const text = (x, y, s, anchor = 'start') => {
      const t = svg('text', { x, y, 'font-size': 12, fill: 'currentColor', 'text-anchor': anchor });
      t.textContent = s;
      plot.append(t);
    };
    text(px(low), H - 4, formatNumber(low, 0));
    text(px(high), H - 4, formatNumber(high, 0), 'end');
    text(px(0), H - 4, 'z', 'middle');
    text(34, 14, fill(words.plotTitle, { label: chosen.label }));
    plot.setAttribute('aria-label', fill(words.plot, { label: chosen.label, low: formatNumber(low, 0),
      high: formatNumber(high, 0), z: formatNumber(z, precision) }));
  }

  function update() {
    const pair = pairFor(chosen);
    drawPlot(pair);
    const rows = [[chosen.label, chosen.name, ...pair.map((fn) => fn(z))]];
    if (GELU_FORMS.includes(chosen.name)) {
      rows.length = 0;
      const forms = GELU_FORMS.map((name) => entries.find((e) => e.name === name));
      const values = forms.map((e) => pairFor(e).map((fn) => fn(z)));
      forms.forEach((e, k) => rows.push([e.label, e.name, ...values[k]]));
      rows.push([words.difference, 'gelu-difference', values[0][0] - values[1][0], values[0][1] - values[1][1]]);
    }
    const cell = (v) => el('td', { 'data-value': exact(v) }, formatNumber(v, precision));
    readout.replaceChildren(
      el('thead', {}, el('tr', {}, el('th', { text: words.function }), el('th', { text: `f(z)` }), el('th', { text: 'f′(z)' }))),
      el('tbody', {}, ...rows.map(([label, name, f, d]) => el('tr', { 'data-name': name }, el('td', { text: label }), cell(f), cell(d)))));
    live.textContent = `${fill(words.at, { label: chosen.label, z: formatNumber(z, precision) })}: f(z) = ${formatNumber(rows[0][2], precision)}, `
      + `f′(z) = ${formatNumber(rows[0][3], precision)}`;
  }

  root.append(el('p', { class: 'mlp-widget__title', text: words.title }),
    el('div', { class: 'mlp-widget__grid' },
      el('div', { class: 'mlp-widget__control' }, el('label', { for: select.id, text: words.activation }), select),
      control.row),
    plot,
    scrollBox(readout, words.valuesBox), live);
  update();
}

for (const [root, config] of placeholders('activation-explorer')) build(root, config);
