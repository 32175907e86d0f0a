extends Label
## The demo's readout: speed, floor, last step, tick rate and shape, and the keys.

## The character to watch.
@export var player: CharacterBody3D
## The demo, for its shape's name.
@export var demo: Node


func _process(_delta: float) -> void:
	if not player:
		return
	var run := Vector3(player.velocity.x, 0.0, player.velocity.z)
	var floor_text := "on floor" if player.on_floor() else "in the air"
	text = (
		(
			"speed %.2f m/s  %s\nlast step %+.2f m  (%d steps)\n%d Hz  %s\n"
			+ "WASD move, mouse look (click), space jump, C crouch, Shift walk\n"
			+ "1-4: 30/60/144/240 Hz   Tab: capsule/cylinder"
		)
		% [
			run.length(),
			floor_text,
			player.last_step,
			player.steps,
			Engine.physics_ticks_per_second,
			demo.shape_name() if demo else "",
		]
	)
