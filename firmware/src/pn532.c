#include "pn532.h"
#include "clock.h"
#include "pn532_frame.h"
#include "spi.h"

/* SPI operation byte sent first in each chip-select window (User Manual 6.2.5). */
#define OP_DATA_WRITE 0x01
#define OP_STATUS_READ 0x02
#define OP_DATA_READ 0x03

#define CMD_GET_FIRMWARE_VERSION 0x02
#define CMD_SAM_CONFIGURATION 0x14
#define CMD_RF_CONFIGURATION 0x32
#define CMD_IN_LIST_PASSIVE_TARGET 0x4A

#define ACK_TIMEOUT_MS 5 /* the chip acknowledges within about 1 ms */

/* Poll the status byte until the chip has something to read, or time runs out. */
static uint8_t wait_ready(uint8_t reader, uint16_t timeout_ms)
{
    uint32_t start = clock_ms();
    for (;;) {
        spi_select(reader);
        spi_transfer(OP_STATUS_READ);
        uint8_t status = spi_transfer(0x00);
        spi_deselect(reader);
        if (status & 0x01) return 1;
        if (clock_ms() - start >= timeout_ms) return 0;
    }
}

/* Read one frame from the chip into `rx`; returns the parser's final result. */
static int8_t read_frame(uint8_t reader, pn532_rx *rx)
{
    int8_t result = PN532_RX_MORE;
    pn532_rx_init(rx);
    spi_select(reader);
    spi_transfer(OP_DATA_READ);
    /* Bounded: preamble slack + header + longest data + DCS + postamble. */
    for (uint8_t i = 0; i < PN532_MAX_DATA + 16 && result == PN532_RX_MORE; i++) {
        result = pn532_rx_feed(rx, spi_transfer(0x00));
    }
    spi_deselect(reader);
    return result;
}

int8_t pn532_command(uint8_t reader, const uint8_t *cmd, uint8_t n,
                     uint8_t *resp, uint8_t cap, uint16_t timeout_ms)
{
    uint8_t frame[PN532_MAX_DATA + 8];
    uint8_t len = pn532_frame_build(frame, sizeof frame, cmd, n);
    if (len == 0) return PN532_EREPLY;

    spi_select(reader);
    spi_transfer(OP_DATA_WRITE);
    for (uint8_t i = 0; i < len; i++) spi_transfer(frame[i]);
    spi_deselect(reader);

    pn532_rx rx;
    if (!wait_ready(reader, ACK_TIMEOUT_MS)) return PN532_ETIMEOUT;
    if (read_frame(reader, &rx) != PN532_RX_ACK) return PN532_ENOACK;

    if (!wait_ready(reader, timeout_ms)) return PN532_ETIMEOUT;
    int8_t result = read_frame(reader, &rx);
    if (result == PN532_RX_ERROR_FRAME) return PN532_ECHIP;
    if (result != PN532_RX_FRAME) return PN532_EFRAME;
    if (rx.len < 2 || rx.data[0] != PN532_TFI_CHIP || rx.data[1] != (uint8_t)(cmd[0] + 1)) {
        return PN532_EREPLY;
    }
    uint8_t count = (uint8_t)(rx.len - 2);
    if (count > cap) count = cap;
    for (uint8_t i = 0; i < count; i++) resp[i] = rx.data[2 + i];
    return (int8_t)count;
}

int8_t pn532_begin(uint8_t reader, uint8_t *ver, uint8_t *rev)
{
    uint8_t resp[8];
    int8_t r;

    /* A chip in power-down wakes on a chip-select low of a couple of milliseconds. */
    spi_select(reader);
    clock_wait_ms(2);
    spi_deselect(reader);

    /* The chip is not reset with us: a response it prepared before our reset would be
     * taken for the ACK of our first command, so read and drop anything pending. */
    if (wait_ready(reader, 0)) {
        pn532_rx stale;
        read_frame(reader, &stale);
    }

    static const uint8_t get_version[] = {CMD_GET_FIRMWARE_VERSION};
    r = pn532_command(reader, get_version, sizeof get_version, resp, sizeof resp, 20);
    if (r < 0) return r;
    if (r < 4 || resp[0] != 0x32) return PN532_EREPLY; /* IC byte: 0x32 is the PN532 */
    *ver = resp[1];
    *rev = resp[2];

    /* Normal mode, no SAM; timeout 50 ms x 20 (unused in normal mode); use the IRQ pin. */
    static const uint8_t sam[] = {CMD_SAM_CONFIGURATION, 0x01, 0x14, 0x01};
    r = pn532_command(reader, sam, sizeof sam, resp, sizeof resp, 20);
    if (r < 0) return r;

    /* MaxRetries: ATR 0xFF, PSL 0x01, passive activation 0x02, so that InListPassiveTarget
     * returns "no target" after three tries instead of waiting for a tag forever. */
    static const uint8_t retries[] = {CMD_RF_CONFIGURATION, 0x05, 0xFF, 0x01, 0x02};
    r = pn532_command(reader, retries, sizeof retries, resp, sizeof resp, 20);
    if (r < 0) return r;

    /* Field off: a tag left selected before our reset returns to IDLE and is found again. */
    static const uint8_t field_off[] = {CMD_RF_CONFIGURATION, 0x01, 0x00};
    r = pn532_command(reader, field_off, sizeof field_off, resp, sizeof resp, 20);
    return r < 0 ? r : 0;
}

int8_t pn532_poll_uid(uint8_t reader, uint8_t *uid)
{
    /* InListPassiveTarget: MaxTg 1, BrTy 0x00 = 106 kbps type A (ISO/IEC 14443 A, NTAG21x). */
    static const uint8_t list[] = {CMD_IN_LIST_PASSIVE_TARGET, 0x01, 0x00};
    uint8_t resp[PN532_MAX_DATA];
    int8_t r = pn532_command(reader, list, sizeof list, resp, sizeof resp, 60);
    if (r < 0) return r;
    /* resp: NbTg, Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID1 ... */
    if (r < 1) return PN532_EREPLY;
    if (resp[0] == 0) return 0;
    if (r < 6) return PN532_EREPLY;
    uint8_t uid_len = resp[5];
    if ((uid_len != 4 && uid_len != 7 && uid_len != 10) || r < 6 + uid_len) return PN532_EREPLY;
    for (uint8_t i = 0; i < uid_len; i++) uid[i] = resp[6 + i];

    /* RFConfiguration item 0x01 (RF field), data 0x00: field off. The next InListPassiveTarget
     * switches it on again and finds the tag in IDLE state. */
    static const uint8_t field_off[] = {CMD_RF_CONFIGURATION, 0x01, 0x00};
    uint8_t ignored[2];
    r = pn532_command(reader, field_off, sizeof field_off, ignored, sizeof ignored, 10);
    if (r < 0) return r;
    return (int8_t)uid_len;
}
