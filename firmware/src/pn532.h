/* PN532 driver over SPI: the command / ACK / response exchange (User Manual 6.2.1, 6.2.5)
 * and the few commands a card-presence reader needs. */
#ifndef ROP_PN532_H
#define ROP_PN532_H

#include <stdint.h>

/* Negative results of a command exchange. */
#define PN532_ETIMEOUT -1 /* chip never said ready */
#define PN532_ENOACK -2   /* something other than an ACK after the command */
#define PN532_EFRAME -3   /* response broken: preamble, LCS, DCS or postamble */
#define PN532_EREPLY -4   /* a well-formed frame that is not the answer to our command */
#define PN532_ECHIP -5    /* the chip's error frame or a non-zero status byte */

#define PN532_UID_MAX 10  /* ISO 14443-A: 4, 7 or 10 byte UIDs */

/* Send command `cmd[0]` with parameters `cmd[1..n-1]`, wait for the ACK and the response
 * (at most `timeout_ms` each) and copy the response parameters (after TFI and the
 * response code) to `resp`. Returns their count or a negative PN532_E* value. */
int8_t pn532_command(uint8_t reader, const uint8_t *cmd, uint8_t n,
                     uint8_t *resp, uint8_t cap, uint16_t timeout_ms);

/* Wake the chip, check it is a PN532 and configure it for quick presence polling.
 * Fills `ver`/`rev` with the firmware version. Returns 0 or a negative PN532_E* value. */
int8_t pn532_begin(uint8_t reader, uint8_t *ver, uint8_t *rev);

/* One presence poll: InListPassiveTarget for one ISO 14443-A target at 106 kbps.
 * Returns the UID length (4, 7 or 10) with the UID in `uid`, 0 when no tag answered,
 * or a negative PN532_E* value. Switches the RF field off after a find so that the tag
 * drops back to IDLE and answers the next poll (a selected tag ignores REQA). */
int8_t pn532_poll_uid(uint8_t reader, uint8_t *uid);

#endif
