// The web demo's headless check: Debian's Chromium with rendering on (software WebGL 2,
// SwiftShader) loads the demo served by `kcc-sim web-demo --serve`, and Playwright sends keys
// through the DevTools protocol (Input.dispatchKeyEvent) to walk the character up the sample
// course's main staircase (Stairs30cm: eight 0.3 m steps in front of the spawn) and back down,
// for each tick rate and shape asked. The page records every physics tick (position, floor,
// camera); the check asserts on that trace (on the floor every tick, one step per riser each
// way, the camera's jolt) and saves two screenshots per walk (on the stairs, at the top) into
// the output folder, each checked not to be blank.
//
//   node scripts/web-demo/check.mjs [--rates 60,144] [--shapes capsule,cylinder] [--out DIR]
//                                   [--max-jolt M] [--run] [--compare] [--capture DIR]
//
// With --capture DIR the walks up and back down are also recorded as the page draws them
// (Chromium's screencast, every frame it sends, JPEG) into DIR, numbered in order, with each
// frame's time in frames.json: the frames of the README's animation (scripts/web-demo/capture.sh).
//
// With --compare it replays instead: for each rate and shape, `kcc-sim --world godot` runs the
// scenario scenarios/web_demo/stairs30cm_<shape>.toml (the same staircase, walked by a script)
// and writes its trace; the page is loaded with that trace's input per tick (`input=`) from
// the scenario's start (`at=`), and the two traces must agree: the body within 1 cm on every
// tick (--max-gap M), on the floor on the same ticks. Both run our core against the same Godot.
//
// Needs the site's parts built (scripts/web-demo/build-wasm.sh) and Chromium (CHROMIUM, or
// chromium on PATH; scripts/godot-web/setup.sh installs it). Prints one line per walk and a
// summary; exits 1 when any walk fails.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
};
const rates = option('rates', '60,144').split(',').map(Number);
const shapes = option('shapes', 'capsule,cylinder').split(',');
// Shift walks (the stick pushed 0.3 of the way: 1.5 m/s); --run runs at 5 m/s.
const walkKey = process.argv.includes('--run') ? null : 'Shift';
const out = resolve(root, option('out', 'out/web-demo-check'));
mkdirSync(out, { recursive: true });

// The staircase (godot_project/course.tscn, Stairs30cm): risers from z = -2 going -z, 0.3 m
// each, the landing at 2.4 m from z = -4.4 on: eight risers.
const TOP = 2.4;
const LANDING_Z = -4.4;
const BOTTOM_Z = -2.0;
const RISE = 0.3;
const RISERS = Math.round(TOP / RISE);
// How far a step's height may be from the riser's (kcc-sim's `steps_per_riser`: 2 cm).
const RISER_TOLERANCE = 0.02;
// The largest jolt of the camera in one tick, m (see the walk's measure below and the
// docs/web-demo.md): 2 cm, or --max-jolt M.
const MAX_JOLT = Number(option('max-jolt', '0.02'));
// How far the page's body may be from kcc-sim's on any tick of a replay, m.
const MAX_GAP = Number(option('max-gap', '0.01'));
// Real seconds a walk may take before it counts as stuck.
const WALK_TIMEOUT = 90;
// Where the frames of the walks go (--capture).
const captureDir = option('capture', null);
if (captureDir) mkdirSync(resolve(root, captureDir), { recursive: true });

/** Records what `page` draws into the capture folder until the returned function is called;
 * a no-op without --capture. The stop function writes frames.json (file and time, s). */
async function record(page) {
  if (!captureDir) return async () => {};
  const session = await page.context().newCDPSession(page);
  const frames = [];
  session.on('Page.screencastFrame', async ({ data, metadata, sessionId }) => {
    const file = `frame-${String(frames.length).padStart(4, '0')}.jpg`;
    writeFileSync(resolve(root, captureDir, file), Buffer.from(data, 'base64'));
    frames.push({ file, time: metadata.timestamp });
    await session.send('Page.screencastFrameAck', { sessionId }).catch(() => {});
  });
  await session.send('Page.startScreencast', { format: 'jpeg', quality: 85, everyNthFrame: 1 });
  return async () => {
    await session.send('Page.stopScreencast');
    writeFileSync(resolve(root, captureDir, 'frames.json'), JSON.stringify(frames));
  };
}

