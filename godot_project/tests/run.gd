extends SceneTree
## Headless tests of RustCharacterBody3D in a running Godot, on tests/stairs_test.tscn.
##
## Run from the repository root:
##   godot --headless --fixed-fps 60 --path godot_project --script res://tests/run.gd
## Prints one line per check and then "N passed, N failed"; quits with code 1 when a check
## failed, or when a test stopped without finishing (a script error ends a coroutine silently:
## the runner waits at most TEST_FRAMES physics frames for each test). The body is driven
## through its script API (set_wish_direction, tick, move_and_step and the building blocks),
## one call per physics frame, as a game's _physics_process would. The checks mirror the
## core's course tests (rust/kcc-parry/tests).

const STAIRS_SCENE := "res://tests/stairs_test.tscn"
## Physics tick, s (the project runs 60 physics ticks per second).
const TICK := 1.0 / 60.0
## Riser height and number of steps of the test stairs (tread depth 0.3 m as well), m.
const RISE := 0.3
const STEP_COUNT := 10
## Walking speed of the tests, m/s (the scene's player has max_speed 4).
const SPEED := 4.0
## Largest error accepted on a height, m.
const HEIGHT_TOLERANCE := 0.05
## The stairs climb toward -z: front of the first step and start of the top landing (z, m).
const STAIRS_FRONT_Z := -1.0
const LANDING_Z := -4.0
## The lane of the stairs and the lane of the thin ledge (x, m). The ledge (0.3 m high, 0.05 m
## deep) stands against a 3 m wall whose front face is at z = -2.
const STAIRS_X := 0.0
const LEDGE_X := 5.0
const LEDGE_FRONT_Z := -1.95
const FORWARD := Vector3(0, 0, -1)
const BACK := Vector3(0, 0, 1)
const GRAVITY := 9.8
## Longest a test may take, in physics frames, before the runner counts it as stopped by an
## error (the longest test walks 300 ticks).
const TEST_FRAMES := 1200

var _passed := 0
var _failed := 0


func _initialize() -> void:
	_run_all.call_deferred()


func _run_all() -> void:
	if ClassDB.class_exists("RustCharacterBody3D"):
		for test in [
			_test_climbs_stairs,
			_test_descends_on_floor,
			_test_stops_at_riser_without_step_up,
			_test_does_not_climb_thin_ledge,
			_test_move_and_step_climbs,
			_test_building_blocks_climb,
			_test_iterate_sweep_finds_floor,
			_test_jump_tap_and_hold,
			_test_crouch_waits_for_room_to_stand,
		]:
			if not await _finishes(test):
				_check(test.get_method(), false, "stopped without finishing: see the error above")
				break
	else:
		_check("extension loaded", false, "RustCharacterBody3D is not registered: build the addon")
	print("%d passed, %d failed" % [_passed, _failed])
	quit(1 if _failed > 0 else 0)


## Runs `test` and waits for it: true when it finished within TEST_FRAMES physics frames. A
## script error stops a coroutine without a word to its caller, so it is not awaited directly.
func _finishes(test: Callable) -> bool:
	var state := {"done": false}
	var run := func() -> void:
		await test.call()
		state["done"] = true
	run.call()
	for _i in TEST_FRAMES:
		if state["done"]:
			return true
		await physics_frame
	return state["done"]


