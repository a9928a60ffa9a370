"""The dashboard's screens: the table, the round settlement, help, and manual play's dialogs."""
