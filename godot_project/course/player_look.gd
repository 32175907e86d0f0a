extends Node3D
## Mouse look for the course's player: turns this yaw pivot left and right and tilts the camera
## up and down. Click to capture the mouse, press Escape (ui_cancel) to release it.
##
## The player's RustCharacterBody3D uses this node as its yaw node, so "forward" is where the
## camera looks.

## The camera that tilts up and down.
@export var camera: Camera3D
## Turn per pixel of mouse motion, in degrees.
@export_range(0.01, 1.0, 0.01, "suffix:°") var sensitivity := 0.15
## Steepest look up or down, in degrees.
@export_range(0.0, 90.0, 1.0, "suffix:°") var max_pitch := 85.0


func _unhandled_input(event: InputEvent) -> void:
	var click := event as InputEventMouseButton
	var motion := event as InputEventMouseMotion
	if click and click.pressed:
		Input.mouse_mode = Input.MOUSE_MODE_CAPTURED
	elif event.is_action_pressed("ui_cancel"):
		Input.mouse_mode = Input.MOUSE_MODE_VISIBLE
	elif motion and Input.mouse_mode == Input.MOUSE_MODE_CAPTURED:
		rotate_y(deg_to_rad(-motion.relative.x * sensitivity))
		if camera:
			var pitch := camera.rotation.x - deg_to_rad(motion.relative.y * sensitivity)
			var limit := deg_to_rad(max_pitch)
			camera.rotation.x = clampf(pitch, -limit, limit)
