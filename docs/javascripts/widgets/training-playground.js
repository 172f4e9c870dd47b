// The training playground (lesson 5): a [2, ...widths, 1] network with a sigmoid output, trained
// by full-batch gradient descent on a data set of the page (mlp_ref.course.playground) with the
// step of training.js (mlp_ref's readable fit). Shows the decision boundary with the points, the
// loss curve, accuracy, the step count, dead units and the forward values at the cursor; the
// setting lives in the page's URL.
import { formatNumber } from './format.js';
import { correctCount, evaluate, forward, initialWeights, outputAt, trainStep } from './training.js';
import { colour, el, fill, numberControl, placeholders, svg, uid } from './ui.js';

const GRID = 40;           // heat-map cells per side
const CURVE = 400;         // at most this many points on the loss curve
const URL_STEPS = 20000;   // at most this many steps replayed from a URL
const SEED_MAX = 4294967295;
const KEYS = { data: 'pg-data', widths: 'pg-widths', activation: 'pg-act', rate: 'pg-rate', seed: 'pg-seed',
  steps: 'pg-steps', points: 'pg-points' };


// The setting a URL asks for, each value checked; what is missing or wrong keeps the start's.
function fromUrl(config, setting) {
  const q = new URLSearchParams(window.location.search);
  const data = q.get(KEYS.data);
  if (data in config.datasets) setting.data = data;
  const widths = (q.get(KEYS.widths) || '').split(',').map(Number);
  if (widths.length >= 1 && widths.length <= config.maxDepth
      && widths.every((w) => Number.isInteger(w) && w >= 1 && w <= config.maxWidth)) setting.widths = widths;
  if (config.activationNames.includes(q.get(KEYS.activation))) setting.activation = q.get(KEYS.activation);
  const rate = Number(q.get(KEYS.rate));
  if (q.has(KEYS.rate) && Number.isFinite(rate) && rate > 0) setting.rate = rate;
  const seed = Number(q.get(KEYS.seed));
  if (q.has(KEYS.seed) && Number.isInteger(seed) && seed >= 0 && seed <= SEED_MAX) setting.seed = seed;
  setting.added = (q.get(KEYS.points) || '').split(';').filter(Boolean).map((p) => p.split(',').map(Number))
    .filter((p) => p.length === 3 && p.every(Number.isFinite) && (p[2] === 0 || p[2] === 1));
  const steps = Number(q.get(KEYS.steps));
  return Number.isInteger(steps) && steps > 0 ? Math.min(steps, URL_STEPS) : 0;
}

