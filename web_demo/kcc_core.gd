extends RefCounted
## The controller core compiled to wasm (rust/kcc-wasm), as GDScript sees it: the page loads
## the module and offers it as `window.kccCore`; this object makes characters, runs their
## ticks, and answers the core's port calls with each body's Port (res://port.gd, the GDScript
## twin of rust/godot/src/body.rs, the very file the Godot world's oracle uses).
##
## A tick goes GDScript -> page -> wasm; each port call of the core comes back wasm -> page ->
## GDScript (a JavaScriptBridge callback, while the tick's call is still running) and is
## answered through `kccCore.answer(...)`, which writes the numbers where the core reads them.

## Slots of a tick's report (rust/kcc-wasm/src/mailbox.rs, `report`).
enum Report {
	VELOCITY_X,
	VELOCITY_Y,
	VELOCITY_Z,
	REAL_VELOCITY_X,
	REAL_VELOCITY_Y,
	REAL_VELOCITY_Z,
	STEP_UP,
	STEP_DOWN,
	STEPPED,
	STEPPED_FLAG,
	WAS_ON_FLOOR,
	ON_FLOOR,
	JUMPED,
	CROUCHED,
	SUBSTEPS,
	SANITIZED,
}

const Port := preload("res://port.gd")

var _core: JavaScriptObject
var _callback: JavaScriptObject
var _ports: Array[Port] = []


func _init() -> void:
	_core = JavaScriptBridge.get_interface("kccCore")
	if _core == null:
		push_error("kcc: the page has no kccCore (the wasm core did not load)")
		return
	# The page keeps only a reference: this object must keep the callback alive.
	_callback = JavaScriptBridge.create_callback(_on_port_call)
	_core.setPort(_callback)


## A character that moves `body`, with settings (the fields of kcc::ControllerSettings, missing
## ones at their defaults). Its handle, or 0 after printing why.
func add_character(body: CharacterBody3D, settings: Dictionary) -> int:
	if _core == null:
		return 0
	_ports.append(Port.new(body))
	var handle: int = _core.newCharacter(_ports.size() - 1, JSON.stringify(settings))
	if handle == 0:
		push_error("kcc: %s" % _core.error())
	return handle


## One tick of `dt` s (the node's tick: ADSR speed, gravity and jump, step up, move, step
## down): the report's numbers, by [enum Report]; empty for an unknown handle.
func tick(
	handle: int, wish: Vector3, jump: bool, crouch: bool, velocity: Vector3, dt: float
) -> PackedFloat64Array:
	var text: String = _core.tick(
		handle,
		wish.x,
		wish.y,
		wish.z,
		int(jump),
		int(crouch),
		velocity.x,
		velocity.y,
		velocity.z,
		dt
	)
	return text.split_floats(",") if not text.is_empty() else PackedFloat64Array()


## A port call of the core: [name, body id, numbers...]. Answers go back through `answer`.
func _on_port_call(args: Array) -> void:
	var port: Port = _ports[int(args[1])]
	match String(args[0]):
		"position":
			_answer_vector(port.position())
		"set_position":
			port.set_position(Vector3(args[2], args[3], args[4]))
		"test_move":
			_answer_test_move(
				port.test_move(Vector3(args[2], args[3], args[4]), Vector3(args[5], args[6], args[7]))
			)
		"move_and_slide":
			_answer_vector(port.move_and_slide(Vector3(args[2], args[3], args[4]), args[5]))
		"slide_collision":
			_answer_test_move(port.slide_collision(int(args[2])))
		"slide_collision_count":
			_core.answer(port.slide_collision_count())
		"touched_body":
			_answer_touched(port.touched_body(int(args[2])))
		"push_body":
			port.push_body(int(args[2]), Vector3(args[3], args[4], args[5]))
		"floor_body":
			_answer_touched(port.floor_body())
		"press_floor_body":
			port.press_floor_body(Vector3(args[2], args[3], args[4]), Vector3(args[5], args[6], args[7]))
		"is_on_floor":
			_core.answer(1 if port.is_on_floor() else 0)
		"is_on_wall":
			_core.answer(1 if port.is_on_wall() else 0)
		"wall_normal":
			_answer_vector(port.wall_normal())
		"floor_normal":
			_answer_vector(port.floor_normal())
		"apply_floor_snap":
			port.apply_floor_snap()
		"up_direction":
			_answer_vector(port.up_direction())
		"floor_max_angle":
			_core.answer(port.floor_max_angle())
		"safe_margin":
			_core.answer(port.safe_margin())
		"shape_height":
			_core.answer(port.shape_height())
		"shape_radius":
			_core.answer(port.shape_radius())
		"set_shape_height":
			port.set_shape_height(args[2])
		_:
			push_error("kcc: unknown port call %s" % args[0])


func _answer_vector(v: Vector3) -> void:
	_core.answer(v.x, v.y, v.z)


## A body to push: its id (the low 24 bits of its RID's, exact in the mailbox's f32), normal,
## point, mass, velocity, then the flag (rust/kcc-wasm/src/host.rs, `touched`); only the flag,
## 0, when the collision is no body to push.
func _answer_touched(found: Dictionary) -> void:
	if found.is_empty():
		_core.answer(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
		return
	var normal: Vector3 = found["normal"]
	var point: Vector3 = found["point"]
	var velocity: Vector3 = found["velocity"]
	_core.answer(
		int(found["id"]) & 0xFFFFFF,
		normal.x,
		normal.y,
		normal.z,
		point.x,
		point.y,
		point.z,
		found["mass"],
		velocity.x,
		velocity.y,
		velocity.z,
		1
	)


## Travel, remainder, normal, point, depth, then the hit flag (rust/kcc-wasm/src/host.rs).
func _answer_test_move(found: Dictionary) -> void:
	var travel: Vector3 = found.get("travel", Vector3.ZERO)
	var rest: Vector3 = found.get("remainder", Vector3.ZERO)
	var normal: Vector3 = found.get("normal", Vector3.ZERO)
	var point: Vector3 = found.get("point", Vector3.ZERO)
	var depth: float = found.get("depth", 0.0)
	_core.answer(
		travel.x,
		travel.y,
		travel.z,
		rest.x,
		rest.y,
		rest.z,
		normal.x,
		normal.y,
		normal.z,
		point.x,
		point.y,
		point.z,
		depth,
		1 if found["hit"] else 0
	)
