"""The VFS: the files under the pager — OS files, in-memory files, and a fault-injecting
wrapper that can fail or crash at the Nth operation (for crash and I/O-error tests).

Knows bytes, offsets, syncs and locks; never knows pages or SQL.
"""
