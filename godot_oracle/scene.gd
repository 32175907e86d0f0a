extends RefCounted
## Builds a scenario's scene in Godot from the description kcc-sim sends (rust/kcc-godot,
## `SceneDesc`): static solids as StaticBody3D nodes with one CollisionShape3D each, moving
## platforms as AnimatableBody3D nodes (synced to physics: a new transform is reached in the
## next physics step), rigid bodies (boxes and balls) as RigidBody3D nodes (Godot's defaults:
## friction 1, no bounce, the project's damping), and the character as a CharacterBody3D
## whose origin is the bottom of its shape. Vectors arrive as [x, y, z] arrays, m; angles in rad.


## A new world node under `parent` holding the solids, the platforms (in the group
## "platforms", each with its description and time-0 transform as metadata), the rigid bodies
## (in the group "rigid_bodies", in order) and the characters (in the group "characters": the
## body first, then the other characters, each like the body, at its start).
static func build(parent: Node3D, scene: Dictionary) -> Node3D:
	var world := Node3D.new()
	world.name = "World"
	parent.add_child(world)
	for solid: Dictionary in scene["solids"]:
		world.add_child(_solid(solid))
	for desc: Dictionary in scene["platforms"]:
		world.add_child(_platform(desc))
	for desc: Dictionary in scene.get("rigid_bodies", []):
		world.add_child(_rigid_body(desc))
	var starts: Array = [scene["start"]]
	starts.append_array(scene.get("others", []))
	for index in starts.size():
		var body := _body(scene["body"])
		if index > 0:
			body.name = "Other%d" % index
		body.add_to_group("characters")
		world.add_child(body)
		body.set_global_position(vec3(starts[index]))
	return world


## [x, y, z] to a Vector3.
static func vec3(values: Array) -> Vector3:
	return Vector3(values[0], values[1], values[2])


static func _solid(solid: Dictionary) -> StaticBody3D:
	var node := StaticBody3D.new()
	var collision := CollisionShape3D.new()
	match solid["kind"]:
		"box":
			var box := BoxShape3D.new()
			box.size = vec3(solid["size"])
			_set_margin(box, solid)
			collision.shape = box
			var r: Array = solid["rotation"]
			var rotation := Quaternion(r[0], r[1], r[2], r[3])
			node.transform = Transform3D(Basis(rotation), vec3(solid["center"]))
		"hull":
			var hull := ConvexPolygonShape3D.new()
			hull.points = _points(solid["points"])
			_set_margin(hull, solid)
			collision.shape = hull
		"sphere":
			var sphere := SphereShape3D.new()
			sphere.radius = solid["radius"]
			collision.shape = sphere
			node.position = vec3(solid["center"])
		"mesh":
			var mesh := ConcavePolygonShape3D.new()
			mesh.set_faces(_points(solid["faces"]))
			mesh.backface_collision = false
			collision.shape = mesh
		_:
			push_error("oracle: unknown solid kind %s" % solid["kind"])
	node.add_child(collision)
	return node


## Where a platform is at time `t` (s): its time-0 transform `rest` moved by its motion (the
## twin of kcc-parry's `PlatformMotion::placement`).
static func platform_transform(desc: Dictionary, rest: Transform3D, t: float) -> Transform3D:
	var progress := t
	var every = desc["reverse_every"]
	if every != null and every > 0.0:
		var phase := fposmod(t, 2.0 * every)
		progress = phase if phase <= every else 2.0 * every - phase
	var pivot := vec3(desc["pivot"])
	var turn := Basis(Vector3.UP, desc["angular_velocity"] * progress)
	var shift := vec3(desc["velocity"]) * progress
	return Transform3D(turn, pivot + shift - turn * pivot) * rest


static func _platform(desc: Dictionary) -> AnimatableBody3D:
	var node := AnimatableBody3D.new()
	node.sync_to_physics = true
	var rest := _add_box(node, desc)
	node.transform = rest
	node.set_meta("desc", desc)
	node.set_meta("rest", rest)
	node.add_to_group("platforms")
	return node


static func _rigid_body(desc: Dictionary) -> RigidBody3D:
	var node := RigidBody3D.new()
	node.mass = desc["mass"]
	node.linear_velocity = vec3(desc["velocity"])
	if desc.get("radius") == null:
		node.transform = _add_box(node, desc)
	else:
		var sphere := SphereShape3D.new()
		sphere.radius = desc["radius"]
		var collision := CollisionShape3D.new()
		collision.shape = sphere
		node.add_child(collision)
		node.position = vec3(desc["center"])
	node.set_meta("start_rotation", node.quaternion)
	node.add_to_group("rigid_bodies")
	return node


## Gives `node` a CollisionShape3D with the BoxShape3D of `desc` (size, margin); returns the
## transform `desc` places it at (its centre and rotation).
static func _add_box(node: Node3D, desc: Dictionary) -> Transform3D:
	var box := BoxShape3D.new()
	box.size = vec3(desc["size"])
	box.margin = desc["margin"]
	var collision := CollisionShape3D.new()
	collision.shape = box
	node.add_child(collision)
	var r: Array = desc["rotation"]
	return Transform3D(Basis(Quaternion(r[0], r[1], r[2], r[3])), vec3(desc["center"]))


static func _body(desc: Dictionary) -> CharacterBody3D:
	var body := CharacterBody3D.new()
	body.name = "Character"
	body.motion_mode = (
		CharacterBody3D.MOTION_MODE_FLOATING
		if desc["floating"]
		else CharacterBody3D.MOTION_MODE_GROUNDED
	)
	body.safe_margin = desc["safe_margin"]
	body.floor_max_angle = desc["floor_max_angle"]
	body.max_slides = int(desc["max_slides"])
	body.floor_snap_length = desc["floor_snap_length"]
	body.wall_min_slide_angle = desc["wall_min_slide_angle"]
	body.floor_stop_on_slope = desc["floor_stop_on_slope"]
	body.floor_block_on_wall = desc["floor_block_on_wall"]
	body.floor_constant_speed = desc["floor_constant_speed"]
	body.slide_on_ceiling = desc["slide_on_ceiling"]
	body.up_direction = vec3(desc["up_direction"])
	var shape_desc: Dictionary = desc["shape"]
	var shape: Shape3D
	var height := 0.0
	match shape_desc["kind"]:
		"capsule", "cylinder":
			# Both are sized by radius and total height.
			var round_shape = (
				CapsuleShape3D.new() if shape_desc["kind"] == "capsule" else CylinderShape3D.new()
			)
			round_shape.radius = shape_desc["radius"]
			round_shape.height = shape_desc["height"]
			height = round_shape.height
			shape = round_shape
		_:
			var box := BoxShape3D.new()
			box.size = vec3(shape_desc["size"])
			height = box.size.y
			shape = box
	shape.margin = desc["shape_margin"]
	var collision := CollisionShape3D.new()
	collision.name = "Shape"
	collision.shape = shape
	# The origin is the bottom of the shape ("feet"), as in the sample project, unless the
	# shape floats above the feet (ground following by a probe).
	var lift: float = desc.get("float_height", 0.0)
	collision.position = Vector3(0, lift + height * 0.5, 0)
	body.add_child(collision)
	return body


static func _set_margin(shape: Shape3D, solid: Dictionary) -> void:
	if solid.has("margin"):
		shape.margin = solid["margin"]


static func _points(values: Array) -> PackedVector3Array:
	var points := PackedVector3Array()
	points.resize(values.size())
	for i in values.size():
		points[i] = vec3(values[i])
	return points
