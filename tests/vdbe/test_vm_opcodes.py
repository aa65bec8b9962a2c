"""The opcode list of opcodes.py and the enum of the Cython loop must agree."""

import re
from pathlib import Path

from sqlengine.vdbe import opcodes as O


def test_enum_matches_opcode_list():
    src = (Path(O.__file__).parent / "_vm.pyx").read_text()
    m = re.search(r"cdef enum:\n((?:    .*\n)+)", src)
    names = re.findall(r"OP_(\w+)", m.group(1))
    assert names == O.NAMES


def test_every_opcode_documented():
    for name, _operands, doc in O.OPCODES:
        assert doc and (doc[0].isupper() or doc.startswith("r[")), name
