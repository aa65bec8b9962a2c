# cython: language_level=3
# C-level declarations of the pager's compiled page-miss path (_pageread.pyx), for the
# b-tree cursors' page fetch.

cdef bytearray read_page_data(object pager, Py_ssize_t pgno)
cdef int cache_page(object pager, Py_ssize_t pgno, object page) except -1
cpdef object load_page(object pager, Py_ssize_t pgno)
cpdef shrink_cache(object pager)
cpdef commit_memory(object pager)
