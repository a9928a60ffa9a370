"""The plug-in contract: what a card game provides to the companion, and what every game shares.

The companion is built on three floors, and the folders show them:

- **the contract** (this package), at the bottom: the protocol a game implements
  (:mod:`~companion.contract.protocol`), its table options (:mod:`~companion.contract.options`),
  the refusals every game raises (:mod:`~companion.contract.errors`), what every game's cards
  share (:mod:`~companion.contract.cards`) and the registry that finds a game by name or record
  format (:mod:`~companion.contract.registry`);
- **the hosts** in the middle (``companion.session``, ``records``, ``observations``,
  ``tracker``, ``coach``, ``club``, ``dashboard``, ``sensors``, ``commands``, and the sensor
  packages ``vision`` and ``hardware``), which work on any game through the contract;
- **the games** on top (:mod:`companion.games`, or a package of one's own registered under the
  entry-point group ``companion.games``), each implementing the contract and the parts the
  hosts ask of it.

Nothing here imports a host or a game (the import contracts in ``pyproject.toml``).
"""
