// The 2-2-1 network explorer (lesson 3): the nine parameters, the input point, the forward
// trace in the layout of mlp_ref.course.trace, and the output over the input square.
import { activation } from './activations.js';
import { exact, formatNumber } from './format.js';
import { colour, el, fill, numberControl, placeholders, scrollBox, uid } from './ui.js';

const GRID = 41; // heat-map cells per side

// One forward pass of a (1, 2) input: the steps of mlp_ref.course.trace (x, z1, a1, z2, a2).
export function forward(p, x) {
  const [f] = activation(p.activation);
  const [out] = activation(p.output);
  const z1 = [0, 1].map((j) => x[0] * p.W1[0][j] + x[1] * p.W1[1][j] + p.b1[j]);
  const a1 = z1.map(f);
  const z2 = [a1[0] * p.W2[0][0] + a1[1] * p.W2[1][0] + p.b2[0]];
  return { x, z1, a1, z2, a2: z2.map(out) };
}

function traceRows(p, x, input) {
  const s = forward(p, x);
  return [
    ['x', input, s.x], ['z1', 'x W1 + b1', s.z1], ['a1', `${p.activation}(z1)`, s.a1],
    ['z2', 'a1 W2 + b2', s.z2], ['a2', `${p.output}(z2)`, s.a2],
  ];
}

