extends Camera3D
## What StepSmoothCamera3D (rust/godot/src/camera.rs) does, in GDScript: on a step of `dy` the
## camera keeps its height (an offset of -dy from its resting place), then eases back,
## `offset *= exp(-decay * dt)`, independent of the tick rate. Here it eases every physics
## tick, after the player's tick, so the page's trace sees the camera of each tick.

## The character whose `stepped` signal moves the camera.
@export var target: Node
## Rate at which the offset returns to zero, 1/s (StepSmoothCamera3D's default).
@export var decay := 20.0

## Offset from the resting place, m (negative after a step up).
var offset := 0.0
var _rest_height := 0.0


func _ready() -> void:
	_rest_height = position.y
	if target:
		target.stepped.connect(add_step)


## Records a step of `vertical_travel` m (up positive).
func add_step(vertical_travel: float) -> void:
	offset -= vertical_travel


func _physics_process(delta: float) -> void:
	offset *= exp(-decay * delta)
	if absf(offset) < 1e-5:
		offset = 0.0
	position.y = _rest_height + offset
