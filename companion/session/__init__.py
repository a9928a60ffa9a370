"""The game session: one game at one table, the one state every move source talks to."""
