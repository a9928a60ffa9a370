"""Whatever bytes arrive, the protocol object neither raises nor invents a message: only the
well-formed lines hidden among the noise come out, in order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.board import BoardProtocol, parse_message
from hardware.line_codec import encode_line

VALID = [encode_line(b) for b in ("TAG 0 04A1B2C3D4E5F6", "GONE 3 DEADBEEF", "HB 1234", "READY", "RDR 1 DOWN TIMEOUT")]


@settings(max_examples=150, deadline=None)
@given(
    pieces=st.lists(
        st.one_of(st.binary(max_size=300).filter(lambda b: b"\n" not in b), st.sampled_from(VALID)), max_size=12
    ),
    cuts=st.lists(st.integers(min_value=1, max_value=17), min_size=1, max_size=8),
)
def test_noise_never_raises_and_never_invents_messages(pieces, cuts):
    # Noise pieces are closed by a newline of their own so that they cannot swallow a valid line.
    stream = b"".join(p if p in VALID else p + b"\n" for p in pieces)
    expected = [parse_message(p[:-4].decode()) for p in pieces if p in VALID]
    got, bad = [], []
    proto = BoardProtocol(got.append, lambda raw, why: bad.append(why))
    i = 0
    k = 0
    while i < len(stream):  # arrive in chunks of arbitrary sizes, as a serial port delivers
        step = cuts[k % len(cuts)]
        proto.data_received(stream[i : i + step])
        i += step
        k += 1
    assert got == expected
    noise = [p for p in pieces if p not in VALID and p.strip(b"\r")]
    assert len(bad) >= len([p for p in noise if len(p) <= BoardProtocol.MAX_LINE])
