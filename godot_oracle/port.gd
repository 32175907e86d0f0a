# gdlint: disable=max-public-methods
# (one public method per method of the port trait: more than gdlint's 20)
extends RefCounted
## The port `kcc::KinematicBody` answered by a CharacterBody3D: the GDScript twin of
## rust/godot/src/body.rs, call for call (a test in rust/kcc-godot checks that both make the
## same engine calls for each port method). Positions are the node's global position, m.

## The body every call goes to.
var body: CharacterBody3D
## A moving platform was under the body when the last slide began: it carried the body before
## the slide's own motion, so the slide's first collision is not said.
var carried := false
## The RigidBody3D the last floor_body found under the body, for press_floor_body.
var _floor_body: RigidBody3D
## The result object of this port's motion tests, made by the first (see _result_object).
var _result: KinematicCollision3D


func _init(character: CharacterBody3D) -> void:
	body = character


## The body's origin in world space, m.
func position() -> Vector3:
	return body.get_global_position()


## Teleports the body's origin, m. The floor state stays as the last slide left it.
func set_position(new_position: Vector3) -> void:
	body.set_global_position(new_position)


## Tests moving the shape from `from` by `motion` (m) with the body's own safe margin, without
## moving the body. Travel, remainder, and the deepest contact when it hit.
func test_move(from: Vector3, motion: Vector3) -> Dictionary:
	var start := body.get_global_transform()
	start.origin = from
	# Godot's default margin for test_move is 0.001, not the node's safe_margin: pass it.
	var margin := body.get_safe_margin()
	var collision := _result_object()
	var hit := body.test_move(start, motion, collision, margin)
	var result := {"hit": hit}
	# Contact getters print an engine error when there is no contact: ask only after a hit.
	if hit:
		result["normal"] = collision.get_normal()
		result["point"] = collision.get_position()
		result["depth"] = collision.get_depth()
		result["movable"] = _movable(collision)
	result["travel"] = collision.get_travel()
	result["remainder"] = collision.get_remainder()
	return result


## The object a motion test writes its result into: one for all the tests of this port, made by
## the first. The engine writes every field a test reads (travel and remainder always, the
## contact on a hit, read only after a hit), so nothing of an earlier test leaks into a later.
func _result_object() -> KinematicCollision3D:
	if _result:
		return _result
	_result = KinematicCollision3D.new()
	return _result


## Slides by `velocity` (m/s) over `dt` (s): Godot's move_and_slide always moves by velocity x
## its own delta, so the velocity is scaled by dt / that delta on the way in and back out.
func move_and_slide(velocity: Vector3, dt: float) -> Vector3:
	var scale := slide_scale(dt, _engine_delta())
	if scale <= 0.0:
		return velocity
	carried = not body.get_platform_velocity().is_zero_approx()
	body.set_velocity(velocity * scale)
	body.move_and_slide()
	return body.get_velocity() / scale


## Collision `index` of the last slide as a test_move result (travel, remainder, its deepest
## contact); {"hit": false} past its last collision, or when a platform carried the body
## before or after it.
func slide_collision(index: int) -> Dictionary:
	# Carried by a platform before or after the slide: the first motion did not start where
	# the body stood.
	if carried or not body.get_platform_velocity().is_zero_approx():
		return {"hit": false}
	var collision := _collision_at(index)
	if collision == null:
		return {"hit": false}
	return {
		"hit": true,
		"travel": collision.get_travel(),
		"remainder": collision.get_remainder(),
		"normal": collision.get_normal(),
		"point": collision.get_position(),
		"depth": collision.get_depth(),
		"movable": _movable(collision),
	}


## True when what `collision` touched is a body the engine simulates (a RigidBody3D that is
## not frozen) or another character (a CharacterBody3D): pushed or met as a wall, never climbed
## as a step.
static func _movable(collision: KinematicCollision3D) -> bool:
	var collider := collision.get_collider()
	var rigid := collider as RigidBody3D
	if rigid:
		return not rigid.is_freeze_enabled()
	return collider is CharacterBody3D


## How many collisions the last slide had.
func slide_collision_count() -> int:
	return body.get_slide_collision_count()


## Collision `index` of the last slide as a body to push: its id, the contact's normal and
## point, its mass and its linear velocity now (with the impulses given since the last physics
## step); {} when what it touched is no RigidBody3D, or a frozen one.
func touched_body(index: int) -> Dictionary:
	var collision := _collision_at(index)
	if collision == null:
		return {}
	var rigid := collision.get_collider() as RigidBody3D
	if rigid == null or rigid.is_freeze_enabled():
		return {}
	return _touched_of(collision, rigid)


## The body `rigid` that `collision` touched, as the port describes it: its id, the contact's
## normal and point, its mass and its linear velocity now (with the impulses given since the
## last physics step).
static func _touched_of(collision: KinematicCollision3D, rigid: RigidBody3D) -> Dictionary:
	var rid := rigid.get_rid()
	return {
		"id": rid.get_id(),
		"normal": collision.get_normal(),
		"point": collision.get_position(),
		"mass": rigid.get_mass(),
		"velocity":
		PhysicsServer3D.body_get_state(rid, PhysicsServer3D.BODY_STATE_LINEAR_VELOCITY),
	}


## True when collision `index` of the last slide is another character (a CharacterBody3D).
func touched_character(index: int) -> bool:
	var collision := _collision_at(index)
	if collision == null:
		return false
	return collision.get_collider() is CharacterBody3D


## Gives the body of the last slide's collision `index` an `impulse` (N s) through its centre
## of mass, when it is a RigidBody3D that is not frozen.
func push_body(index: int, impulse: Vector3) -> void:
	var collision := _collision_at(index)
	if collision == null:
		return
	var rigid := collision.get_collider() as RigidBody3D
	if rigid == null or rigid.is_freeze_enabled():
		return
	rigid.apply_central_impulse(impulse)