const sleep = (ms) => new Promise((done) => { setTimeout(done, ms); });

/** Starts `kcc-sim web-demo --serve --port 0`; resolves with the site's URL and the process. */
function serve() {
  return new Promise((ready, failed) => {
    const server = spawn(join(root, 'scripts/kcc-sim.sh'), ['web-demo', '--serve', '--port', '0'],
      { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stderr.on('data', (chunk) => { text += chunk; });
    let text = '';
    server.stdout.on('data', (chunk) => {
      text += chunk;
      const found = text.match(/serving (http:\/\/127\.0\.0\.1:\d+)\//);
      if (found) ready({ url: found[1], server });
    });
    server.on('exit', (code) => failed(new Error(`kcc-sim web-demo exited with ${code}: ${text}`)));
  });
}

/** Counts colours of a PNG screenshot inside the browser (it decodes PNG; Node does not). */
async function colours(page, png) {
  return page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
    const seen = new Set();
    let stairs = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      seen.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4));
      // The stairs' material, warm orange (0.85, 0.55, 0.25) lit and tone-mapped: red the
      // largest, blue far below it.
      if (r > 150 && r >= g && b < 0.75 * g && r - b > 80) stairs += 1;
    }
    return { distinct: seen.size, stairs: stairs / (data.length / 4) };
  }, png.toString('base64'));
}

async function trace(page) {
  return page.evaluate(() => window.kccDemo.trace.slice());
}

async function last(page) {
  return page.evaluate(() => {
    const all = window.kccDemo.trace;
    return all.length ? all[all.length - 1] : null;
  });
}

/** Holds `key` until `done(row)` is true for the newest tick; false on timeout. */
async function holdUntil(page, key, done) {
  if (walkKey) await page.keyboard.down(walkKey);
  await page.keyboard.down(key);
  const start = Date.now();
  try {
    while (Date.now() - start < WALK_TIMEOUT * 1000) {
      const row = await last(page);
      if (row && done(row)) return true;
      await sleep(100);
    }
    return false;
  } finally {
    await page.keyboard.up(key);
    if (walkKey) await page.keyboard.up(walkKey);
  }
}

