/* A PN532 as seen from its SPI pins, for running the reader firmware in an emulator.
 *
 * It models what the firmware relies on and checks what the firmware sends: the SPI
 * operation bytes (data write, status read, data read), the frame format with LEN/LCS
 * and DCS (a broken frame is ignored, as the chip does), the ACK-then-response sequence
 * with the status byte's ready bit, processing time per command, the RF field, and an
 * ISO 14443-A tag that answers InListPassiveTarget only from IDLE state (a selected
 * tag needs the field cycled). Checking is written independently of the firmware's
 * own frame code so that a mistake in either shows up. */
#ifndef ROP_PN532_SIM_H
#define ROP_PN532_SIM_H

#include <stdint.h>

typedef struct {
    int fitted;             /* a chip is on this chip-select line */
    int selected;           /* chip select is low */
    int op;                 /* SPI operation of this select window, -1 before it is known */
    uint8_t in[80];         /* bytes of a data-write window */
    int in_len;
    uint8_t out[80];        /* frame waiting to be read */
    int out_len, out_pos;
    uint64_t out_ready_ns;  /* when the status byte starts saying "ready" */
    uint8_t next[80];       /* response queued behind the ACK */
    int next_len;
    uint64_t next_delay_ns; /* processing time of the queued response */
    int rf_on;
    int tag_present, tag_active;
    uint8_t uid[10];
    int uid_len;
    int passive_retries;    /* MxRtyPassiveActivation from RFConfiguration item 5 */
    unsigned frames_good, frames_bad, polls;
} pn532_sim;

void pn532_sim_init(pn532_sim *chip, int fitted);
/* Chip select edge: `low` is 1 when the line went low. */
void pn532_sim_select(pn532_sim *chip, int low, uint64_t now_ns);
/* One byte clocked in from the host; returns the byte clocked out at the same time. */
uint8_t pn532_sim_byte(pn532_sim *chip, uint8_t in, uint64_t now_ns);

#endif
