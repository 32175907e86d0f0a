extends Node3D
## The Godot world's oracle. kcc-sim (rust/kcc-godot) packs this project into a .pck, runs it in
## Godot's web export template in headless Chromium, and drives it over a loopback connection:
## the oracle calls the page's `kccRpc` (a synchronous call to kcc-sim on a WebSocket) with its
## reply to the last command and gets the next command back. A command is a list of operations
## (build a scene, the port's calls, an overlap measure, a batch of test moves); the reply has
## one result per operation, the body's state after the last one, and the time Godot spent in
## the port's calls (`physics_usec`, Godot's clock: what those calls cost a game, without the
## oracle's own work of packing results).
##
## The loop runs inside a physics frame (after `await physics_frame`), so Godot's
## move_and_slide uses the physics delta, as it does in a game's _physics_process.

## How far outside the body's bounds an overlap's point may lie, m: the engines' float error
## and contact tolerance, far below the metres of a pair that measures nothing.
const OVERLAP_SLACK := 0.01

const Port := preload("res://port.gd")
const SceneBuilder := preload("res://scene.gd")

var _world: Node3D
var _body: CharacterBody3D
var _port: Port
## One port for each character of the scene, the body's first; `_port` is the selected one.
var _ports: Array[Port] = []
var _window: JavaScriptObject


func _ready() -> void:
	if not OS.has_feature("web"):
		push_error("oracle: runs only in Godot's web export template (it calls the page)")
		get_tree().quit(1)
		return
	_window = JavaScriptBridge.get_interface("window")
	await get_tree().physics_frame
	var reply := {"hello": _hello()}
	while true:
		var text = _window.kccRpc(JSON.stringify(reply, "", false, true))
		if not text is String or text.is_empty():
			break
		var command = JSON.parse_string(text)
		if not command is Dictionary or not command.has("ops"):
			reply = {"error": "a command must be an object with ops, got: %s" % text.left(200)}
			continue
		reply = await _run(command["ops"])
	print("oracle: the session ended")


func _hello() -> Dictionary:
	var version := Engine.get_version_info()
	var engine_name: String = ProjectSettings.get_setting("physics/3d/physics_engine")
	# The Jolt module's own settings exist only when Jolt is compiled in.
	var has_jolt := ProjectSettings.has_setting(
		"physics/jolt_physics_3d/motion_queries/recovery_iterations"
	)
	return {
		"version": version["string"],
		"major": version["major"],
		"minor": version["minor"],
		"physics_engine": engine_name,
		"jolt": has_jolt and engine_name == "Jolt Physics",
	}


func _run(ops: Array) -> Dictionary:
	var results := []
	var physics_usec := 0
	for op: Dictionary in ops:
		if _port == null and op["op"] != "scene":
			return {"error": "op %s before the first scene" % op["op"]}
		var began := Time.get_ticks_usec()
		match op["op"]:
			"scene":
				results.append(await _scene(op["scene"]))
			"select":
				var character: int = op["character"]
				if character < 0 or character >= _ports.size():
					return {"error": "no character %d in the scene" % character}
				_port = _ports[character]
				_body = _port.body
				results.append(null)
			"set_position":
				_port.set_position(SceneBuilder.vec3(op["position"]))
				physics_usec += Time.get_ticks_usec() - began
				results.append(null)
			"test_move":
				var found := _port.test_move(
					SceneBuilder.vec3(op["from"]), SceneBuilder.vec3(op["motion"])
				)
				physics_usec += Time.get_ticks_usec() - began
				results.append(_plain(found))
			"move_and_slide":
				var velocity := _port.move_and_slide(SceneBuilder.vec3(op["velocity"]), op["dt"])
				var collisions := []
				for index in _port.slide_collision_count():
					var said := _port.slide_collision(index)
					if not said["hit"]:
						break
					collisions.append(_plain(said))
				physics_usec += Time.get_ticks_usec() - began
				results.append({"velocity": _array(velocity), "collisions": collisions})
			"apply_floor_snap":
				_port.apply_floor_snap()
				physics_usec += Time.get_ticks_usec() - began
				results.append(null)
			"push_body":
				_port.push_body(op["index"], SceneBuilder.vec3(op["impulse"]))
				physics_usec += Time.get_ticks_usec() - began
				results.append(null)
			"floor_body":
				var under := _port.floor_body()
				physics_usec += Time.get_ticks_usec() - began
				results.append(_plain(under) if not under.is_empty() else null)
			"press_floor_body":
				_port.press_floor_body(
					SceneBuilder.vec3(op["impulse"]), SceneBuilder.vec3(op["point"])
				)
				physics_usec += Time.get_ticks_usec() - began
				results.append(null)
			"set_shape_height":
				_port.set_shape_height(op["height"])
				physics_usec += Time.get_ticks_usec() - began
				results.append(null)
			"overlap":
				results.append(_overlap())
			"advance":
				await _advance(op["time"])
				results.append(null)
			"replay":
				var found_all := []
				for move: Array in op["moves"]:
					var found := _port.test_move(
						SceneBuilder.vec3(move[0]), SceneBuilder.vec3(move[1])
					)
					found_all.append(_plain(found))
				results.append(found_all)
			_:
				return {"error": "unknown op %s" % op["op"]}
	return {"results": results, "state": _state(), "physics_usec": physics_usec}


