"""The dashboard's panels, each reading the game state it is given."""
