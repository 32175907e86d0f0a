// Loads the wasm core (argument: the .wasm file) in Node and checks its ABI end to end, with
// the port answered in JavaScript by an endless flat floor at height 0, the way the page
// answers it from Godot: vectors written into the mailbox, flags and numbers returned.
// Exits 1 with a line saying what went wrong.
import { readFileSync } from 'node:fs';

const fail = (why) => {
  console.error(`wasm-smoke: ${why}`);
  process.exit(1);
};

const file = process.argv[2] || fail('usage: node wasm-smoke.mjs kcc_wasm.wasm');
const body = { position: [0, 0, 0], onFloor: true };
let mailbox = null;
const put = (values) => values.forEach((v, i) => { mailbox[i] = v; });
const host = {
  host_position: () => put(body.position),
  host_set_position: (_b, x, y, z) => { body.position = [x, y, z]; },
  host_test_move: (_b, fx, fy, fz, mx, my, mz) => {
    const endY = fy + my;
    if (endY >= 0) {
      put([mx, my, mz, 0, 0, 0]);
      return 0;
    }
    const part = my < 0 ? fy / -my : 0;
    const travel = [mx * part, my * part, mz * part];
    put([...travel, mx - travel[0], my - travel[1], mz - travel[2], 0, 1, 0,
      fx + travel[0], 0, fz + travel[2], 0]);
    return 1;
  },
  host_move_and_slide: (_b, vx, vy, vz, dt) => {
    const [x, y, z] = body.position;
    const ny = Math.max(0, y + vy * dt);
    body.position = [x + vx * dt, ny, z + vz * dt];
    body.onFloor = ny <= 1e-4;
    put([vx, body.onFloor ? Math.max(vy, 0) : vy, vz]);
  },
  host_slide_collision: () => 0,
  host_slide_collision_count: () => 0,
  host_touched_body: () => 0,
  host_push_body: () => {},
  host_floor_body: () => 0,
  host_press_floor_body: () => {},
  host_is_on_floor: () => (body.onFloor ? 1 : 0),
  host_is_on_wall: () => 0,
  host_wall_normal: () => put([0, 0, 0]),
  host_floor_normal: () => put([0, 1, 0]),
  host_apply_floor_snap: () => {},
  host_up_direction: () => put([0, 1, 0]),
  host_floor_max_angle: () => Math.PI / 4,
  host_safe_margin: () => 0.001,
  host_shape_height: () => 1.8,
  host_shape_radius: () => 0.4,
  host_set_shape_height: () => {},
};

const { instance } = await WebAssembly.instantiate(readFileSync(file), { kcc_host: host });
const abi = instance.exports;
const memory = () => abi.memory.buffer;
mailbox = new Float32Array(memory(), abi.kcc_mailbox(), 32);

const text = (ptr, len) => new TextDecoder().decode(new Uint8Array(memory(), ptr, len));
const newCharacter = (settings) => {
  const bytes = new TextEncoder().encode(settings);
  const ptr = abi.kcc_alloc(bytes.length);
  new Uint8Array(memory(), ptr, bytes.length).set(bytes);
  const handle = abi.kcc_character_new(7, ptr, bytes.length);
  abi.kcc_release(ptr, bytes.length);
  return handle;
};

// Bad settings: no character, and a reason.
if (newCharacter('{"stairs": {"max_step_height": -1}}') !== 0) fail('a negative step height was taken');
const reason = text(abi.kcc_error_ptr(), abi.kcc_error_len());
if (!reason.includes('stairs.max_step_height')) fail(`the reason does not name the setting: ${reason}`);

// One second of holding forward at 60 Hz with a top speed of 3 m/s.
const handle = newCharacter('{"movement": {"ground": {"max_speed": 3, "attack_time": 0.2, "release_time": 0.15}}}');
if (handle === 0) fail(`no character: ${text(abi.kcc_error_ptr(), abi.kcc_error_len())}`);
let v = [0, 0, 0];
for (let tick = 0; tick < 60; tick += 1) {
  if (abi.kcc_tick(handle, 0, 0, -1, 0, 0, v[0], v[1], v[2], 1 / 60) !== 1) fail(`tick ${tick} refused`);
  mailbox = new Float32Array(memory(), abi.kcc_mailbox(), 32);
  v = [mailbox[0], mailbox[1], mailbox[2]];
  if (mailbox[11] !== 1) fail(`off the floor at tick ${tick}`);
}
const speed = Math.hypot(v[0], v[2]);
if (Math.abs(speed - 3) > 1e-3) fail(`top speed ${speed} m/s, not 3`);
if (!(body.position[2] < -2.5)) fail(`moved only to z ${body.position[2]}`);
if (abi.kcc_tick(handle + 1, 0, 0, -1, 0, 0, 0, 0, 0, 1 / 60) !== 0) fail('an unknown handle ticked');
console.log(`wasm-smoke: ok (${WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(file))).length} exports; 3.00 m/s after 1 s, z ${body.position[2].toFixed(3)} m)`);
