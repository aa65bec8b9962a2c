# Declarations of sqlengine.sql.cache (compiled from cache.py in pure-Python mode):
# parse_one holds the cache as a dict, so that its look-up, store, size and eviction are
# C calls on the dict (PyDict_*), not generic method calls and a new iterator.

cimport cython


@cython.locals(cache=dict, oldest=object)
cpdef object parse_one(object sql, object start=*)