async function walk(browser, url, rate, shape) {
  const name = `${shape}-${rate}hz`;
  const page = await browser.newPage({ viewport: { width: 640, height: 360 } });
  const problems = [];
  try {
    await page.goto(`${url}/?rate=${rate}&shape=${shape}`);
    await page.waitForFunction(() => window.kccDemo && window.kccDemo.trace.length > 30,
      null, { timeout: 60000 });
    const log = await page.evaluate(() => window.kccDemo.log.join('\n'));
    if (!log.includes(`demo: ready at ${rate} Hz with a ${shape}`)) {
      problems.push(`the demo did not start at ${rate} Hz with a ${shape}: ${log.slice(-300)}`);
    }
    const begin = (await last(page)).tick;
    // Up, with a screenshot half way.
    let onStairs = null;
    const stopRecording = await record(page);
    const up = await holdUntil(page, 'KeyW', (row) => {
      if (!onStairs && row.y > 0.9 && row.y < 1.6) onStairs = true;
      return row.y > TOP - 0.01 && row.z < LANDING_Z - 0.3;
    });
    if (!up) problems.push('did not reach the top');
    await sleep(300);
    const shots = {};
    shots.top = await page.screenshot({ path: join(out, `${name}-top.png`) });
    const topTick = (await last(page)).tick;
    // Down, walking backwards (the camera keeps looking up the stairs).
    const down = await holdUntil(page, 'KeyS', (row) => row.y < 0.01 && row.z > BOTTOM_Z + 0.5);
    await stopRecording();
    if (!down) problems.push('did not come back down');
    const bottomTick = (await last(page)).tick;
    // A screenshot on the stairs: walk up three steps again.
    await holdUntil(page, 'KeyW', (row) => row.y > 0.85);
    await sleep(200);
    shots.stairs = await page.screenshot({ path: join(out, `${name}-stairs.png`) });
    const rows = (await trace(page)).filter((row) => row.tick > begin);
    writeFileSync(join(out, `${name}-trace.json`), JSON.stringify(rows));

    // On the floor every tick.
    const off = rows.filter((row) => !row.onFloor).map((row) => row.tick);
    if (off.length) problems.push(`off the floor at ${off.length} ticks (${off.slice(0, 5)})`);
    if (rows.some((row) => row.shape !== shape || Math.abs(row.dt - 1 / rate) > 1e-4)) {
      problems.push('a tick ran with another shape or rate');
    }
    // The camera's jolt: how much its vertical speed changes from one tick to the next once
    // the smoother's own ease-back is taken out: a drop or lift the smoother was not told of
    // shows as a jolt of its height; walking a slope, or rolling over a rounded edge, does not.
    let jolt = 0;
    let cameraMove = 0;
    let bodyMove = 0;
    let previous = 0;
    const decay = 20;
    for (let i = 1; i < rows.length; i += 1) {
      const [a, b] = [rows[i - 1], rows[i]];
      const ease = -(a.cameraOffset - b.stepped) * (1 - Math.exp(-decay * b.dt));
      const change = b.cameraY - a.cameraY;
      const own = change - ease;
      if (i > 1) jolt = Math.max(jolt, Math.abs(own - previous));
      previous = own;
      cameraMove = Math.max(cameraMove, Math.abs(change));
      bodyMove = Math.max(bodyMove, Math.abs(b.y - a.y));
    }
    if (jolt > MAX_JOLT) problems.push(`camera jolt ${(jolt * 100).toFixed(1)} cm in a tick`);
    const steps = rows.filter((row) => row.stepped !== 0).length;
    // One step per riser (the core's flat base stands a capsule on each edge, as a cylinder
    // stands): the eight risers up, the eight down, then up again as many as lie under the
    // highest point of the last climb (three for 0.85 m, more when the key comes up late), each
    // within 2 cm of 0.3 m and the right way.
    const again = rows.filter((row) => row.tick > bottomTick);
    const againTop = Math.max(0, ...again.map((row) => row.y));
    const phases = [
      ['up', begin, topTick, RISERS, 1],
      ['down', topTick, bottomTick, RISERS, -1],
      ['up again', bottomTick, Infinity, Math.round(againTop / RISE), 1],
    ];
    const counts = [];
    for (const [what, from, to, risers, sign] of phases) {
      const dys = rows.filter((row) => row.tick > from && row.tick <= to && row.stepped !== 0)
        .map((row) => row.stepped);
      const off = dys.filter((dy) => Math.sign(dy) !== sign
        || Math.abs(Math.abs(dy) - RISE) > RISER_TOLERANCE);
      counts.push(dys.length);
      if (dys.length !== risers || off.length) {
        problems.push(`${what}: ${dys.length} step ticks for ${risers} risers of ${RISE} m`
          + (off.length ? `, ${off.length} not ${sign * RISE} m within 2 cm (${off.slice(0, 5)})` : ''));
      }
    }
    if (againTop <= 0.85) problems.push(`climbed back only to ${againTop.toFixed(3)} m`);
    // The screenshots: not blank, the course's colours there.
    for (const [where, png] of Object.entries(shots)) {
      const seen = await colours(page, png);
      if (seen.distinct < 16) problems.push(`${where} screenshot has ${seen.distinct} colours`);
      if (where === 'stairs' && seen.stairs < 0.05) {
        problems.push(`${where} screenshot shows ${(seen.stairs * 100).toFixed(1)} % stairs`);
      }
    }
    const summary = `${rows.length} ticks, top ${Math.max(...rows.map((r) => r.y)).toFixed(3)} m, `
      + `${steps} step ticks (${counts[0]} up, ${counts[1]} down, ${counts[2]} up again), camera jolt at most ${(jolt * 100).toFixed(2)} cm `
      + `(camera moved at most ${(cameraMove * 100).toFixed(1)} cm in a tick, the body `
      + `${(bodyMove * 100).toFixed(1)} cm)`;
    return { name, problems, summary };
  } catch (error) {
    problems.push(String(error));
    return { name, problems, summary: '' };
  } finally {
    await page.close();
  }
}