function build(root, config) {
  const p = structuredClone(config.start);
  let x = [...config.x];
  const [low, high] = config.square;
  const precision = config.precision;
  const words = config.text; // the page's words, in its language (mlp_ref.course.widgets)
  const controls = {};

  const title = el('p', { class: 'mlp-widget__title', text: words.title });
  const params = el('div', { class: 'mlp-widget__grid' });
  const names = [['W1', 0, 0], ['W1', 0, 1], ['W1', 1, 0], ['W1', 1, 1], ['b1', 0], ['b1', 1],
    ['W2', 0, 0], ['W2', 1, 0], ['b2', 0]];
  for (const [name, i, j] of names) {
    const label = j === undefined ? `${name}[${i + 1}]` : `${name}[${i + 1},${j + 1}]`;
    const control = numberControl({ label, value: j === undefined ? p[name][i] : p[name][i][j], min: -3, max: 3, words,
      onChange: (v) => { if (j === undefined) p[name][i] = v; else p[name][i][j] = v; update(); } });
    control.field.dataset.param = label;
    controls[label] = control;
    params.append(control.row);
  }
  const head = el('select', { id: uid('head'), 'data-param': 'output' });
  for (const name of new Set([config.start.output, config.xor.output])) head.append(el('option', { value: name, text: name }));
  head.value = p.output;
  head.addEventListener('change', () => { p.output = head.value; update(); });
  const headRow = el('div', { class: 'mlp-widget__control' }, el('label', { for: head.id, text: words.outputHead }), head);

  const inputs = el('div', { class: 'mlp-widget__grid' });
  const point = [0, 1].map((k) => {
    const control = numberControl({ label: `x${k + 1}`, value: x[k], min: low, max: high, words,
      onChange: (v) => { x[k] = v; update(); } });
    control.field.dataset.param = `x${k + 1}`;
    inputs.append(control.row);
    return control;
  });

  const load = (values, note) => {
    Object.assign(p, structuredClone(values));
    for (const [name, i, j] of names) {
      const label = j === undefined ? `${name}[${i + 1}]` : `${name}[${i + 1},${j + 1}]`;
      controls[label].set(j === undefined ? p[name][i] : p[name][i][j]);
    }
    head.value = p.output;
    update(note);
  };
  const buttons = el('div', {},
    el('button', { type: 'button', text: words.reset, onclick: () => {
      x = [...config.x];
      point.forEach((control, k) => control.set(x[k]));
      load(config.start, words.loadedStart);
    } }),
    el('button', { type: 'button', text: words.xor, onclick: () => load(config.xor, words.loadedXor) }));

  const canvas = el('canvas', { width: 328, height: 328, tabindex: 0, role: 'img', class: 'mlp-widget__plot',
    'aria-label': fill(words.map, { low, high }) });
  const caption = el('p', { class: 'mlp-widget__readout', text: fill(words.caption, { low, high }) });
  const table = el('table');
  const live = el('output', { 'aria-live': 'polite', class: 'mlp-widget__readout' });

  const toPixel = (v) => ((v - low) / (high - low)) * canvas.width;
  const fromPixel = (px) => low + (px / canvas.width) * (high - low);

  function grid() {
    const coords = Array.from({ length: GRID }, (_, i) => low + ((high - low) * i) / (GRID - 1));
    const values = new Float64Array(GRID * GRID);
    coords.forEach((x2, r) => coords.forEach((x1, c) => { values[r * GRID + c] = forward(p, [x1, x2]).a2[0]; }));
    return { coords, values };
  }

  function draw(g) {
    const ctx = canvas.getContext('2d');
    const cell = canvas.width / GRID;
    g.coords.forEach((_, r) => g.coords.forEach((__, c) => {
      const [red, green, blue] = colour(g.values[r * GRID + c]);
      ctx.fillStyle = `rgb(${red},${green},${blue})`;
      ctx.fillRect(c * cell, canvas.height - (r + 1) * cell, Math.ceil(cell), Math.ceil(cell));
    }));
    ctx.lineWidth = 2;
    config.corners.forEach(([c1, c2], k) => {
      const [px, py] = [toPixel(c1), canvas.height - toPixel(c2)];
      ctx.strokeStyle = '#000';
      ctx.fillStyle = '#fff';
      ctx.beginPath();
      if ((c1 + c2) % 2 === 1) { ctx.moveTo(px, py - 8); ctx.lineTo(px + 7, py + 6); ctx.lineTo(px - 7, py + 6); ctx.closePath(); }
      else ctx.arc(px, py, 6, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
      return k;
    });
    const [px, py] = [toPixel(x[0]), canvas.height - toPixel(x[1])];
    ctx.beginPath();
    ctx.arc(px, py, 9, 0, 2 * Math.PI);
    ctx.strokeStyle = '#000';
    ctx.lineWidth = 4;
    ctx.stroke();
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = 2;
    ctx.stroke();
  }

  function update(note) {
    const rows = traceRows(p, x, words.input);
    table.replaceChildren(
      el('thead', {}, el('tr', {}, ...words.headers.map((h) => el('th', { text: h })))),
      el('tbody', {}, ...rows.map(([name, expression, values]) => el('tr', {},
        el('td', { text: name }), el('td', {}, el('code', { text: expression })), el('td', { text: `(1, ${values.length})` }),
        el('td', { 'data-values': JSON.stringify(values.map(exact)) },
          `[${values.map((v) => formatNumber(v, precision)).join(', ')}]`)))));
    // the map is drawn once per frame, however many controls changed in it
    if (!pending) pending = requestAnimationFrame(() => { pending = 0; draw(grid()); });
    const y = rows[4][2][0];
    live.textContent = `${note ? `${note}. ` : ''}x = (${x.map((v) => formatNumber(v, precision)).join(', ')}), `
      + `ŷ = ${formatNumber(y, precision)}`;
  }

  let pending = 0;
  // the map's values for the current settings, computed when asked (tests/test_widgets.py reads them)
  Object.defineProperty(root, 'mlpGrid', {
    get() { const g = grid(); return { coords: g.coords, values: Array.from(g.values) }; },
  });

  function moveTo(v1, v2) {
    x = [Math.min(high, Math.max(low, v1)), Math.min(high, Math.max(low, v2))];
    point[0].set(x[0]);
    point[1].set(x[1]);
    update();
  }
  const fromEvent = (event) => {
    const box = canvas.getBoundingClientRect();
    const scale = canvas.width / box.width;
    moveTo(fromPixel((event.clientX - box.left) * scale), fromPixel(canvas.height - (event.clientY - box.top) * scale));
  };
  canvas.addEventListener('pointerdown', (event) => { canvas.setPointerCapture(event.pointerId); fromEvent(event); });
  canvas.addEventListener('pointermove', (event) => { if (canvas.hasPointerCapture(event.pointerId)) fromEvent(event); });
  canvas.addEventListener('keydown', (event) => {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[event.key];
    if (!steps) return;
    event.preventDefault();
    const size = event.shiftKey ? 0.5 : 0.1;
    moveTo(x[0] + steps[0] * size, x[1] + steps[1] * size);
  });

  root.append(title,
    el('fieldset', {}, el('legend', { text: words.weights }), params, headRow, buttons),
    el('fieldset', {}, el('legend', { text: words.point }), inputs, canvas, caption),
    el('p', { class: 'mlp-widget__readout', text: words.traceIntro }),
    scrollBox(table, words.traceBox), live);
  update();
}

for (const [root, config] of placeholders('network-explorer')) build(root, config);
