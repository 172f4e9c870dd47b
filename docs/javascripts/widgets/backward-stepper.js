// The backward-pass stepper (lesson 5): the 2-2-1 network of lessons 3 and 5 as a graph, and its
// backward pass one quantity at a time, each with the chain-rule product that gives it in numbers,
// in the rows and words of the page's backward table (mlp_ref.course.backward_tables); then one
// SGD step and the new loss. The numbers come from training.js (mlp_ref's forward, loss_and_delta,
// backward and sgd_step); tests/test_widgets.py holds every one of them to mlp_ref's.
import { formatNumber } from './format.js';
import { backward, copyNet, forward, lossAndDelta, sgdStep } from './training.js';
import { el, fill, numberControl, placeholders, svg } from './ui.js';

// where each node of the graph is drawn, and the edges between them
const NODES = { x1: [40, 50], x2: [40, 150], h1: [160, 50], h2: [160, 150], y: [280, 100] };
const LABELS = { x1: 'x1', x2: 'x2', h1: 'a1[1]', h2: 'a1[2]', y: 'ŷ' };
const EDGES = [['x1', 'h1', 'W1[1,1]'], ['x1', 'h2', 'W1[1,2]'], ['x2', 'h1', 'W1[2,1]'], ['x2', 'h2', 'W1[2,2]'],
  ['h1', 'y', 'W2[1]'], ['h2', 'y', 'W2[2]']];

// Every row of the walk, in the order of the page's table, as {name, shape, product, value, focus,
// text, brief}: the backward pass (∂L/∂ŷ, then the table's rows), the SGD step and the new loss.
// value is what data-value holds (null for the step); focus the graph element the row belongs to;
// text the row as shown; brief what the status line says of it. f writes a number as the table does.
export function quantities(net, x, y, lr, f, words) {
  const cache = forward(net, [x]);
  const { loss, delta } = lossAndDelta(cache.zs[1], [y]);
  const grads = backward(net, cache, delta);
  const [z1, a1, yHat] = [cache.zs[0][0], cache.as[1][0], cache.as[2][0][0]];
  const W2 = net.W[1].map((row) => row[0]);
  const d2 = delta[0][0];
  const g = (v) => String(v); // the target as Python's {y:g} writes the page's values (0, 1, 0.5)
  const rows = [];
  const quantity = (name, shape, product, value, focus) => rows.push({ name, shape, product, value, focus,
    text: `${name} ${shape}: ${product} = ${f(value)}`, brief: `${name} = ${f(value)}` });
  quantity('∂L/∂ŷ', '(1, 1)', `(ŷ − y) / (ŷ (1 − ŷ)) = (${f(yHat)} − ${g(y)}) / (${f(yHat)} · ${f(1 - yHat)})`,
    (yHat - y) / (yHat * (1 - yHat)), 'y');
  quantity('δ2 = ŷ − y', '(1, 1)', `${f(yHat)} − ${g(y)}`, d2, 'y');
  W2.forEach((_, j) => quantity(`∂L/∂W2[${j + 1}]`, '(2, 1)', `a1[${j + 1}] · δ2 = ${f(a1[j])} · ${f(d2)}`,
    grads.dW[1][j][0], `W2[${j + 1}]`));
  quantity('∂L/∂b2', '(1,)', 'δ2', grads.db[1][0], 'y');
  const da1 = W2.map((w) => d2 * w);
  W2.forEach((w, j) => quantity(`∂L/∂a1[${j + 1}]`, '(1, 2)', `δ2 · W2[${j + 1}] = ${f(d2)} · ${f(w)}`, da1[j],
    `h${j + 1}`));
  W2.forEach((_, j) => quantity(`δ1[${j + 1}]`, '(1, 2)',
    `∂L/∂a1[${j + 1}] · relu′(${f(z1[j])}) = ${f(da1[j])} · ${z1[j] > 0 ? 1 : 0}`, grads.db[0][j], `h${j + 1}`));
  x.forEach((xi, i) => W2.forEach((_, j) => quantity(`∂L/∂W1[${i + 1},${j + 1}]`, '(2, 2)',
    `x[${i + 1}] · δ1[${j + 1}] = ${f(xi)} · ${f(grads.db[0][j])}`, grads.dW[0][i][j], `W1[${i + 1},${j + 1}]`)));
  W2.forEach((_, j) => quantity(`∂L/∂b1[${j + 1}]`, '(2,)', `δ1[${j + 1}]`, grads.db[0][j], `h${j + 1}`));
  // one step of gradient descent (sgd_step), then the forward pass again for the new loss
  const after = copyNet(net);
  sgdStep(after, grads, lr);
  const again = forward(after, [x]);
  const newLoss = lossAndDelta(again.zs[1], [y]).loss;
  const params = (n) => [['W1[1,1]', n.W[0][0][0]], ['W1[1,2]', n.W[0][0][1]], ['W1[2,1]', n.W[0][1][0]],
    ['W1[2,2]', n.W[0][1][1]], ['b1[1]', n.b[0][0]], ['b1[2]', n.b[0][1]], ['W2[1]', n.W[1][0][0]],
    ['W2[2]', n.W[1][1][0]], ['b2', n.b[1][0]]];
  const old = params(net);
  const changes = params(after).map(([name, v], k) => `${name}: ${f(old[k][1])} → ${f(v)}`).join(', ');
  const sgd = fill(words.sgd, { lr: String(lr) });
  rows.push({ name: sgd, value: null, focus: null, text: `${sgd}: ${changes}`, brief: sgd });
  // the new loss on a row of its own, so that no parameter's change reads as if it ended in it
  rows.push({ name: words.newLoss, value: newLoss, focus: 'y',
    text: fill(words.newLossRow, { loss: f(newLoss), before: f(loss) }), brief: `${words.newLoss} = ${f(newLoss)}` });
  return { rows, forward: { z1, a1, yHat, loss }, after: params(after).map(([, v]) => v) };
}