/** What the replay needs of a scenario file: its `name` and its `[start]` position (m). */
function scenarioFacts(scenario) {
  const text = readFileSync(join(root, scenario), 'utf8');
  const name = text.match(/^name\s*=\s*"([\w-]+)"/m);
  const start = text.match(/\[start\][^[]*?position\s*=\s*\[([^\]]+)\]/);
  if (!name || !start) throw new Error(`${scenario}: no name or no [start] position`);
  return { name: name[1], start: start[1].split(',').map(Number) };
}

/** Runs `scenario` (named `name`) in kcc-sim's Godot world at `rate` Hz; its trace's rows, by
 * column name. */
function simulate(scenario, name, rate) {
  const dir = join(out, 'kcc-sim');
  const result = spawnSync(join(root, 'scripts/kcc-sim.sh'),
    ['run', scenario, '--world', 'godot', '--tick-rate', String(rate), '--trace', dir],
    { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`kcc-sim run ${scenario} failed: ${result.stdout}${result.stderr}`);
  }
  const stem = `${name}_${rate}hz_kcc_godot`;
  const [header, ...lines] = readFileSync(join(dir, `${stem}.csv`), 'utf8').trim().split('\n');
  const columns = header.split(',');
  return lines.map((line) => Object.fromEntries(
    line.split(',').map((cell, i) => [columns[i], cell])));
}

/** The page's `input=` for `rows`: runs of equal input, `x,y,z,jump,crouch,ticks;...`. */
function scriptOf(rows) {
  const runs = [];
  for (const row of rows) {
    const key = [row.wish_x, row.wish_y, row.wish_z, row.jump, row.crouch].join(',');
    const previous = runs[runs.length - 1];
    if (previous && previous.key === key) previous.ticks += 1;
    else runs.push({ key, ticks: 1 });
  }
  return runs.map((run) => `${run.key},${run.ticks}`).join(';');
}

