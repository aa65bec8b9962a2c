# Declarations of sqlengine.compiler.plan_cols for other Cython modules (the planner,
# _paths.pyx, calls it through these). See plan_cols.pyx for the documentation.

cpdef dict columns_used(scope, core, masker=*)
