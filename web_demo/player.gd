extends CharacterBody3D
## The demo's character: a plain CharacterBody3D moved by the wasm core each physics tick, as
## RustCharacterBody3D moves itself with built-in input (its `_physics_process` calls the
## core's tick). WASD or the arrows move along where [member yaw_node] looks, space jumps,
## C crouches, Shift walks (the stick pushed [member walk_share] of the way).

## Emitted when the character steps up or down a stair: the height change, m (up positive).
signal stepped(vertical_travel: float)

const KccCore := preload("res://kcc_core.gd")

## The node whose turn says where "forward" is (the mouse-look pivot).
@export var yaw_node: Node3D
## Share of the full stick while Shift is held, 0..1: the core's run speed is 5 m/s.
@export_range(0.0, 1.0, 0.05) var walk_share := 0.3

## What the last tick reported (see KccCore.Report); empty before the first.
var report := PackedFloat64Array()
## Height change of the last stair step, m.
var last_step := 0.0
## Stair steps so far.
var steps := 0
## Scripted input instead of the keyboard: [wish direction, jump, crouch] for each tick from
## now on (the check's replays of `kcc-sim` runs); empty: the keyboard.
var script_input: Array = []

var _core: KccCore
## The core's character, with the core's defaults: among them the flat base
## (kcc::GroundFollow::Snap's flat_base), so a capsule stands flat on each stair's edge and its
## height and the camera change once per riser, as a cylinder's do.
var _handle := 0


func _ready() -> void:
	_core = KccCore.new()
	_handle = _core.add_character(self, {})


func _physics_process(delta: float) -> void:
	if _handle == 0:
		return
	var wish := Vector3.ZERO
	var jump := false
	var crouch := false
	if not script_input.is_empty():
		var next: Array = script_input.pop_front()
		wish = next[0]
		jump = next[1]
		crouch = next[2]
	else:
		var stick := Input.get_vector("move_left", "move_right", "move_forward", "move_back")
		var basis := yaw_node.global_basis if yaw_node else global_basis
		wish = basis * Vector3(stick.x, 0.0, stick.y)
		if Input.is_physical_key_pressed(KEY_SHIFT):
			wish *= walk_share
		jump = Input.is_action_pressed("jump")
		crouch = Input.is_physical_key_pressed(KEY_C)
	report = _core.tick(_handle, wish, jump, crouch, velocity, delta)
	if report.is_empty():
		return
	var r := KccCore.Report
	velocity = Vector3(report[r.VELOCITY_X], report[r.VELOCITY_Y], report[r.VELOCITY_Z])
	if report[r.STEPPED_FLAG] != 0.0:
		last_step = report[r.STEPPED]
		steps += 1
		stepped.emit(last_step)


## True when the last tick left the body on floor.
func on_floor() -> bool:
	return not report.is_empty() and report[KccCore.Report.ON_FLOOR] != 0.0


## Vertical travel of the last tick's stair steps, m (0 when it did not step).
func tick_step() -> float:
	if report.is_empty() or report[KccCore.Report.STEPPED_FLAG] == 0.0:
		return 0.0
	return report[KccCore.Report.STEPPED]
