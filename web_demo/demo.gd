extends Node3D
## The web demo: the sample course with a character moved by the wasm core. Keys 1-4 set the
## tick rate (30, 60, 144, 240 Hz), Tab switches the body between a capsule and a cylinder.
##
## The page's URL can set the start (`rate=144`, `shape=cylinder`, `at=x,y,z`, `yaw=degrees`)
## and script the input of the first ticks instead of the keyboard (`input=`, see
## [method _script]); the page passes them on as user arguments. After every physics tick (this
## node ticks last) the tick is recorded into the page's trace (`kccDemo.record`), which the
## headless check reads: position, floor, camera height, steps.

## Tick rates keys 1 to 4 select, Hz.
const RATES: Array[int] = [30, 60, 144, 240]
## Radius and height of both shapes, m (the sample course's player).
const RADIUS := 0.3
const HEIGHT := 1.8

@export var player: CharacterBody3D
@export var camera: Camera3D

var _cylinder := false
var _page: JavaScriptObject
var _tick := 0


func _ready() -> void:
	# After the player and its camera in every physics frame.
	process_physics_priority = 100
	if OS.has_feature("web"):
		_page = JavaScriptBridge.get_interface("kccDemo")
	var args := _user_args()
	if args.has("rate"):
		set_rate(int(args["rate"]))
	if args.get("shape", "") == "cylinder":
		set_cylinder(true)
	if args.has("at"):
		var at: PackedFloat64Array = String(args["at"]).split_floats(",")
		if at.size() == 3:
			player.global_position = Vector3(at[0], at[1], at[2])
	if args.has("yaw"):
		player.yaw_node.rotation_degrees.y = float(args["yaw"])
	if args.has("input"):
		player.script_input = _script(String(args["input"]))
	print("demo: ready at %d Hz with a %s" % [Engine.physics_ticks_per_second, shape_name()])


func _unhandled_key_input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if key == null or not key.pressed or key.echo:
		return
	var index := key.physical_keycode - KEY_1
	if index >= 0 and index < RATES.size():
		set_rate(RATES[index])
	elif key.physical_keycode == KEY_TAB:
		set_cylinder(not _cylinder)


## Sets the physics tick rate, Hz.
func set_rate(rate: int) -> void:
	Engine.physics_ticks_per_second = clampi(rate, 10, 480)


## Makes the body a cylinder (true) or a capsule (false) of the same size.
func set_cylinder(cylinder: bool) -> void:
	_cylinder = cylinder
	var shape: Shape3D
	if cylinder:
		shape = CylinderShape3D.new()
	else:
		shape = CapsuleShape3D.new()
	shape.radius = RADIUS
	shape.height = HEIGHT
	shape.margin = 0.001
	var holder: CollisionShape3D = player.get_node("Shape")
	holder.shape = shape
	holder.position.y = HEIGHT * 0.5


## "capsule" or "cylinder".
func shape_name() -> String:
	return "cylinder" if _cylinder else "capsule"


func _physics_process(delta: float) -> void:
	_tick += 1
	if _page == null:
		return
	var p := player.global_position
	var speed := Vector2(player.velocity.x, player.velocity.z).length()
	_page.record(
		_tick,
		delta,
		p.x,
		p.y,
		p.z,
		1 if player.on_floor() else 0,
		camera.global_position.y,
		camera.offset,
		player.tick_step(),
		speed,
		shape_name()
	)


static func _user_args() -> Dictionary:
	var args := {}
	for arg in OS.get_cmdline_user_args():
		var pair := arg.split("=", true, 1)
		if pair.size() == 2:
			args[pair[0]] = pair[1]
	return args


## Scripted input, one entry per tick ([wish direction, jump, crouch]), from runs written
## `x,y,z,jump,crouch,ticks` and separated by `;`: the world-space wish direction (length 0..1),
## jump and crouch held (1 or 0), for that many ticks. A run written otherwise is refused with a
## warning, and the keyboard is used.
static func _script(text: String) -> Array:
	var ticks := []
	for run in text.split(";", false):
		var v := run.split_floats(",", false)
		if v.size() != 6 or v[5] < 1.0:
			push_warning("demo: input run '%s' is not x,y,z,jump,crouch,ticks" % run)
			return []
		for i in int(v[5]):
			ticks.append([Vector3(v[0], v[1], v[2]), v[3] != 0.0, v[4] != 0.0])
	print("demo: %d scripted ticks" % ticks.size())
	return ticks
