extends SceneTree
## Headless tests of RustCharacterBody3D in a running Godot, on tests/stairs_test.tscn.
##
## Run from the repository root:
##   godot --headless --fixed-fps 60 --path godot_project --script res://tests/run.gd
## Prints one line per check and then "N passed, N failed"; quits with code 1 when a check
## failed, or when a test stopped without finishing (a script error ends a coroutine silently:
## the runner waits at most TEST_FRAMES physics frames for each test). The body is driven
## through its script API (set_wish_direction, tick, move_and_step and the building blocks),
## one call per physics frame, as a game's _physics_process would, and by its built-in input
## (the project's actions pressed with Input.action_press). The climbing checks mirror the
## core's course tests (rust/kcc-parry/tests); the others check the node's own API: its four
## signals, its getters, the return values of its step calls, and StepSmoothCamera3D.

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
## The landing is 2 m wide (x from -1 to 1), 3 m deep and 3 m high.
const STAIRS_FRONT_Z := -1.0
const LANDING_Z := -4.0
## Radius of the player's capsule, m: how far its centre stays from a wall it walks into.
const RADIUS := 0.3
## The lane of the stairs and the lane of the thin ledge (x, m). The ledge (0.3 m high, 0.05 m
## deep) stands against a 3 m wall whose front face is at z = -2.
const STAIRS_X := 0.0
const LEDGE_X := 5.0
const LEDGE_FRONT_Z := -1.95
const FORWARD := Vector3(0, 0, -1)
const BACK := Vector3(0, 0, 1)
const GRAVITY := 9.8
## The input actions of the project's input map that RustCharacterBody3D reads by default.
const ACTIONS: Array[StringName] = [
	&"move_left", &"move_right", &"move_forward", &"move_back", &"jump", &"crouch"
]
## Local height of the test's StepSmoothCamera3D above the body's origin, m, and its default
## decay rate, 1/s.
const EYE := 1.6
const CAMERA_DECAY := 20.0
## Longest a test may take, in physics frames, before the runner counts it as stopped by an
## error (the longest, _test_step_calls_return_what_they_emit, runs at most 563 ticks).
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
			_test_builtin_input_walks_turns_and_jumps,
			_test_a_script_that_extends_the_body_keeps_the_movement,
			_test_move_with_input_reads_the_actions_when_called,
			_test_floating_rises_on_jump_without_gravity,
			_test_missing_action_stops_builtin_input,
			_test_signals_of_a_jump_and_a_fall,
			_test_getters_report_what_was_set_and_done,
			_test_step_calls_return_what_they_emit,
			_test_camera_smooths_a_step,
			_test_camera_script_api,
			_test_camera_follows_the_crouch,
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


