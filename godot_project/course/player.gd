extends RustCharacterBody3D
## The course's player: the addon's body with a script of its own, as most games give it.
##
## A script's _physics_process replaces the node's own, so it calls move_with_input(delta)
## first: the built-in movement (the input actions, oriented by the yaw node), once a physics
## frame. Then it counts footsteps over the ground walked while is_grounded(), the controller's
## own floor state, which stays true on every step of a staircase.

## Ground walked between two footsteps, m.
@export_range(0.1, 2.0, 0.05, "suffix:m") var stride := 0.7

## Footsteps taken so far.
var footsteps := 0

var _walked := 0.0


func _physics_process(delta: float) -> void:
	move_with_input(delta)
	if not is_grounded():
		_walked = 0.0
		return
	var run := get_real_velocity()
	_walked += Vector2(run.x, run.z).length() * delta
	if _walked >= stride:
		_walked -= stride
		footsteps += 1