## Climbs 10 stairs of 0.3 m x 0.3 m at 4 m/s, with one `stepped` per step. With the flat base
## (flat_base, on by default) the capsule stands on each step's edge with its feet at the edge's
## height, so each `stepped` is the riser (less the rounding of Jolt's box edges), never more.
func _test_climbs_stairs() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	var steps := _record_steps(body)
	var start_z: float = body.global_position.z
	var goal_z := LANDING_Z - 0.5
	body.set_wish_direction(FORWARD)
	var ticks := 0
	while body.global_position.z > goal_z and ticks < 180:
		await physics_frame
		body.tick(TICK)
		ticks += 1
	var top := RISE * STEP_COUNT
	var height: float = body.global_position.y
	_check(
		"climbs 10 stairs of 0.3 m to the landing",
		absf(height - top) < HEIGHT_TOLERANCE and body.is_on_floor(),
		"height %.3f m (expected %.2f m), on floor %s" % [height, top, body.is_on_floor()]
	)
	var ideal := (start_z - goal_z) / SPEED
	_check(
		"reaches the landing within 1.5 x the ideal time",
		ticks * TICK <= 1.5 * ideal + 0.1,
		"took %.2f s, ideal %.2f s" % [ticks * TICK, ideal]
	)
	_check(
		"stepped reports each riser once, most of its 0.3 m",
		_one_step_per_riser(steps, RISE),
		"stepped heights %s" % [steps]
	)
	await _unload(world)


## Walks down the same stairs at 4 m/s, on floor every tick, with one `stepped` per step down.
func _test_descends_on_floor() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	var top := RISE * STEP_COUNT
	await _settle(body, Vector3(STAIRS_X, top + 0.05, LANDING_Z - 1.5))
	_check(
		"starts on the landing",
		body.is_on_floor() and absf(body.global_position.y - top) < HEIGHT_TOLERANCE,
		"height %.3f m, on floor %s" % [body.global_position.y, body.is_on_floor()]
	)
	var steps := _record_steps(body)
	body.set_wish_direction(BACK)
	var ticks := 0
	var airborne := 0
	while body.global_position.z < STAIRS_FRONT_Z + 1.0 and ticks < 180:
		await physics_frame
		body.tick(TICK)
		ticks += 1
		if not body.is_on_floor():
			airborne += 1
	var height: float = body.global_position.y
	_check(
		"walks down to the floor",
		absf(height) < HEIGHT_TOLERANCE,
		"height %.3f m after %d ticks" % [height, ticks]
	)
	_check("stays on the floor every tick going down", airborne == 0, "%d ticks in the air" % airborne)
	_check(
		"stepped reports each step down once, most of its -0.3 m",
		_one_step_per_riser(steps, -RISE),
		"stepped heights %s" % [steps]
	)
	await _unload(world)


## With step_up_enabled off the body stops at the first riser.
func _test_stops_at_riser_without_step_up() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	body.step_up_enabled = false
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	body.set_wish_direction(FORWARD)
	for _i in 90:
		await physics_frame
		body.tick(TICK)
	var position: Vector3 = body.global_position
	_check(
		"stops at the first riser with step_up_enabled off",
		position.y < HEIGHT_TOLERANCE and position.z > STAIRS_FRONT_Z - 0.05,
		"ended at %s" % [position]
	)
	await _unload(world)


## A ledge 0.3 m high but only 0.05 m deep, against a wall, is not a step.
func _test_does_not_climb_thin_ledge() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(LEDGE_X, 0.05, 0.5))
	var steps := _record_steps(body)
	body.set_wish_direction(FORWARD)
	var highest := 0.0
	for _i in 90:
		await physics_frame
		body.tick(TICK)
		highest = maxf(highest, body.global_position.y)
	var position: Vector3 = body.global_position
	_check(
		"does not climb the thin ledge",
		highest < HEIGHT_TOLERANCE and steps.is_empty(),
		"highest %.3f m, stepped %s" % [highest, steps]
	)
	_check(
		"walks up to the ledge",
		position.z < LEDGE_FRONT_Z + 0.4,
		"stopped at z = %.3f, the ledge is at %.2f" % [position.z, LEDGE_FRONT_Z]
	)
	await _unload(world)