function build(root, config) {
  const words = config.text; // the page's words, in its language (mlp_ref.course.playground)
  const p = config.precision;
  const setting = { ...config.start, widths: [...config.start.widths], added: [] };
  const urlSteps = fromUrl(config, setting);
  let run = null;      // {state, steps, losses, diverged}
  let cursor = null;   // [x1, x2] and the index of the data point it is on, if any
  let onPoint = -1;
  let playing = false;
  let pending = 0;
  let adding = false;  // the "Add points" mode: only then does a click or a tap on the map add a point
  let history = [];    // before each added point: the points and the run it reset, newest last (Undo)

  const data = () => {
    const set = config.datasets[setting.data];
    return { X: [...set.X, ...setting.added.map(([a, b]) => [a, b])], y: [...set.y, ...setting.added.map((q) => q[2])],
      square: set.square, own: set.X.length };
  };

  // --- controls
  const select = (param, label, options, value, onChange) => {
    const control = el('select', { id: uid(param), 'data-param': param });
    for (const [v, text] of options) control.append(el('option', { value: v, text }));
    control.value = String(value);
    control.addEventListener('change', () => onChange(control.value));
    return { control, row: el('div', { class: 'mlp-widget__control mlp-widget__control--wide' },
      el('label', { for: control.id, text: label }), control) };
  };
  const dataSelect = select('data', words.data, Object.keys(config.datasets).map((k) => [k, words.datasets[k]]),
    setting.data, (v) => { setting.data = v; setting.added = []; cursor = null; restart(); });
  const range = (n) => Array.from({ length: n }, (_, k) => [k + 1, k + 1]);
  const depth = select('depth', words.depth, range(config.maxDepth), setting.widths.length, (v) => {
    const n = Number(v);
    setting.widths = Array.from({ length: n }, (_, k) => setting.widths[k] || Number(widths[k].control.value));
    restart();
  });
  const widths = Array.from({ length: config.maxDepth }, (_, k) => select(`width${k + 1}`, fill(words.width, { k: k + 1 }),
    range(config.maxWidth), setting.widths[k] || config.maxWidth, (v) => { setting.widths[k] = Number(v); restart(); }));
  const act = select('activation', words.activation, config.activationNames.map((a) => [a, a]), setting.activation,
    (v) => { setting.activation = v; restart(); });
  const rate = numberControl({ label: words.rate, value: setting.rate, min: 0.01, max: 3, step: 0.01, words,
    onChange: (v) => {
      if (!(v > 0)) return invalid(rate, fill(words.notRate, { text: rate.field.value }));
      setting.rate = v;
      return restart();
    } });
  rate.field.dataset.param = 'rate';
  rate.row.classList.add('mlp-widget__control--rate');
  const seedField = el('input', { type: 'text', id: uid('seed'), inputmode: 'numeric', 'data-param': 'seed',
    value: String(setting.seed), 'aria-describedby': '' });
  const seedMsg = el('span', { id: `${seedField.id}-msg`, class: 'mlp-widget__msg', role: 'status' });
  seedField.setAttribute('aria-describedby', seedMsg.id);
  const seed = { field: seedField, row: el('div', { class: 'mlp-widget__control mlp-widget__control--wide' },
    el('label', { for: seedField.id, text: words.seed }), seedField, seedMsg) };
  seedField.addEventListener('input', () => {
    const text = seedField.value.trim();
    const v = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!(v <= SEED_MAX)) return invalid(seed, fill(words.notSeed, { text: seedField.value }));
    setting.seed = v;
    return restart();
  });
  const newClass = select('class', words.newClass, [[0, '0'], [1, '1']], 1, () => {});

  function invalid(control, message) {
    control.field.setAttribute('aria-invalid', 'true');
    control.row.querySelector('.mlp-widget__msg').textContent = message;
  }

  const button = (action, text, onclick) => el('button', { type: 'button', 'data-action': action, text, onclick });
  const playButton = button('play', words.play, () => (playing ? pause() : play()));
  playButton.setAttribute('aria-pressed', 'false');
  const buttons = el('div', {}, ...[
    button('step', words.step, () => { pause(); steps(1); }),
    button('step10', words.step10, () => { pause(); steps(10); }),
    playButton,
    button('reset', words.reset, () => { pause(); restart(); }),
    button('newSeed', words.newSeed, () => {
      pause();
      setting.seed = setting.seed >= SEED_MAX ? 0 : setting.seed + 1;
      seedField.value = String(setting.seed);
      restart();
    })].flatMap((b) => [b, ' '])); // a space between buttons: they wrap, and read as separate words
  // Adding points is a mode the reader turns on (off at the start), so that a tap on the map, meant to
  // read the values there or to scroll, never resets the run; Undo takes the last point back with its run.
  const modeButton = button('addMode', words.addMode, () => {
    adding = !adding;
    modeButton.setAttribute('aria-pressed', String(adding));
    canvas.style.cursor = adding ? 'crosshair' : '';
  });
  modeButton.setAttribute('aria-pressed', 'false');
  // aria-disabled, not disabled: the button keeps the keyboard's focus and says why it does nothing
  const undoButton = button('undo', words.undo, () => { if (history.length) undo(); });
  const pointButtons = el('div', {}, modeButton, ' ', undoButton);

  // --- displays
  const small = el('canvas', { width: GRID, height: GRID });
  const cells = small.getContext('2d').createImageData(GRID, GRID);
  const drawn = new Float64Array(GRID * GRID); // the ŷ of each cell as last drawn, row 0 at the top (mlpState.map)
  const canvas = el('canvas', { width: 320, height: 320, tabindex: 0, role: 'img', class: 'mlp-widget__plot' });
  // a swipe over the map scrolls the page, as anywhere else (ui.js's touch-action: none is for maps one drags on)
  canvas.style.touchAction = 'manipulation';
  const caption = el('p', { class: 'mlp-widget__readout', text: words.caption });
  // a labelled group (a p may not carry aria-label: axe's aria-prohibited-attr); not live, it follows the pointer
  const readout = el('p', { class: 'mlp-widget__readout', role: 'group', 'aria-label': words.forwardBox });
  const curve = svg('svg', { viewBox: '0 0 320 140', width: 320, height: 140, role: 'img' });
  const status = el('output', { 'aria-live': 'polite', class: 'mlp-widget__readout' });
  const error = el('p', { class: 'mlp-widget__error', role: 'alert' });

  // --- training
  // a new run from step 0; a change of the setting forgets what Undo could take back (keep: a point was added)
  function restart(keep = false) {
    if (!keep) history = [];
    for (const c of [rate, seed]) {
      c.field.removeAttribute('aria-invalid');
      c.row.querySelector('.mlp-widget__msg').textContent = '';
    }
    depth.control.value = String(setting.widths.length);
    widths.forEach((w, k) => {
      w.row.hidden = k >= setting.widths.length;
      if (k < setting.widths.length) w.control.value = String(setting.widths[k]);
    });
    const { X, y } = data();
    const state = evaluate({ activation: setting.activation, ...initialWeights(setting.widths, setting.activation, setting.seed) }, X, y);
    run = { state, steps: 0, losses: [state.loss], diverged: null };
    update();
  }

  // n steps of gradient descent (training.js's trainStep, the body of fit's loop); stops where one diverges
  function steps(n) {
    const { X, y } = data();
    for (let k = 0; k < n && !run.diverged; k += 1) {
      const next = trainStep(run.state, X, y, setting.rate);
      if (next) {
        run.state = next;
        run.steps += 1;
        run.losses.push(next.loss);
      } else {
        run.diverged = { step: run.steps + 1, last: run.steps };
      }
    }
    update();
  }

  function play() {
    if (run.diverged) return;
    playing = true;
    playButton.textContent = words.pause;
    playButton.setAttribute('aria-pressed', 'true');
    status.setAttribute('aria-busy', 'true'); // no announcement per frame; one when it pauses
    const frame = () => {
      if (!playing) return;
      steps(1);
      if (run.diverged) pause();
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  function pause() {
    if (!playing) return;
    playing = false;
    playButton.textContent = words.play;
    playButton.setAttribute('aria-pressed', 'false');
    status.removeAttribute('aria-busy');
    update();
  }

  // --- what the reader sees
  function deadUnits() {
    // a ReLU unit that is 0 on every point gets no gradient, so its weights stop changing
    const { as } = run.state.cache;
    const dead = [];
    for (let l = 1; l < as.length - 1; l += 1) {
      as[l][0].forEach((_, j) => { if (as[l].every((row) => row[j] === 0)) dead.push(fill(words.unit, { l, j: j + 1 })); });
    }
    return dead;
  }

  function update() {
    const { y } = data();
    const correct = correctCount(run.state, y);
    const accuracy = `${formatNumber((100 * correct) / y.length, 1)}\u00a0%`;
    const dead = deadUnits();
    status.textContent = fill(words.status, { step: run.steps, loss: formatNumber(run.state.loss, p), accuracy, correct, n: y.length })
      + (dead.length ? fill(words.dead, { units: dead.join(', ') }) : '')
      + (run.state.loss > run.losses[0] ? fill(words.rising, { first: formatNumber(run.losses[0], p) }) : '');
    error.textContent = run.diverged
      ? fill(words.diverged, { step: run.diverged.step, rate: String(setting.rate), last: run.diverged.last }) : '';
    undoButton.setAttribute('aria-disabled', String(!history.length));
    if (!playing) writeUrl();
    if (!pending) pending = requestAnimationFrame(() => { pending = 0; draw(); });
  }

  function writeUrl() {
    const q = new URLSearchParams(window.location.search);
    q.set(KEYS.data, setting.data);
    q.set(KEYS.widths, setting.widths.join(','));
    q.set(KEYS.activation, setting.activation);
    q.set(KEYS.rate, String(setting.rate));
    q.set(KEYS.seed, String(setting.seed));
    q.set(KEYS.steps, String(run.steps));
    if (setting.added.length) q.set(KEYS.points, setting.added.map((pt) => pt.join(',')).join(';'));
    else q.delete(KEYS.points);
    window.history.replaceState(window.history.state, '', `?${q}${window.location.hash}`);
  }

  const [lowOf, highOf] = [() => data().square[0], () => data().square[1]];
  const toPixel = (v) => ((v - lowOf()) / (highOf() - lowOf())) * canvas.width;
  const fromPixel = (px) => lowOf() + (px / canvas.width) * (highOf() - lowOf());

  function draw() {
    const ctx = canvas.getContext('2d');
    const [low, high] = data().square;
    canvas.setAttribute('aria-label', fill(words.map, { low, high }));
    // the heat map: ŷ at the centre of each cell, GRID x GRID pixels scaled up in one drawImage
    const pixels = cells.data;
    for (let r = 0; r < GRID; r += 1) {
      const x2 = high - ((high - low) * (r + 0.5)) / GRID; // row 0 is the top
      for (let c = 0; c < GRID; c += 1) {
        drawn[r * GRID + c] = outputAt(run.state.net, low + ((high - low) * (c + 0.5)) / GRID, x2);
        const [red, green, blue] = colour(drawn[r * GRID + c]);
        const k = 4 * (r * GRID + c);
        pixels[k] = red;
        pixels[k + 1] = green;
        pixels[k + 2] = blue;
        pixels[k + 3] = 255;
      }
    }
    small.getContext('2d').putImageData(cells, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(small, 0, 0, canvas.width, canvas.height);
    const { X, y, own } = data();
    X.forEach(([a, b], k) => marker(ctx, toPixel(a), canvas.height - toPixel(b), y[k], k >= own ? 1.6 : 1));
    if (cursor) {
      ctx.beginPath();
      ctx.arc(toPixel(cursor[0]), canvas.height - toPixel(cursor[1]), 8, 0, 2 * Math.PI);
      ctx.lineWidth = 3;
      ctx.strokeStyle = '#000';
      ctx.stroke();
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = '#fff';
      ctx.stroke();
    }
    drawCurve();
    showForward();
  }

  function marker(ctx, px, py, label, size) {
    ctx.beginPath();
    if (label === 1) {
      ctx.moveTo(px, py - 5 * size); ctx.lineTo(px + 4.5 * size, py + 3.5 * size); ctx.lineTo(px - 4.5 * size, py + 3.5 * size);
      ctx.closePath();
      ctx.fillStyle = '#E69F00';
    } else {
      ctx.arc(px, py, 3.5 * size, 0, 2 * Math.PI);
      ctx.fillStyle = '#0072B2';
    }
    ctx.fill();
    ctx.lineWidth = 1;
    ctx.strokeStyle = label === 1 ? '#000' : '#fff';
    ctx.stroke();
  }

  const curveLine = svg('polyline', { fill: 'none', stroke: '#0072B2', 'stroke-width': 2 });
  const curveTop = svg('text', { x: 36, y: 18, 'text-anchor': 'end', 'font-size': 11, fill: 'currentColor' });
  const curveEnd = svg('text', { x: 315, y: 132, 'text-anchor': 'end', 'font-size': 11, fill: 'currentColor' });
  curve.append(svg('path', { d: 'M40 10V115H315', fill: 'none', stroke: 'currentColor' }), curveLine, curveTop, curveEnd,
    svg('text', { x: 36, y: 118, 'text-anchor': 'end', 'font-size': 11, fill: 'currentColor' }, '0'),
    svg('text', { x: 40, y: 132, 'font-size': 11, fill: 'currentColor' }, '0'),
    svg('text', { x: 178, y: 132, 'text-anchor': 'middle', 'font-size': 11, fill: 'currentColor' }, words.stepAxis),
    svg('text', { x: 12, y: 62, 'text-anchor': 'middle', 'font-size': 11, fill: 'currentColor',
      transform: 'rotate(-90 12 62)' }, words.lossAxis));

  function drawCurve() {
    const losses = run.losses;
    const top = losses.reduce((m, v) => Math.max(m, v), 0);
    const every = Math.ceil(losses.length / CURVE);
    const span = Math.max(1, losses.length - 1);
    const at = (k) => `${(40 + (275 * k) / span).toFixed(1)},${(115 - (100 * losses[k]) / top).toFixed(1)}`;
    const points = [];
    for (let k = 0; k < losses.length; k += every) points.push(at(k));
    if ((losses.length - 1) % every) points.push(at(losses.length - 1));
    curveLine.setAttribute('points', points.join(' '));
    curveTop.textContent = formatNumber(top, 2);
    curveEnd.textContent = String(run.steps);
    curve.setAttribute('aria-label', fill(words.lossPlot, { step: run.steps, first: formatNumber(losses[0], p),
      last: formatNumber(losses.at(-1), p) }));
  }

  // the forward values of the network at the cursor (MLP.forward on one row)
  function showForward() {
    if (!cursor) { readout.textContent = ''; readout.removeAttribute('data-values'); return; }
    const { as } = forward(run.state.net, [cursor]);
    const parts = [fill(words.at, { x1: formatNumber(cursor[0], p), x2: formatNumber(cursor[1], p) })];
    if (onPoint >= 0) parts.push(fill(words.point, { k: onPoint + 1, c: data().y[onPoint] }));
    const hidden = as.slice(1, -1).map((a, l) => fill(words.hidden, { l: l + 1, values: a[0].map((v) => formatNumber(v, p)).join(', ') }));
    readout.textContent = `${parts.join(', ')}: ${hidden.join('; ')}; ŷ = ${formatNumber(as.at(-1)[0][0], p)}`;
    readout.dataset.values = JSON.stringify(as.slice(1).map((a) => a[0].map(String)));
  }

  function moveCursor(x1, x2, point = -1) {
    const [low, high] = data().square;
    cursor = [Math.min(high, Math.max(low, x1)), Math.min(high, Math.max(low, x2))];
    onPoint = point;
    if (!pending) pending = requestAnimationFrame(() => { pending = 0; draw(); });
  }

  function addPoint() {
    const c = Number(newClass.control.value);
    // three decimals, as the page's data sets are written
    const point = [Math.round(cursor[0] * 1000) / 1000, Math.round(cursor[1] * 1000) / 1000, c];
    pause();
    history.push({ added: [...setting.added], run: { ...run, losses: [...run.losses] } });
    setting.added.push(point);
    restart(true);
    status.textContent = `${fill(words.added, { c, x1: formatNumber(point[0], 3), x2: formatNumber(point[1], 3) })}. ${status.textContent}`;
  }

  // the last added point taken back, and the run as it was before that point reset it
  function undo() {
    pause();
    const [x1, x2, c] = setting.added.at(-1);
    ({ added: setting.added, run } = history.pop());
    update();
    status.textContent = `${fill(words.undone, { c, x1: formatNumber(x1, 3), x2: formatNumber(x2, 3) })}. ${status.textContent}`;
  }

  const fromEvent = (event) => {
    const box = canvas.getBoundingClientRect();
    const scale = canvas.width / box.width;
    const [px, py] = [(event.clientX - box.left) * scale, (event.clientY - box.top) * scale];
    const near = data().X.findIndex(([a, b]) => Math.hypot(toPixel(a) - px, canvas.height - toPixel(b) - py) < 6);
    if (near >= 0) moveCursor(...data().X[near], near);
    else moveCursor(fromPixel(px), fromPixel(canvas.height - py));
  };
  // A press (mouse, pen or finger) moves the cursor there, which changes nothing of the run. A point is
  // added by a click or a tap in the add mode only; the browser sends no click for a swipe that scrolls
  // the page (it cancels the pointer instead), so scrolling over the map adds nothing.
  canvas.addEventListener('pointermove', fromEvent);
  canvas.addEventListener('pointerdown', fromEvent);
  canvas.addEventListener('click', (event) => {
    fromEvent(event);
    if (adding) addPoint();
  });
  canvas.addEventListener('focus', () => { if (!cursor) moveCursor(...data().X[0], 0); });
  canvas.addEventListener('keydown', (event) => {
    const [low, high] = data().square;
    const size = ((high - low) / 20) * (event.shiftKey ? 4 : 1);
    const move = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[event.key];
    const n = data().X.length;
    if (move) moveCursor(cursor[0] + move[0] * size, cursor[1] + move[1] * size);
    else if (event.key === 'PageDown' || event.key === 'PageUp') {
      const k = (onPoint + (event.key === 'PageDown' ? 1 : n - 1) + (onPoint < 0 ? n : 0)) % n;
      moveCursor(...data().X[k], k);
    } else if (event.key === 'Enter' || event.key === ' ') addPoint();
    else return;
    event.preventDefault();
  });

  // what tests/test_widgets.py reads: the exact numbers behind what is shown
  Object.defineProperty(root, 'mlpState', {
    get() {
      return { steps: run.steps, W: run.state.net.W, b: run.state.net.b, loss: run.state.loss, losses: run.losses,
        correct: correctCount(run.state, data().y), n: data().y.length, diverged: run.diverged, setting, adding,
        undoable: history.length, map: { grid: GRID, square: data().square, values: Array.from(drawn) } };
    },
  });

  const settingsBox = el('fieldset', {}, el('legend', { text: words.settings }),
    el('div', { class: 'mlp-widget__grid' }, dataSelect.row, depth.row, ...widths.map((w) => w.row), act.row, rate.row,
      seed.row, newClass.row), buttons, pointButtons);
  root.append(el('p', { class: 'mlp-widget__title', text: words.title }), settingsBox, status, error,
    el('div', { class: 'mlp-widget__grid' }, el('div', {}, canvas, readout), el('div', {}, curve, caption)));
  restart();
  if (urlSteps) steps(urlSteps);
}

for (const [root, config] of placeholders('training-playground')) build(root, config);
