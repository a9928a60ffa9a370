#include "pn532_frame.h"

enum {
    ST_PREAMBLE, /* expecting 00 .. 00 FF */
    ST_LEN,
    ST_LCS,
    ST_DATA,
    ST_DCS,
    ST_POSTAMBLE_ACK,
    ST_POSTAMBLE_NACK,
    ST_POSTAMBLE_FRAME
};

uint8_t pn532_frame_build(uint8_t *out, uint8_t cap, const uint8_t *cmd, uint8_t n)
{
    uint8_t len = (uint8_t)(n + 1); /* TFI counts in LEN */
    if (n >= PN532_MAX_DATA || (uint16_t)n + 8 > cap) {
        return 0;
    }
    uint8_t i = 0;
    out[i++] = 0x00; /* preamble */
    out[i++] = 0x00; /* start code */
    out[i++] = 0xFF;
    out[i++] = len;
    out[i++] = (uint8_t)(0x100 - len); /* LCS */
    out[i++] = PN532_TFI_HOST;
    uint8_t sum = PN532_TFI_HOST;
    for (uint8_t k = 0; k < n; k++) {
        out[i++] = cmd[k];
        sum = (uint8_t)(sum + cmd[k]);
    }
    out[i++] = (uint8_t)(0x100 - sum); /* DCS */
    out[i++] = 0x00; /* postamble */
    return i;
}

void pn532_rx_init(pn532_rx *rx)
{
    rx->state = ST_PREAMBLE;
    rx->zeros = 0;
    rx->len = 0;
    rx->got = 0;
    rx->sum = 0;
}

int8_t pn532_rx_feed(pn532_rx *rx, uint8_t byte)
{
    switch (rx->state) {
    case ST_PREAMBLE:
        if (byte == 0x00) {
            /* The SPI read may start with idle zeros; any run of them is a valid preamble. */
            if (rx->zeros < 255) rx->zeros++;
            return PN532_RX_MORE;
        }
        if (byte == 0xFF && rx->zeros > 0) {
            rx->state = ST_LEN;
            return PN532_RX_MORE;
        }
        return PN532_RX_BAD_PREAMBLE;
    case ST_LEN:
        rx->len = byte;
        rx->state = ST_LCS;
        return PN532_RX_MORE;
    case ST_LCS:
        if (rx->len == 0x00 && byte == 0xFF) {
            rx->state = ST_POSTAMBLE_ACK;
            return PN532_RX_MORE;
        }
        if (rx->len == 0xFF && byte == 0x00) {
            rx->state = ST_POSTAMBLE_NACK;
            return PN532_RX_MORE;
        }
        if (rx->len == 0xFF && byte == 0xFF) {
            return PN532_RX_TOO_LONG; /* extended frame: never needed for our commands */
        }
        if ((uint8_t)(rx->len + byte) != 0) {
            return PN532_RX_BAD_LCS;
        }
        if (rx->len == 0x00) {
            /* LEN counts the TFI, so it is never 00 outside an ACK; 00 00 passes the sum
             * above, and a data phase of length 0 would never end. */
            return PN532_RX_BAD_LCS;
        }
        if (rx->len > PN532_MAX_DATA) {
            return PN532_RX_TOO_LONG;
        }
        rx->got = 0;
        rx->sum = 0;
        rx->state = ST_DATA;
        return PN532_RX_MORE;
    case ST_DATA:
        if (rx->got >= rx->len || rx->got >= PN532_MAX_DATA) {
            return PN532_RX_TOO_LONG; /* unreachable after the LEN checks; kept as the buffer's guard */
        }
        rx->data[rx->got++] = byte;
        rx->sum = (uint8_t)(rx->sum + byte);
        if (rx->got == rx->len) {
            rx->state = ST_DCS;
        }
        return PN532_RX_MORE;
    case ST_DCS:
        if ((uint8_t)(rx->sum + byte) != 0) {
            return PN532_RX_BAD_DCS;
        }
        rx->state = ST_POSTAMBLE_FRAME;
        return PN532_RX_MORE;
    case ST_POSTAMBLE_ACK:
        return byte == 0x00 ? PN532_RX_ACK : PN532_RX_BAD_POSTAMBLE;
    case ST_POSTAMBLE_NACK:
        return byte == 0x00 ? PN532_RX_NACK : PN532_RX_BAD_POSTAMBLE;
    case ST_POSTAMBLE_FRAME:
        if (byte != 0x00) {
            return PN532_RX_BAD_POSTAMBLE;
        }
        /* The error frame is a one-byte frame whose "TFI" is 7F. */
        if (rx->len == 1 && rx->data[0] == 0x7F) {
            return PN532_RX_ERROR_FRAME;
        }
        return PN532_RX_FRAME;
    default:
        return PN532_RX_BAD_PREAMBLE;
    }
}
