"""The compiler: resolves names against the schema, plans, and emits VM bytecode.

Reads AST nodes from ``sql.ast`` and a schema; writes ``vdbe`` programs. It never runs a
program and never touches pages directly.
"""