## Replaces the world, sets the tick rate and waits until Godot's physics delta follows it.
func _scene(scene: Dictionary) -> Dictionary:
	if _world != null:
		_world.free()
		# One physics step between the old scene and the new: Godot Physics answers queries
		# in a scene built in the frame the last one was freed in wrongly (a wall missed).
		await get_tree().physics_frame
	var rate := maxi(1, roundi(scene["tick_rate"]))
	Engine.physics_ticks_per_second = rate
	# The new rate takes effect a few frames later.
	for i in 30:
		if is_equal_approx(get_physics_process_delta_time(), 1.0 / rate):
			break
		await get_tree().physics_frame
	_world = SceneBuilder.build(self, scene)
	_ports.clear()
	for node: Node in get_tree().get_nodes_in_group("characters"):
		_ports.append(Port.new(node as CharacterBody3D))
	_port = _ports[0]
	_body = _port.body
	await get_tree().physics_frame
	return {
		"physics_delta": get_physics_process_delta_time(),
		"ticks_per_second": Engine.physics_ticks_per_second,
	}


## Lets one physics step run (it moves each platform to where the last call aimed it), then
## aims each platform at its place one tick after `time` (s), which the next step reaches.
func _advance(time: float) -> void:
	await get_tree().physics_frame
	var next := time + get_physics_process_delta_time()
	for node: Node in get_tree().get_nodes_in_group("platforms"):
		var platform := node as AnimatableBody3D
		var desc: Dictionary = platform.get_meta("desc")
		var rest: Transform3D = platform.get_meta("rest")
		platform.global_transform = SceneBuilder.platform_transform(desc, rest, next)


## Deepest overlap of the body's shape with the world as the engine measures it, with the
## body's state at that moment (the observation of a tick may travel with the next tick's
## first call). `contacts`: how many pairs of points collide_shape returns (margin 0).
##
## Jolt: the contact get_rest_info returns, the deepest by Jolt's own penetration depth, and
## that depth along its normal to the body's furthest point (see [method _rest_depth]). The
## pairs of collide_shape are points of a manifold between the two shapes' faces, the faces
## of the sharp shapes: a cylinder whose rim is 1 mm short of the crest of a 30 degree ramp,
## rounded by the hull's 4 cm margin, was measured 12.2 mm inside the slope's plane
## (ramp_30_cylinder at 200 Hz), where the rounded crest it touches is 0.6 mm deep.
##
## Godot Physics: the pairs of collide_shape, each the deepest point of either shape inside the
## other, whose distance is the penetration depth. A pair with a point outside the body's
## bounds (grown by OVERLAP_SLACK) is no overlap of the body: Godot Physics' cylinder against a
## convex hull now and then returns a pair metres apart while the body rests on the hull's face
## (ramp_30_cylinder at 120 Hz: 3.27 m, on a tick whose rim is on the slope to 0.1 mm).
func _overlap() -> Dictionary:
	var shape: CollisionShape3D = _body.get_node("Shape")
	var query := PhysicsShapeQueryParameters3D.new()
	query.shape = shape.shape
	query.transform = shape.get_global_transform()
	query.margin = 0.0
	query.exclude = [_body.get_rid()]
	var points := _body.get_world_3d().direct_space_state.collide_shape(query, 32)
	if ProjectSettings.get_setting("physics/3d/physics_engine") == "Jolt Physics":
		return {"depth": _rest_depth(query), "contacts": points.size() / 2, "state": _state()}
	var bounds := _bounds(shape.shape).grow(OVERLAP_SLACK)
	var to_shape := query.transform.affine_inverse()
	var deepest := 0.0
	for i in range(0, points.size() - 1, 2):
		var inside: bool = (
			bounds.has_point(to_shape * points[i]) and bounds.has_point(to_shape * points[i + 1])
		)
		if inside:
			deepest = maxf(deepest, points[i].distance_to(points[i + 1]))
	return {"depth": deepest, "contacts": points.size() / 2, "state": _state()}