## With step_up_enabled off the body walks up to the first riser and stops there, touching it.
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
	_check(
		"walks up to the riser before stopping",
		absf(position.z - (STAIRS_FRONT_Z + RADIUS)) < 0.05,
		"stopped at z = %.3f, touching the riser is z = %.2f" % [position.z, STAIRS_FRONT_Z + RADIUS]
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
		"walks up to the ledge and stops touching it",
		absf(position.z - (LEDGE_FRONT_Z + RADIUS)) < 0.05,
		"stopped at z = %.3f, touching the ledge is z = %.2f" % [position.z, LEDGE_FRONT_Z + RADIUS]
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
	var drop: float = body.get_crouch_drop()
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
		"get_crouch_drop() is the height lost while crouched, 0 standing",
		absf(drop - (standing - crouched)) < 1e-4 and body.get_crouch_drop() == 0.0,
		"crouched %.3f m (expected %.3f m), standing %.3f m"
		% [drop, standing - crouched, body.get_crouch_drop()]
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


## The default path: use_builtin_input on and the project's actions pressed with
## Input.action_press. The body walks where the actions point at max_speed, stops once they are
## released, is oriented by its own turn without a yaw node and by the yaw node's global turn
## with one, and a held jump action jumps once.
func _test_builtin_input_walks_turns_and_jumps() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	var floor_y: float = body.global_position.y
	body.use_builtin_input = true
	var start: Vector3 = body.global_position
	var back: Vector3 = await _walk_with_action(body, &"move_back", 30)
	var walked: Vector3 = body.global_position - start
	_check(
		"built-in input walks toward +z on move_back, at max_speed",
		_moves_along(back, BACK) and walked.z > 1.5,
		"velocity %s, walked %s" % [back, walked]
	)
	await _physics_frames(20)
	_check(
		"with the action released the body stops within release_time",
		_ground_speed(body.velocity) < 0.01,
		"velocity %s" % [body.velocity]
	)
	body.rotation.y = PI / 2.0
	var turned: Vector3 = await _walk_with_action(body, &"move_forward", 30)
	_check(
		"without a yaw node the body's own turn orients the input: turned left, forward is -x",
		_moves_along(turned, Vector3.LEFT),
		"velocity %s" % [turned]
	)
	var yaw := Node3D.new()
	yaw.name = "Yaw"
	body.add_child(yaw)
	yaw.rotation.y = PI / 2.0
	body.yaw_node = NodePath("Yaw")
	var pivoted: Vector3 = await _walk_with_action(body, &"move_forward", 30)
	_check(
		"the yaw node's global turn orients the input: body and pivot turned left, forward is +z",
		_moves_along(pivoted, BACK),
		"velocity %s" % [pivoted]
	)
	await _physics_frames(20)
	var events := _record_signals(body)
	Input.action_press(&"jump")
	var apex: float = body.global_position.y
	for _i in 90:
		await physics_frame
		apex = maxf(apex, body.global_position.y)
	Input.action_release(&"jump")
	var expected: Array[String] = ["jumped", "left_floor", "landed"]
	var speed: float = body.jump_velocity
	var rise := speed * speed / (2.0 * GRAVITY)
	_check(
		"a held jump action jumps once: jumped, left_floor, landed",
		events == expected and absf(apex - floor_y - rise) < 0.1,
		"signals %s, rose %.3f m (expected %.3f m)" % [events, apex - floor_y, rise]
	)
	_release_actions()
	await _unload(world)


## A script that extends the body with its own _physics_process (which Godot calls instead of
## the node's) keeps the built-in movement by calling move_with_input(delta) there: the
## project's move_forward action walks the body up the 10 stairs, one move a physics frame
## (the script counts its frames), one `stepped` per riser, and on every frame of the climb
## is_grounded() is true and get_ground_state() is ON_FLOOR or ON_EDGE.
func _test_a_script_that_extends_the_body_keeps_the_movement() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	body.set_script(_script_that_extends_the_body())
	body.use_builtin_input = true
	var steps := _record_steps(body)
	var standing := [
		ClassDB.class_get_integer_constant("RustCharacterBody3D", "GROUND_ON_FLOOR"),
		ClassDB.class_get_integer_constant("RustCharacterBody3D", "GROUND_ON_EDGE"),
	]
	var frames := 0
	var grounded := 0
	Input.action_press(&"move_forward")
	while body.global_position.z > LANDING_Z - 0.5 and frames < 180:
		await physics_frame
		frames += 1
		if body.is_grounded() and body.get_ground_state() in standing:
			grounded += 1
	_release_actions()
	var moves: int = body.get("moves")
	var height: float = body.global_position.y
	_check(
		"a script calling move_with_input walks up the stairs on built-in input, once a frame",
		absf(height - RISE * STEP_COUNT) < HEIGHT_TOLERANCE and moves == frames,
		"height %.3f m, %d moves in %d frames" % [height, moves, frames]
	)
	_check(
		"is_grounded() and get_ground_state() say standing on every frame of the climb",
		grounded == frames and _one_step_per_riser(steps, RISE),
		"standing on %d of %d frames, steps %s" % [grounded, frames, steps]
	)
	await _unload(world)


## move_with_input(delta) called from code reads the project's actions whatever
## use_builtin_input says: with it off, move_back pressed and one call a frame, the body walks
## toward +z at max_speed.
func _test_move_with_input_reads_the_actions_when_called() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	body.use_builtin_input = false
	var start: Vector3 = body.global_position
	Input.action_press(&"move_back")
	for _i in 30:
		await physics_frame
		body.move_with_input(TICK)
	var velocity: Vector3 = body.velocity
	_release_actions()
	_check(
		"move_with_input walks on the actions with use_builtin_input off",
		_moves_along(velocity, BACK) and body.global_position.z - start.z > 1.5,
		"velocity %s, walked %s" % [velocity, body.global_position - start]
	)
	await _unload(world)


## With motion_mode Floating (swimming, flying) the body does not fall, and built-in input
## rises while the jump action is held: no jumped signal, no stepped, at max_speed upward.
func _test_floating_rises_on_jump_without_gravity() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	body.motion_mode = CharacterBody3D.MOTION_MODE_FLOATING
	body.use_builtin_input = true
	body.global_position += Vector3(0.0, 1.0, 0.0)
	var start: Vector3 = body.global_position
	var events := _record_signals(body)
	await _physics_frames(30)
	var hovered: Vector3 = body.global_position
	Input.action_press(&"jump")
	await _physics_frames(30)
	var velocity: Vector3 = body.velocity
	_release_actions()
	_check(
		"a floating body hovers without input and rises on jump at max_speed",
		hovered.distance_to(start) < 1e-3 and absf(velocity.y - SPEED) < 0.01 and events.is_empty(),
		"moved %s while hovering, velocity %s, signals %s" % [hovered - start, velocity, events]
	)
	await _unload(world)


## A script that extends RustCharacterBody3D as a game's would: its own _physics_process calls
## move_with_input(delta) and counts its calls in `moves`.
func _script_that_extends_the_body() -> GDScript:
	var script := GDScript.new()
	script.source_code = (
		"extends RustCharacterBody3D\nvar moves := 0\n"
		+ "func _physics_process(delta: float) -> void:\n\tmove_with_input(delta)\n\tmoves += 1\n"
	)
	script.reload()
	return script


## Built-in input with an action that is not in the project's input map does nothing at all
## (and warns once): the body stays put while the other actions are pressed.
func _test_missing_action_stops_builtin_input() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	body.jump_action = &"no_such_action"
	body.use_builtin_input = true
	var start: Vector3 = body.global_position
	var velocity: Vector3 = await _walk_with_action(body, &"move_back", 20)
	_check(
		"with an action missing from the input map, built-in input is ignored",
		_ground_speed(velocity) < 0.01 and body.global_position.distance_to(start) < 0.01,
		"velocity %s, moved %s" % [velocity, body.global_position - start]
	)
	_release_actions()
	await _unload(world)


## A jump from the floor emits jumped and left_floor on its tick and landed about 2v/g later,
## each once; walking off the landing's side (3 m up) emits left_floor and landed only.
func _test_signals_of_a_jump_and_a_fall() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	var events := _record_signals(body)
	body.set_jump_pressed(true)
	var first_tick: Array[String] = []
	var landed_tick := -1
	for tick in 120:
		await physics_frame
		body.tick(TICK)
		if tick == 0:
			first_tick.assign(events)
		if landed_tick < 0 and events.has("landed"):
			landed_tick = tick
	body.set_jump_pressed(false)
	var jump: Array[String] = ["jumped", "left_floor", "landed"]
	var takeoff: Array[String] = ["jumped", "left_floor"]
	var speed: float = body.jump_velocity
	var airtime := 2.0 * speed / GRAVITY
	_check(
		"a jump emits jumped, left_floor, landed, once each and in order",
		events == jump and first_tick == takeoff,
		"signals %s, on the jump's tick %s" % [events, first_tick]
	)
	_check(
		"landed comes when the jump is over (2v/g)",
		absf((landed_tick + 1) * TICK - airtime) < 3 * TICK,
		"landed on tick %d, expected after %.3f s" % [landed_tick, airtime]
	)
	await _settle(body, Vector3(0.5, RISE * STEP_COUNT + 0.05, LANDING_Z - 1.5))
	events.clear()
	body.set_wish_direction(Vector3.RIGHT)
	for _i in 120:
		await physics_frame
		body.tick(TICK)
		if events.has("landed"):
			break
	var fall: Array[String] = ["left_floor", "landed"]
	_check(
		"walking off the 3 m landing emits left_floor then landed, nothing else",
		events == fall and absf(body.global_position.y) < HEIGHT_TOLERANCE,
		"signals %s, ended at height %.3f m" % [events, body.global_position.y]
	)
	await _unload(world)


## The getters of the script API return what was set, and get_last_step_height the height of
## the last `stepped` (0 before any).
func _test_getters_report_what_was_set_and_done() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	var wish := Vector3(0.6, 0.0, -0.8)
	var fresh: bool = (
		body.get_last_step_height() == 0.0
		and not body.is_crouched()
		and not body.is_jump_pressed()
		and not body.is_crouch_pressed()
	)
	body.set_wish_direction(wish)
	body.set_jump_pressed(true)
	body.set_crouch_pressed(true)
	var set_all: bool = (
		body.get_wish_direction() == wish and body.is_jump_pressed() and body.is_crouch_pressed()
	)
	body.set_jump_pressed(false)
	body.set_crouch_pressed(false)
	_check(
		"get_wish_direction, is_jump_pressed and is_crouch_pressed return what was set",
		fresh and set_all and not body.is_jump_pressed() and not body.is_crouch_pressed(),
		"fresh %s, after setting %s" % [fresh, set_all]
	)
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	var steps := _record_steps(body)
	body.set_wish_direction(FORWARD)
	var ticks := 0
	while steps.size() < 2 and ticks < 120:
		await physics_frame
		body.tick(TICK)
		ticks += 1
	_check(
		"get_last_step_height is the height of the last stepped",
		steps.size() == 2 and body.get_last_step_height() == steps[1],
		"stepped %s, get_last_step_height %.4f" % [steps, body.get_last_step_height()]
	)
	await _unload(world)


## move_and_step returns true on exactly the ticks that emit `stepped` (one per riser going
## up); stair_step_up and stair_step_down return the height their `stepped` carries, and 0
## when they emit none. A capsule rolls part of each riser down in the slides, so the step
## downs give a share of the descent.
func _test_step_calls_return_what_they_emit() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	var steps := _record_steps(body)
	var mismatches: Array[String] = []
	var stepping_ticks := 0
	var ticks := 0
	while body.global_position.z > LANDING_Z - 0.5 and ticks < 240:
		await physics_frame
		var velocity: Vector3 = body.velocity
		body.velocity = Vector3(0, velocity.y - GRAVITY * TICK, -SPEED)
		var before := steps.size()
		var stepped: bool = body.move_and_step(TICK)
		if stepped != (steps.size() > before):
			mismatches.append("tick %d: returned %s, %d stepped" % [ticks, stepped, steps.size() - before])
		stepping_ticks += 1 if stepped else 0
		ticks += 1
	_check(
		"move_and_step returns true on the ticks that step, one per riser",
		mismatches.is_empty() and stepping_ticks == STEP_COUNT,
		"%d ticks returned true; %s" % [stepping_ticks, mismatches]
	)
	var descent := 0.0
	ticks = 0
	while body.global_position.z < STAIRS_FRONT_Z + 1.0 and ticks < 300:
		await physics_frame
		var velocity: Vector3 = body.velocity
		body.velocity = Vector3(0, minf(velocity.y, 0.0) - GRAVITY * TICK, SPEED)
		var was_grounded: bool = body.is_on_floor()
		var before := steps.size()
		_match_return("stair_step_up", body.stair_step_up(TICK), steps, before, mismatches)
		body.move_and_slide()
		before = steps.size()
		var down: float = body.stair_step_down(was_grounded)
		_match_return("stair_step_down", down, steps, before, mismatches)
		descent += down
		ticks += 1
	_check(
		"stair_step_up and stair_step_down return the height they emit, 0 without a step",
		mismatches.is_empty(),
		"%s" % [mismatches]
	)
	_check(
		"stair_step_down walks the stairs down to the floor, a third of it or more by steps",
		absf(body.global_position.y) < HEIGHT_TOLERANCE and descent <= -RISE * STEP_COUNT / 3.0,
		"height %.3f m, stepped down %.3f m in all" % [body.global_position.y, descent]
	)
	await _unload(world)


## StepSmoothCamera3D under the body finds it on its own and rests at its local height of when
## it entered the tree. On a step of h its offset moves by -h (it keeps its height); every
## frame after, the offset shrinks by exp(-decay × delta), back to exactly 0, and the camera sits
## at its resting height plus the offset.
func _test_camera_smooths_a_step() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	var camera = _add_camera(body)
	_check(
		"the camera rests at its height of when it entered the tree, with no offset",
		absf(camera.get_rest_height() - EYE) < 1e-6 and camera.get_step_offset() == 0.0,
		"rest %.4f m, offset %.4f m" % [camera.get_rest_height(), camera.get_step_offset()]
	)
	var steps := _record_steps(body)
	body.set_wish_direction(FORWARD)
	var moved := 0.0
	var ticks := 0
	while steps.is_empty() and ticks < 60:
		await physics_frame
		var before: float = camera.get_step_offset()
		body.tick(TICK)
		moved = camera.get_step_offset() - before
		ticks += 1
	_check(
		"a step of h moves the camera's offset by -h on the step's tick",
		steps.size() == 1 and absf(moved + steps[0]) < 1e-5,
		"stepped %s, offset moved %.4f m" % [steps, moved]
	)
	# The body is not ticked from here on: no other step disturbs the decay.
	var offsets: Array[float] = []
	var heights: Array[float] = []
	var deltas: Array[float] = []
	for _i in 40:
		await process_frame
		offsets.append(camera.get_step_offset())
		heights.append(camera.position.y)
		deltas.append(camera.get_process_delta_time())
	_check(
		"the offset decays by exp(-decay × delta) each frame, back to exactly 0",
		(
			camera.decay == CAMERA_DECAY
			and _decays(offsets, deltas, CAMERA_DECAY)
			and offsets[-1] == 0.0
		),
		"offsets %s, frame deltas %s" % [offsets, deltas]
	)
	_check(
		"the camera sits at its resting height plus the offset",
		_sits_at(heights, offsets, EYE) and absf(heights[-1] - EYE) < 1e-6,
		"heights %s, offsets %s" % [heights, offsets]
	)
	await _unload(world)


## StepSmoothCamera3D's script API acts at once: add_step offsets the camera, reset_smoothing
## drops the offset, set_rest_height moves its resting place.
func _test_camera_script_api() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	var camera = _add_camera(body)
	camera.add_step(0.2)
	var added: float = camera.get_step_offset()
	camera.reset_smoothing()
	var reset: float = camera.get_step_offset()
	camera.set_rest_height(1.2)
	await process_frame
	await process_frame
	_check(
		"add_step offsets by -h, reset_smoothing drops it, set_rest_height moves the rest",
		(
			absf(added + 0.2) < 1e-6
			and reset == 0.0
			and absf(camera.get_rest_height() - 1.2) < 1e-6
			and absf(camera.position.y - 1.2) < 1e-6
		),
		(
			"offset %.4f after add_step, %.4f after reset; rest %.4f, y %.4f"
			% [added, reset, camera.get_rest_height(), camera.position.y]
		)
	)
	await _unload(world)


## StepSmoothCamera3D lowers the view by the character's crouch drop, gliding (lower every
## frame, never below the crouched eye height), and raises it back once the body stands.
func _test_camera_follows_the_crouch() -> void:
	var world := await _load_world()
	var body = world.get_node("Player")
	await _settle(body, Vector3(STAIRS_X, 0.05, 0.5))
	var camera := _add_camera(body)
	await physics_frame
	body.set_crouch_pressed(true)
	var heights: Array[float] = []
	for _i in 60:
		await physics_frame
		body.tick(TICK)
		heights.append(camera.position.y)
	var crouched_eye: float = EYE - body.get_crouch_drop()
	var glides := heights[0] > crouched_eye and heights[0] < EYE
	for i in range(1, heights.size()):
		glides = glides and heights[i] <= heights[i - 1] and heights[i] >= crouched_eye - 1e-4
	_check(
		"the camera glides down to the crouched eye height",
		glides and absf(heights[-1] - crouched_eye) < 0.01,
		"first %.3f m, last %.3f m (crouched eye %.3f m)" % [heights[0], heights[-1], crouched_eye]
	)
	body.set_crouch_pressed(false)
	for _i in 60:
		await physics_frame
		body.tick(TICK)
	_check(
		"standing again, the camera returns to its eye height",
		absf(camera.position.y - EYE) < 0.01,
		"camera at %.3f m (eye %.3f m)" % [camera.position.y, EYE]
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


## Adds a StepSmoothCamera3D to `body`, EYE m above its origin, and returns it.
func _add_camera(body) -> Node3D:
	var camera: Node3D = ClassDB.instantiate("StepSmoothCamera3D")
	camera.position = Vector3(0.0, EYE, 0.0)
	body.add_child(camera)
	return camera


## Collects the names of `body`'s signals in the order they are emitted ("stepped",
## "jumped", "left_floor", "landed").
func _record_signals(body) -> Array[String]:
	var events: Array[String] = []
	body.stepped.connect(func(_height: float) -> void: events.append("stepped"))
	body.jumped.connect(func() -> void: events.append("jumped"))
	body.left_floor.connect(func() -> void: events.append("left_floor"))
	body.landed.connect(func() -> void: events.append("landed"))
	return events


## Waits `count` physics frames.
func _physics_frames(count: int) -> void:
	for _i in count:
		await physics_frame


## Holds `action` pressed for `frames` physics frames of a body on built-in input, releases it,
## and returns the body's velocity just before the release, m/s.
func _walk_with_action(body, action: StringName, frames: int) -> Vector3:
	Input.action_press(action)
	await _physics_frames(frames)
	var velocity: Vector3 = body.velocity
	Input.action_release(action)
	return velocity


## Releases every action built-in input reads, so that no test leaves one pressed.
func _release_actions() -> void:
	for action in ACTIONS:
		Input.action_release(action)


## True when the horizontal part of `velocity` (m/s) is SPEED along the unit horizontal
## `direction`, within 1 cm/s.
func _moves_along(velocity: Vector3, direction: Vector3) -> bool:
	return Vector3(velocity.x, 0.0, velocity.z).distance_to(direction * SPEED) < 0.01


## The horizontal speed of `velocity`, m/s.
func _ground_speed(velocity: Vector3) -> float:
	return Vector2(velocity.x, velocity.z).length()


## Adds to `mismatches` when `method` returned `returned` (m) but the `stepped` heights emitted
## since index `before` of `steps` say otherwise: one step of that height, or none and 0.
func _match_return(
	method: String, returned: float, steps: Array[float], before: int, mismatches: Array[String]
) -> void:
	var emitted := steps.slice(before)
	var expected: float = 0.0 if emitted.is_empty() else emitted[0]
	if emitted.size() > 1 or returned != expected:
		mismatches.append("%s returned %.4f, stepped %s" % [method, returned, emitted])


## True when `offsets` (m, one a frame, the first the step's own, before its frame's decay)
## shrink by exp(-decay × delta) each frame (`deltas`: each frame's delta, s; `decay`, 1/s)
## while they are over 1 mm, never grow or change sign, and do not start at 0.
func _decays(offsets: Array[float], deltas: Array[float], decay: float) -> bool:
	if offsets.is_empty() or offsets[0] == 0.0:
		return false
	for i in range(1, offsets.size()):
		var previous: float = offsets[i - 1]
		var expected := previous * exp(-decay * deltas[i - 1])
		if absf(previous) > 1e-3 and absf(offsets[i] - expected) > 1e-4:
			return false
		if offsets[i] * previous < 0.0 or absf(offsets[i]) > absf(previous):
			return false
	return true


## True when each camera height after the first frame (m) is `rest` plus that frame's offset.
func _sits_at(heights: Array[float], offsets: Array[float], rest: float) -> bool:
	for i in range(1, heights.size()):
		if absf(heights[i] - (rest + offsets[i])) > 1e-5:
			return false
	return true

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
