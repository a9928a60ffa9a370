"""Rule of Power table companion: rules engine, game records, table tracker and dashboard."""

__version__ = "0.1.0"
