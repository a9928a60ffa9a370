"""NFC card readers: the tag registry, USB readers through nfcpy and our reader board over a
serial line."""
