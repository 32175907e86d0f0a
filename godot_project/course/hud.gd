extends Label
## Shows the player's horizontal speed, what it stands on, its last stair step and its
## footsteps.
##
## The course scene connects the player's stepped signal to [method _on_player_stepped].

## What each of RustCharacterBody3D's ground states reads as.
const GROUND_WORDS := {
	RustCharacterBody3D.GROUND_IN_AIR: "in the air",
	RustCharacterBody3D.GROUND_ON_FLOOR: "on floor",
	RustCharacterBody3D.GROUND_ON_EDGE: "on a stair's edge",
	RustCharacterBody3D.GROUND_ON_STEEP_SLOPE: "sliding on a steep slope",
}

## The character to watch.
@export var player: RustCharacterBody3D

var _last_step := 0.0
var _steps := 0


func _process(_delta: float) -> void:
	if not player:
		text = "no player"
		return
	var run := Vector3(player.velocity.x, 0.0, player.velocity.z)
	var ground: String = GROUND_WORDS.get(player.get_ground_state(), "?")
	var footsteps: int = player.get("footsteps") if "footsteps" in player else 0
	text = (
		"speed %.2f m/s  (%s)\nlast step %+.2f m  (%d steps, %d footsteps)\n"
		+ "WASD / arrows / left stick: move, space / A: jump, C / B: crouch"
	) % [run.length(), ground, _last_step, _steps, footsteps]


func _on_player_stepped(vertical_travel: float) -> void:
	_last_step = vertical_travel
	_steps += 1