## How deep the shape of `query` is inside what the engine finds deepest (get_rest_info), m:
## along that contact's normal, from the contact's point on the world to the shape's point
## furthest the other way (the body's own shape, sharp: a cylinder's or box's rounding by its
## 1 mm margin counts as inside). 0 when clear.
func _rest_depth(query: PhysicsShapeQueryParameters3D) -> float:
	var rest := _body.get_world_3d().direct_space_state.get_rest_info(query)
	if rest.is_empty():
		return 0.0
	var normal: Vector3 = rest["normal"]
	var inward := query.transform.basis.inverse() * -normal
	var deepest := query.transform * _support(query.shape, inward)
	return maxf(0.0, normal.dot(rest["point"] - deepest))


## The point of a character's capsule, cylinder or box furthest along `dir`, in its own space
## (the origin for other shapes).
static func _support(shape: Shape3D, dir: Vector3) -> Vector3:
	if shape is CapsuleShape3D:
		var r: float = shape.radius
		var half: float = 0.5 * shape.height - r
		return Vector3(0, signf(dir.y) * half, 0) + dir.normalized() * r
	if shape is CylinderShape3D:
		var radius: float = shape.radius
		var across: Vector2 = Vector2(dir.x, dir.z).normalized() * radius
		return Vector3(across.x, signf(dir.y) * 0.5 * shape.height, across.y)
	if shape is BoxShape3D:
		var size: Vector3 = shape.size
		return Vector3(signf(dir.x), signf(dir.y), signf(dir.z)) * 0.5 * size
	return Vector3.ZERO


## The bounds of a character's capsule, cylinder or box in its own space; unbounded for other
## shapes.
static func _bounds(shape: Shape3D) -> AABB:
	if shape is CapsuleShape3D or shape is CylinderShape3D:
		var r: float = shape.radius
		return AABB(Vector3(-r, -0.5 * shape.height, -r), Vector3(2.0 * r, shape.height, 2.0 * r))
	if shape is BoxShape3D:
		return AABB(-0.5 * shape.size, shape.size)
	return AABB(Vector3(-1e9, -1e9, -1e9), Vector3(2e9, 2e9, 2e9))


func _state() -> Dictionary:
	if _port == null:
		return {}
	var normals := []
	var touched := []
	var characters := []
	for i in _body.get_slide_collision_count():
		normals.append(_array(_body.get_slide_collision(i).get_normal()))
		var found := _port.touched_body(i)
		touched.append(_plain(found) if not found.is_empty() else null)
		characters.append(_port.touched_character(i))
	var bodies := []
	var turns := []
	for node: Node in get_tree().get_nodes_in_group("rigid_bodies"):
		var rigid := node as RigidBody3D
		bodies.append(_array(rigid.get_global_position()))
		var start: Quaternion = rigid.get_meta("start_rotation")
		turns.append((rigid.quaternion * start.inverse()).get_angle())
	return {
		"position": _array(_port.position()),
		"velocity": _array(_body.get_velocity()),
		"on_floor": _port.is_on_floor(),
		"floor_normal": _array(_port.floor_normal()),
		"on_wall": _body.is_on_wall(),
		"wall_normal": _array(_port.wall_normal()),
		"on_ceiling": _body.is_on_ceiling(),
		"real_velocity": _array(_body.get_real_velocity()),
		"position_delta": _array(_body.get_position_delta()),
		"slide_normals": normals,
		"touched": touched,
		"characters": characters,
		"bodies": bodies,
		"turns": turns,
		"up_direction": _array(_port.up_direction()),
		"floor_max_angle": _port.floor_max_angle(),
		"safe_margin": _port.safe_margin(),
		"shape_height": _port.shape_height(),
		"shape_radius": _port.shape_radius(),
	}


## A test_move result with its vectors as arrays.
static func _plain(found: Dictionary) -> Dictionary:
	var plain := {}
	for key: String in found:
		var value = found[key]
		plain[key] = _array(value) if value is Vector3 else value
	return plain


static func _array(value: Vector3) -> Array:
	return [value.x, value.y, value.z]