## The RigidBody3D (not frozen) the body stands on, found by one motion test straight down by
## twice the safe margin from where the body is: its id, the contact's normal and point, its
## mass and its linear velocity now; {} when it stands on anything else. Remembered for
## press_floor_body.
func floor_body() -> Dictionary:
	_floor_body = null
	var margin := body.get_safe_margin()
	var start := body.get_global_transform()
	var down := -body.get_up_direction() * (2.0 * margin)
	var collision := _result_object()
	if not body.test_move(start, down, collision, margin):
		return {}
	var rigid := collision.get_collider() as RigidBody3D
	if rigid == null or rigid.is_freeze_enabled():
		return {}
	var found := _touched_of(collision, rigid)
	_floor_body = rigid
	return found


## Gives the body the last floor_body found an `impulse` (N s) at `point` (world space, m).
func press_floor_body(impulse: Vector3, point: Vector3) -> void:
	var rigid := _floor_body
	if rigid == null or not is_instance_valid(rigid):
		return
	var offset := point - rigid.get_global_position()
	rigid.apply_impulse(impulse, offset)


## True when the last slide or snap left the body on walkable floor.
func is_on_floor() -> bool:
	return body.is_on_floor()


## True when the last slide touched a wall.
func is_on_wall() -> bool:
	return body.is_on_wall()


## Normal of the wall the last slide touched.
func wall_normal() -> Vector3:
	return body.get_wall_normal()


## Normal of the floor after the last slide.
func floor_normal() -> Vector3:
	return body.get_floor_normal()


## Snaps the body down onto floor within its snap length.
func apply_floor_snap() -> void:
	body.apply_floor_snap()


## The body's up direction.
func up_direction() -> Vector3:
	return body.get_up_direction()


## Steepest floor, rad.
func floor_max_angle() -> float:
	return body.get_floor_max_angle()


## Distance kept from surfaces in motion tests, m.
func safe_margin() -> float:
	return body.get_safe_margin()


## Height of the body's collision shape along up, m (0 for a shape that cannot be resized).
func shape_height() -> float:
	var holder := _collision_shape()
	if holder == null or holder.shape == null:
		return 0.0
	return height_of(holder.shape)


## How far the body's collision shape reaches across its Y axis, m (0 for a shape without a
## radius).
func shape_radius() -> float:
	var holder := _collision_shape()
	if holder == null or holder.shape == null:
		return 0.0
	return radius_of(holder.shape)


## Makes the body's collision shape `height` tall (m), keeping its bottom where it is. The
## shape is copied first: the resource may be shared with other bodies.
func set_shape_height(height: float) -> void:
	var holder := _collision_shape()
	if holder == null or holder.shape == null:
		return
	var old := height_of(holder.shape)
	if old <= 0.0:
		return
	var resized: Shape3D = holder.shape.duplicate()
	var new := resize(resized, height)
	if new <= 0.0:
		new = old
	holder.shape = resized
	holder.position.y += (new - old) * 0.5


## Height of a capsule, cylinder or box shape along Y, m; 0 for other shapes.
static func height_of(shape: Shape3D) -> float:
	if shape is CapsuleShape3D or shape is CylinderShape3D:
		return shape.height
	if shape is BoxShape3D:
		return shape.size.y
	return 0.0


## A capsule's, cylinder's or sphere's radius, half a box's narrower side across Y (m); 0 for
## other shapes.
static func radius_of(shape: Shape3D) -> float:
	if shape is CapsuleShape3D or shape is CylinderShape3D or shape is SphereShape3D:
		return shape.radius
	if shape is BoxShape3D:
		return 0.5 * minf(shape.size.x, shape.size.z)
	return 0.0


## Makes a capsule, cylinder or box shape `height` tall along Y (m), a capsule at least twice
## its radius; the height it became, 0 for other shapes or an unusable height.
static func resize(shape: Shape3D, height: float) -> float:
	if is_nan(height) or is_inf(height) or height <= 0.0:
		return 0.0
	if shape is CapsuleShape3D:
		shape.height = maxf(height, 2.0 * shape.radius)
	elif shape is CylinderShape3D:
		shape.height = height
	elif shape is BoxShape3D:
		shape.size.y = height
	else:
		return 0.0
	return height_of(shape)


## `dt / engine_delta`, as body.rs's `slide_scale`: 0 when nothing should move (dt zero,
## negative or not finite), 1 when the engine's delta is unusable.
static func slide_scale(dt: float, engine_delta: float) -> float:
	if is_nan(dt) or is_inf(dt) or dt <= 0.0:
		return 0.0
	if is_nan(engine_delta) or is_inf(engine_delta) or engine_delta <= 0.0:
		return 1.0
	var scale := dt / engine_delta
	if is_nan(scale) or is_inf(scale) or scale <= 0.0:
		return 0.0
	return scale


## The last slide's collision `index`; null when it had fewer (asked for a collision it does
## not have, the engine prints an error: count first).
func _collision_at(index: int) -> KinematicCollision3D:
	if index < 0 or index >= body.get_slide_collision_count():
		return null
	return body.get_slide_collision(index)


## The body's first CollisionShape3D child: the shape crouching resizes.
func _collision_shape() -> CollisionShape3D:
	for child in body.get_children():
		if child is CollisionShape3D:
			return child
	return null


## The delta Godot's move_and_slide will use: the physics delta inside a physics frame, the
## process delta outside (the engine's own rule).
func _engine_delta() -> float:
	if Engine.is_in_physics_frame():
		return body.get_physics_process_delta_time()
	return body.get_process_delta_time()
