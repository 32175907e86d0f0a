extends Node3D
## Builds a spiral staircase around a central column when the scene starts.
##
## Each step is a slab [member rise] thick, turned [member turn_per_step] degrees from the one
## below, reaching from the column out to [member outer_radius]. The steps exist only while the
## game runs (this script is not a tool script).

## Number of steps.
@export_range(1, 64) var step_count := 16
## Height of each step, in m.
@export_range(0.05, 0.5, 0.01, "suffix:m") var rise := 0.2
## Turn from one step to the next, in degrees (positive turns counterclockwise seen from above).
@export_range(5.0, 90.0, 0.5, "suffix:°") var turn_per_step := 22.5
## Radius of the central column, in m.
@export_range(0.1, 2.0, 0.05, "suffix:m") var column_radius := 0.4
## Distance from the centre to the outer edge of the steps, in m.
@export_range(0.5, 5.0, 0.05, "suffix:m") var outer_radius := 2.5
## Width of each step along its outer edge, in m.
@export_range(0.2, 3.0, 0.05, "suffix:m") var tread_width := 1.1
## Material of the steps and the column.
@export var material: Material


func _ready() -> void:
	var body := StaticBody3D.new()
	body.name = "Body"
	add_child(body)
	var height := rise * step_count
	var column := CylinderShape3D.new()
	column.radius = column_radius
	column.height = height
	var column_mesh := CylinderMesh.new()
	column_mesh.top_radius = column_radius
	column_mesh.bottom_radius = column_radius
	column_mesh.height = height
	_add_part(body, column, column_mesh, Transform3D(Basis.IDENTITY, Vector3(0, height / 2, 0)))
	var length := outer_radius - column_radius * 0.5
	var size := Vector3(length, rise, tread_width)
	var shape := BoxShape3D.new()
	shape.size = size
	# Sharp stair noses under Jolt, which rounds box edges by the margin (see the addon README).
	shape.margin = 0.001
	var mesh := BoxMesh.new()
	mesh.size = size
	for i in step_count:
		var turn := Basis(Vector3.UP, deg_to_rad(turn_per_step * i))
		var centre := Vector3(column_radius * 0.5 + length / 2, rise * (i + 0.5), 0)
		_add_part(body, shape, mesh, Transform3D(turn, turn * centre))


func _add_part(body: StaticBody3D, shape: Shape3D, mesh: Mesh, place: Transform3D) -> void:
	var collision := CollisionShape3D.new()
	collision.shape = shape
	collision.transform = place
	body.add_child(collision)
	var visual := MeshInstance3D.new()
	visual.mesh = mesh
	visual.material_override = material
	visual.transform = place
	body.add_child(visual)