/** Replays the kcc-sim walk of `shape` at `rate` Hz in the page and compares the traces. */
async function replay(browser, url, rate, shape) {
  const name = `replay-${shape}-${rate}hz`;
  const problems = [];
  let page = null;
  try {
    const scenario = `scenarios/web_demo/stairs30cm_${shape}.toml`;
    const facts = scenarioFacts(scenario);
    const sim = simulate(scenario, facts.name, rate);
    const at = facts.start.join(',');
    page = await browser.newPage({ viewport: { width: 640, height: 360 } });
    const query = new URLSearchParams({ rate, shape, at, input: scriptOf(sim) });
    await page.goto(`${url}/?${query}`);
    await page.waitForFunction((count) => window.kccDemo && window.kccDemo.trace.length >= count,
      sim.length, { timeout: (60 + WALK_TIMEOUT) * 1000 });
    const log = await page.evaluate(() => window.kccDemo.log.join('\n'));
    if (!log.includes(`demo: ${sim.length} scripted ticks`)) {
      problems.push(`the page did not take the ${sim.length} scripted ticks: ${log.slice(-300)}`);
    }
    const rows = (await trace(page)).slice(0, sim.length);
    writeFileSync(join(out, `${name}-trace.json`), JSON.stringify(rows));
    let gap = 0;
    let worst = 0;
    let floorDiffers = 0;
    rows.forEach((row, i) => {
      const s = sim[i];
      const d = Math.hypot(row.x - Number(s.x_m), row.y - Number(s.y_m), row.z - Number(s.z_m));
      if (d > gap) [gap, worst] = [d, i + 1];
      if (row.onFloor !== (s.on_floor === '1')) floorDiffers += 1;
    });
    if (rows.length !== sim.length || rows[0].tick !== 1) {
      problems.push(`the page's trace has ${rows.length} ticks from tick ${rows[0]?.tick}`);
    }
    if (gap > MAX_GAP) {
      problems.push(`${(gap * 1000).toFixed(3)} mm apart at tick ${worst} (at most `
        + `${(MAX_GAP * 1000).toFixed(3)} mm)`);
    }
    if (floorDiffers) problems.push(`on floor differs on ${floorDiffers} ticks`);
    const top = Math.max(...rows.map((r) => r.y));
    const summary = `${rows.length} ticks against kcc-sim --world godot: largest gap `
      + `${(gap * 1000).toFixed(3)} mm (tick ${worst}), top ${top.toFixed(3)} m, `
      + `end z ${rows[rows.length - 1].z.toFixed(3)} m`;
    return { name, problems, summary };
  } catch (error) {
    problems.push(String(error));
    return { name, problems, summary: '' };
  } finally {
    if (page) await page.close();
  }
}

// The light crate (godot_project/course.tscn, LightCrate: 10 kg, 1 m wide and deep) at x = 3,
// z = 7, its back face at z = 7.5: a character walking -z into it stops at z = 7.9 unless it
// pushes it.
const CRATE_STOP_Z = 7.9;

/**
 * Pushes the light crate at `rate` Hz with `shape`: from 1.1 m behind where it would stop,
 * 2.5 s of a full walk toward -z (the page's `input=`); the body must end at least 1 m past
 * that stop, on the floor every tick.
 */
async function pushCrate(browser, url, rate, shape) {
  const name = `push-${shape}-${rate}hz`;
  const problems = [];
  let page = null;
  try {
    const ticks = Math.round(2.5 * rate);
    page = await browser.newPage({ viewport: { width: 640, height: 360 } });
    const at = `3,0,${CRATE_STOP_Z + 1.1}`;
    const query = new URLSearchParams({ rate, shape, at, yaw: 0, input: `0,0,-1,0,0,${ticks}` });
    await page.goto(`${url}/?${query}`);
    await page.waitForFunction((count) => window.kccDemo && window.kccDemo.trace.length >= count,
      ticks, { timeout: (60 + WALK_TIMEOUT) * 1000 });
    const rows = (await trace(page)).slice(0, ticks);
    writeFileSync(join(out, `${name}-trace.json`), JSON.stringify(rows));
    const end = rows[rows.length - 1].z;
    if (end > CRATE_STOP_Z - 1.0) {
      problems.push(`ended at z ${end.toFixed(3)} m: the crate was not pushed (it stops the body `
        + `at ${CRATE_STOP_Z} m)`);
    }
    const off = rows.filter((row) => !row.onFloor).length;
    if (off) problems.push(`off the floor on ${off} ticks`);
    return { name, problems, summary: `${rows.length} ticks, end z ${end.toFixed(3)} m` };
  } catch (error) {
    problems.push(String(error));
    return { name, problems, summary: '' };
  } finally {
    if (page) await page.close();
  }
}

// The seesaw (godot_project/course.tscn, Seesaw: a 4 m plank of 20 kg on a wedge 0.4 m high at
// x = 8, z = 10, its near end on the floor at z = 11.96, its far end 0.8 m up at z = 8.04).
const SEESAW_START_Z = 13.5;
// Highest the body may get: past the wedge the plank tips under its weight (about 0.5 m); a
// plank that did not tip carries it up to 0.8 m at its far end.
const SEESAW_TOP = 0.6;