## move_and_step(), the drop-in for move_and_slide(), climbs with the game's own velocity.
func _test_move_and_step_climbs() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	var steps := _record_steps(body)
	var ticks := 0
	while body.global_position.z > LANDING_Z - 0.5 and ticks < 240:
		await physics_frame
		var velocity: Vector3 = body.velocity
		body.velocity = Vector3(0, velocity.y - GRAVITY * TICK, -SPEED)
		body.move_and_step(TICK)
		ticks += 1
	var height: float = body.global_position.y
	_check(
		"move_and_step climbs the stairs",
		absf(height - RISE * STEP_COUNT) < HEIGHT_TOLERANCE,
		"height %.3f m after %d ticks" % [height, ticks]
	)
	_check(
		"move_and_step emits stepped once per riser",
		_one_step_per_riser(steps, RISE),
		"stepped heights %s" % [steps]
	)
	await _unload(world)


## The article's order by hand: stair_step_up (lifts the body onto a step), move_and_slide
## (carries it across the tread: the body moves once per tick), stair_step_down. A capsule
## rolls the rest of each riser in the slides, so the steps give most of the height.
func _test_building_blocks_climb() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	var ticks := 0
	var lifted := 0.0
	while body.global_position.z > LANDING_Z - 0.5 and ticks < 300:
		await physics_frame
		var velocity: Vector3 = body.velocity
		body.velocity = Vector3(0, minf(velocity.y, 0.0) - GRAVITY * TICK, -SPEED)
		var was_grounded: bool = body.is_on_floor()
		lifted += body.stair_step_up(TICK)
		body.move_and_slide()
		body.stair_step_down(was_grounded)
		ticks += 1
	var height: float = body.global_position.y
	_check(
		"stair_step_up + move_and_slide + stair_step_down climb the stairs",
		absf(height - RISE * STEP_COUNT) < HEIGHT_TOLERANCE and lifted >= RISE * STEP_COUNT / 2,
		"height %.3f m, stepped up %.2f m in all, after %d ticks" % [height, lifted, ticks]
	)
	await _unload(world)


## iterate_sweep() sweeps the shape without moving the body.
func _test_iterate_sweep_finds_floor() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	var before: Vector3 = body.global_position
	var from: Transform3D = body.global_transform.translated(Vector3(0, 1, 0))
	var swept: Transform3D = body.iterate_sweep(from, Vector3(0, -3, 0))
	_check(
		"iterate_sweep stops on the floor and leaves the body alone",
		absf(swept.origin.y) < 0.01 and body.global_position.is_equal_approx(before),
		"sweep ended at %s, body at %s" % [swept.origin, body.global_position]
	)
	await _unload(world)


## Adds a fresh copy of the test scene and lets the physics server take in its bodies.
## A press jumps once. Held, the jump rises about v²/2g; tapped (released after 3 ticks), it
## keeps only `jump_release_cut` of its upward speed and rises far less; holding the button
## after landing does not jump again.
func _test_jump_tap_and_hold() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	var floor_y: float = body.global_position.y
	var hold: float = await _jump_apex(body, TEST_FRAMES) - floor_y
	var again := false
	for _i in 20:
		await physics_frame
		body.tick(TICK)
		again = again or not body.is_on_floor()
	# One tick with the button up, so that the next press is a press.
	body.set_jump_pressed(false)
	await physics_frame
	body.tick(TICK)
	var tap: float = await _jump_apex(body, 3) - floor_y
	var speed: float = body.jump_velocity
	var expected := speed * speed / (2.0 * GRAVITY)
	_check(
		"a held jump rises v²/2g",
		absf(hold - expected) < 0.1,
		"rose %.3f m, expected %.3f m" % [hold, expected]
	)
	_check(
		"holding jump after landing does not jump again",
		not again,
		"left the floor again while the button stayed held"
	)
	_check(
		"a tapped jump rises less than 0.6 of a held one",
		tap > 0.0 and tap < 0.6 * hold,
		"tap %.3f m, hold %.3f m" % [tap, hold]
	)
	await _unload(world)


