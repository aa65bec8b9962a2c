"""In-memory files: a VFS whose files are bytearrays in a dict (one namespace per MemoryVfs).

Used for ``:memory:`` databases, and as the substrate of the fault-injecting VFS. Never
touches the OS file system.
"""

from __future__ import annotations

from sqlengine.vfs.base import File, Vfs


class MemoryFile(File):
    def __init__(self, data: bytearray):
        self.data = data
        self.closed = False

    def read(self, offset: int, n: int) -> bytes:
        return bytes(self.data[offset:offset + n])

    def write(self, offset: int, data) -> None:
        end = offset + len(data)
        if end > len(self.data):
            self.data.extend(bytes(end - len(self.data)))
        self.data[offset:end] = data

    def truncate(self, size: int) -> None:
        if size < len(self.data):
            del self.data[size:]
        else:
            self.data.extend(bytes(size - len(self.data)))

    def size(self) -> int:
        return len(self.data)

    def close(self) -> None:
        self.closed = True


class MemoryVfs(Vfs):
    def __init__(self):
        self.files: dict[str, bytearray] = {}

    def open(self, path: str, kind: str = "main") -> MemoryFile:
        data = self.files.get(path)
        if data is None:
            data = self.files[path] = bytearray()
        return MemoryFile(data)

    def delete(self, path: str) -> None:
        self.files.pop(path, None)

    def exists(self, path: str) -> bool:
        return path in self.files
