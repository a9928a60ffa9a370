"""Subcommands of ``rop``, one module per group."""
