extends Label
## Shows the player's horizontal speed, whether it stands on floor, and its last stair step.
##
## The course scene connects the player's stepped signal to [method _on_player_stepped].

## The character to watch.
@export var player: CharacterBody3D

var _last_step := 0.0
var _steps := 0


func _process(_delta: float) -> void:
	if not player:
		text = "no player"
		return
	var run := Vector3(player.velocity.x, 0.0, player.velocity.z)
	var floor_text := "on floor" if player.is_on_floor() else "in the air"
	text = "speed %.2f m/s  (%s)\nlast step %+.2f m  (%d steps)\nWASD / arrows: move, space: jump" % [
		run.length(), floor_text, _last_step, _steps
	]


func _on_player_stepped(vertical_travel: float) -> void:
	_last_step = vertical_travel
	_steps += 1
