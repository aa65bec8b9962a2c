"""The virtual machine: opcodes, the Cython bytecode loop, SQL value semantics (affinity,
comparison, arithmetic, casts), built-in scalar and aggregate functions, and the sorter.

Runs programs made by the compiler over cursors of ``storage``; never parses SQL.
"""
