"""Rule of Power, the companion's first game (rulings R1-R25, records ``rop-record/1``)."""