function build(root, config) {
  const words = config.text;
  const f = (v) => formatNumber(v + 0, config.precision);
  const net = { activation: 'relu', W: [config.W1, config.W2], b: [config.b1, config.b2] };
  let x = [...config.x];
  let y = config.y;
  let shown = 0; // how many quantities are shown (0: the forward pass only)

  const fields = el('div', { class: 'mlp-widget__grid' });
  const inputs = ['x1', 'x2'].map((name, k) => {
    const c = numberControl({ label: name, value: x[k], min: -3, max: 3, words, onChange: (v) => { x[k] = v; shown = 0; update(); } });
    c.field.dataset.param = name;
    fields.append(c.row);
    return c;
  });
  const target = numberControl({ label: words.target, value: y, min: 0, max: 1, step: 0.01, words, onChange: (v) => {
    if (!(v >= 0 && v <= 1)) {
      target.field.setAttribute('aria-invalid', 'true');
      target.row.querySelector('.mlp-widget__msg').textContent = fill(words.notTarget, { text: target.field.value });
      return;
    }
    y = v;
    shown = 0;
    update();
  } });
  target.field.dataset.param = 'y';
  fields.append(target.row);
  // A button that says when it has nothing to do (aria-disabled, so that it keeps the keyboard's
  // focus at either end of the walk) and then ignores a press.
  const button = (action, text, onclick) => el('button', { type: 'button', 'data-action': action, text,
    onclick: (event) => { if (event.currentTarget.getAttribute('aria-disabled') !== 'true') onclick(); } });
  const previous = button('previous', words.previous, () => { shown -= 1; update(); });
  const next = button('next', words.next, () => { shown += 1; update(); });
  const buttons = el('div', { class: 'mlp-widget__buttons' }, ...[previous, next,
    button('restart', words.restart, () => { shown = 0; update(); })].flatMap((b) => [b, ' ']));
  const graph = svg('svg', { viewBox: '0 0 320 200', width: 320, height: 200, role: 'img' });
  const intro = el('p', { class: 'mlp-widget__readout' });
  const list = el('ol', { class: 'mlp-widget__steps' });
  // The forward pass and the rows so far, in a box of fixed height right above the buttons that
  // scrolls to the newest row: on a phone the newest row stays next to Next, and the buttons do
  // not move under the pointer as rows are added. Focusable, so that a keyboard can scroll it.
  const log = el('div', { class: 'mlp-widget__log', tabindex: 0, role: 'region', 'aria-label': words.log }, intro, list);
  const live = el('output', { 'aria-live': 'polite', class: 'mlp-widget__readout' });

  function drawGraph(focus, q) {
    const nodeText = { x1: f(x[0]), x2: f(x[1]), h1: f(q.forward.a1[0]), h2: f(q.forward.a1[1]), y: f(q.forward.yHat) };
    graph.replaceChildren(...EDGES.map(([a, b, name]) => svg('line', { x1: NODES[a][0], y1: NODES[a][1], x2: NODES[b][0],
      y2: NODES[b][1], stroke: name === focus ? '#E69F00' : 'currentColor', 'stroke-width': name === focus ? 5 : 1.5 })),
    ...Object.entries(NODES).flatMap(([name, [cx, cy]]) => [
      svg('circle', { cx, cy, r: 22, fill: 'var(--md-default-bg-color)', stroke: name === focus ? '#E69F00' : 'currentColor',
        'stroke-width': name === focus ? 5 : 1.5 }),
      svg('text', { x: cx, y: cy - 4, 'text-anchor': 'middle', 'font-size': 11, fill: 'currentColor' },
        LABELS[name]),
      svg('text', { x: cx, y: cy + 10, 'text-anchor': 'middle', 'font-size': 10, fill: 'currentColor' }, nodeText[name]),
    ]));
    graph.setAttribute('aria-label', fill(words.graph, { x1: f(x[0]), x2: f(x[1]), y: f(q.forward.yHat) }));
  }

  function update() {
    for (const c of [target]) { c.field.removeAttribute('aria-invalid'); c.row.querySelector('.mlp-widget__msg').textContent = ''; }
    const q = quantities(net, x, y, config.lr, f, words);
    const count = q.rows.length;
    shown = Math.max(0, Math.min(shown, count));
    intro.textContent = fill(words.forward, { z1: q.forward.z1.map(f).join(', '), a1: q.forward.a1.map(f).join(', '),
      y: f(q.forward.yHat), target: String(y), loss: f(q.forward.loss) });
    list.replaceChildren(...q.rows.slice(0, shown).map((row, k) => el('li', {
      'data-value': row.value === null ? undefined : String(row.value), 'data-name': row.name,
      class: k === shown - 1 ? 'mlp-widget__current' : undefined }, row.text)));
    log.scrollTop = log.scrollHeight;
    previous.setAttribute('aria-disabled', String(shown === 0));
    next.setAttribute('aria-disabled', String(shown === count));
    const current = q.rows[shown - 1];
    drawGraph(current ? current.focus : null, q);
    live.textContent = current ? fill(words.at, { k: shown, n: count, text: current.brief })
      : fill(words.start, { n: count });
  }

  root.append(el('p', { class: 'mlp-widget__title', text: words.title }),
    el('fieldset', {}, el('legend', { text: words.inputs }), fields), graph, log, buttons, live);
  update();
}

for (const [root, config] of placeholders('backward-stepper')) build(root, config);