/**
 * Walks across the seesaw at `rate` Hz with `shape`: 5 s at 0.4 of the stick (2 m/s) toward -z
 * from in front of its near end. The plank must tip under the character (never above
 * SEESAW_TOP), and the body must walk off its far end, on the floor every tick.
 */
async function walkSeesaw(browser, url, rate, shape) {
  const name = `seesaw-${shape}-${rate}hz`;
  const problems = [];
  let page = null;
  try {
    const ticks = Math.round(5 * rate);
    page = await browser.newPage({ viewport: { width: 640, height: 360 } });
    const at = `8,0,${SEESAW_START_Z}`;
    const query = new URLSearchParams({ rate, shape, at, yaw: 0, input: `0,0,-0.4,0,0,${ticks}` });
    await page.goto(`${url}/?${query}`);
    await page.waitForFunction((count) => window.kccDemo && window.kccDemo.trace.length >= count,
      ticks, { timeout: (60 + WALK_TIMEOUT) * 1000 });
    const rows = (await trace(page)).slice(0, ticks);
    writeFileSync(join(out, `${name}-trace.json`), JSON.stringify(rows));
    const top = Math.max(...rows.map((row) => row.y));
    if (top > SEESAW_TOP) {
      problems.push(`rose to ${top.toFixed(3)} m: the seesaw did not tip`);
    }
    const end = rows[rows.length - 1];
    if (end.z > 7.5 || end.y > 0.01) {
      problems.push(`ended at z ${end.z.toFixed(3)}, y ${end.y.toFixed(3)} m, not past the plank`);
    }
    const off = rows.filter((row) => !row.onFloor).length;
    if (off) problems.push(`off the floor on ${off} ticks`);
    return { name, problems, summary: `${rows.length} ticks, highest ${top.toFixed(3)} m` };
  } catch (error) {
    problems.push(String(error));
    return { name, problems, summary: '' };
  } finally {
    if (page) await page.close();
  }
}

/** The Chromium binary: CHROMIUM, or the first of the usual names on PATH. */
function chromiumBinary() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`]).toString().trim();
    } catch {
      // not this one
    }
  }
  console.error('web-demo-check: no Chromium: run scripts/godot-web/setup.sh or set CHROMIUM');
  process.exit(1);
}

const executablePath = chromiumBinary();
const { url, server } = await serve();
let failed = 0;
try {
  const browser = await chromium.launch({
    executablePath,
    args: ['--headless=new', '--enable-unsafe-swiftshader', '--no-sandbox',
      '--disable-background-timer-throttling', '--disable-renderer-backgrounding'],
  });
  try {
    for (const rate of rates) {
      for (const shape of shapes) {
        const result = process.argv.includes('--compare')
          ? await replay(browser, url, rate, shape)
          : await walk(browser, url, rate, shape);
        const ok = result.problems.length === 0;
        if (!ok) failed += 1;
        console.log(`web-demo-check ${result.name}: ${ok ? 'PASS' : 'FAIL'} ${result.summary}`
          + (ok ? '' : `: ${result.problems.join('; ')}`));
      }
    }
    if (!process.argv.includes('--compare')) {
      for (const task of [pushCrate, walkSeesaw]) {
        const result = await task(browser, url, rates[0], shapes[0]);
        const ok = result.problems.length === 0;
        if (!ok) failed += 1;
        console.log(`web-demo-check ${result.name}: ${ok ? 'PASS' : 'FAIL'} ${result.summary}`
          + (ok ? '' : `: ${result.problems.join('; ')}`));
      }
    }
  } finally {
    await browser.close();
  }
} finally {
  process.kill(-server.pid, 'SIGTERM');
}
const compare = process.argv.includes('--compare');
const total = rates.length * shapes.length + (compare ? 0 : 2);
const what = compare ? 'replays' : 'walks, a push and the seesaw';
console.log(`web-demo-check: ${total - failed} of ${total} ${what} passed; screenshots and traces in ${out}`);
process.exit(failed ? 1 : 0);