func _test_crouch_waits_for_room_to_stand() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	var holder: CollisionShape3D = body.get_node("CollisionShape3D")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	var standing: float = holder.shape.height
	var bottom := holder.global_position.y - standing * 0.5
	body.set_crouch_pressed(true)
	await physics_frame
	body.tick(TICK)
	var crouched: float = holder.shape.height
	var crouched_bottom := holder.global_position.y - crouched * 0.5
	# A ceiling 0.1 m above the crouched head: no room for the standing shape.
	var ceiling := StaticBody3D.new()
	var slab := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(2.0, 0.2, 2.0)
	slab.shape = box
	ceiling.add_child(slab)
	world.add_child(ceiling)
	ceiling.global_position = body.global_position + Vector3(0.0, crouched + 0.2, 0.0)
	body.set_crouch_pressed(false)
	for _i in 5:
		await physics_frame
		body.tick(TICK)
	var stayed: bool = body.is_crouched()
	ceiling.queue_free()
	for _i in 3:
		await physics_frame
		body.tick(TICK)
	_check(
		"holding crouch shrinks the shape to crouch_height, its bottom kept",
		absf(crouched - body.crouch_height) < 1e-4 and absf(crouched_bottom - bottom) < 1e-4,
		"height %.3f m (crouch_height %.3f m), bottom %.4f m (was %.4f m)"
		% [crouched, body.crouch_height, crouched_bottom, bottom]
	)
	_check(
		"released under a ceiling, the body stays crouched",
		stayed,
		"stood up into the ceiling"
	)
	_check(
		"with room again, the body stands up to its own height",
		not body.is_crouched() and absf(holder.shape.height - standing) < 1e-4,
		"crouched %s, height %.3f m (standing %.3f m)"
		% [body.is_crouched(), holder.shape.height, standing]
	)
	await _unload(world)


## Presses jump on a body resting on the floor with the button up, releases it after `held`
## ticks (it stays held when the jump lands first), and returns the highest the body got
## before it landed again, m.
func _jump_apex(body, held: int) -> float:
	var apex: float = body.global_position.y
	var left := false
	body.set_jump_pressed(true)
	for tick in 120:
		await physics_frame
		if tick == held:
			body.set_jump_pressed(false)
		body.tick(TICK)
		apex = maxf(apex, body.global_position.y)
		if not body.is_on_floor():
			left = true
		elif left:
			break
	return apex


func _load_world() -> Node3D:
	var scene := load(STAIRS_SCENE) as PackedScene
	var world := scene.instantiate() as Node3D
	root.add_child(world)
	for _i in 3:
		await physics_frame
	return world


func _unload(world: Node3D) -> void:
	world.queue_free()
	await process_frame


## Puts the body at `place`, at rest with no input, and lets it fall onto the floor.
func _settle(body, place: Vector3) -> void:
	body.global_position = place
	body.velocity = Vector3.ZERO
	body.set_wish_direction(Vector3.ZERO)
	body.set_jump_pressed(false)
	for _i in 20:
		await physics_frame
		body.tick(TICK)


## Collects every `stepped` height of `body` into the returned array.
func _record_steps(body) -> Array[float]:
	var steps: Array[float] = []
	body.stepped.connect(func(height: float) -> void: steps.append(height))
	return steps


## True when `steps` holds one step per riser of the test stairs, each with the sign of
## `riser` (m) and between half of it and all of it (plus the tolerance).
func _one_step_per_riser(steps: Array[float], riser: float) -> bool:
	if steps.size() != STEP_COUNT:
		return false
	for step in steps:
		var share := step / riser
		if share < 0.5 or absf(step) > absf(riser) + HEIGHT_TOLERANCE:
			return false
	return true


func _check(name: String, passed: bool, detail: String) -> void:
	if passed:
		_passed += 1
		print("PASS %s" % name)
	else:
		_failed += 1
		print("FAIL %s: %s" % [name, detail])
