/* PN532 host-link frames (PN532 User Manual, section 6.2.1), independent of the bus.
 *
 * Normal information frame:
 *     00 00 FF LEN LCS TFI PD0 .. PDn DCS 00
 *   LEN = number of bytes in TFI + PD0..PDn; LCS makes LEN + LCS == 0 (mod 256);
 *   TFI = D4 host to chip, D5 chip to host; DCS makes TFI + PD0..PDn + DCS == 0 (mod 256).
 * ACK frame:  00 00 FF 00 FF 00       NACK frame: 00 00 FF FF 00 00
 * Error frame (application level): 00 00 FF 01 FF 7F 81 00
 *
 * This file has no AVR dependency so the host build can test it byte for byte. */
#ifndef ROP_PN532_FRAME_H
#define ROP_PN532_FRAME_H

#include <stdint.h>

#define PN532_TFI_HOST 0xD4 /* frame identifier, host to PN532 */
#define PN532_TFI_CHIP 0xD5 /* frame identifier, PN532 to host */
#define PN532_MAX_DATA 48   /* longest TFI+data we accept; InListPassiveTarget needs < 20 */

/* Build a normal information frame carrying `cmd` (command code then parameters) into `out`.
 * Returns the frame length, or 0 when it does not fit in `cap` bytes or exceeds the data limit. */
uint8_t pn532_frame_build(uint8_t *out, uint8_t cap, const uint8_t *cmd, uint8_t n);

/* Result of feeding bytes to the receive parser. */
typedef enum {
    PN532_RX_MORE = 0,     /* frame not complete yet: feed the next byte */
    PN532_RX_ACK = 1,      /* a complete ACK frame */
    PN532_RX_NACK = 2,     /* a complete NACK frame */
    PN532_RX_FRAME = 3,    /* a complete, checksum-correct information frame */
    PN532_RX_ERROR_FRAME = 4, /* the chip's application-level error frame (TFI 7F) */
    PN532_RX_BAD_LCS = -1, /* LEN and LCS disagree */
    PN532_RX_BAD_DCS = -2, /* data checksum wrong */
    PN532_RX_TOO_LONG = -3, /* LEN beyond PN532_MAX_DATA or an extended frame */
    PN532_RX_BAD_PREAMBLE = -4, /* no 00 .. FF start code where one was due */
    PN532_RX_BAD_POSTAMBLE = -5 /* closing 00 missing (ignored by the chip, not by us) */
} pn532_rx_result;

/* Incremental parser state: one per transfer, reset with pn532_rx_init. */
typedef struct {
    uint8_t state;
    uint8_t zeros;               /* leading 00 bytes seen before the FF of the start code */
    uint8_t len;                 /* LEN field */
    uint8_t got;                 /* data bytes (TFI included) received so far */
    uint8_t sum;                 /* running sum for DCS */
    uint8_t data[PN532_MAX_DATA]; /* TFI, PD0 .. PDn */
} pn532_rx;

void pn532_rx_init(pn532_rx *rx);

/* Feed one received byte; returns PN532_RX_MORE until the frame is complete or broken. */
int8_t pn532_rx_feed(pn532_rx *rx, uint8_t byte);

#endif
