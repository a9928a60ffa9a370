"""Rule of Power's screens: the table (its panels in the dashboard's frame), the round's
settlement, and manual play's dialogs (set-up, deal, the choice between a card's captures)."""
