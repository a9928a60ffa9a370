#include "pn532_sim.h"

#include <string.h>

#define US 1000ULL
#define ACK_DELAY_NS (300 * US)      /* the chip acknowledges in well under a millisecond */
#define CMD_DELAY_NS (500 * US)      /* simple commands */
#define ACTIVATION_NS (1000 * US)    /* one passive activation attempt at 106 kbps */

static const uint8_t ACK[] = {0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00};
static const uint8_t ERROR_FRAME[] = {0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00};

void pn532_sim_init(pn532_sim *chip, int fitted)
{
    memset(chip, 0, sizeof *chip);
    chip->fitted = fitted;
    chip->op = -1;
    chip->passive_retries = 0xFF;
}

/* Wrap response data (TFI D5 included) into a normal information frame. */
static int frame_response(uint8_t *out, const uint8_t *data, int n)
{
    int i = 0;
    uint8_t sum = 0;
    out[i++] = 0x00;
    out[i++] = 0x00;
    out[i++] = 0xFF;
    out[i++] = (uint8_t)n;
    out[i++] = (uint8_t)(-n);
    for (int k = 0; k < n; k++) {
        out[i++] = data[k];
        sum = (uint8_t)(sum + data[k]);
    }
    out[i++] = (uint8_t)(-sum);
    out[i++] = 0x00;
    return i;
}

/* Check a host frame the way the chip does; returns the TFI+data length or -1. */
static int check_host_frame(const uint8_t *f, int n, const uint8_t **data)
{
    int i = 0;
    while (i < n && f[i] == 0x00) i++;
    if (i == 0 || i >= n || f[i] != 0xFF) return -1; /* start code 00 FF */
    i++;
    if (i + 2 > n) return -1;
    uint8_t len = f[i], lcs = f[i + 1];
    if ((uint8_t)(len + lcs) != 0 || len < 2) return -1;
    i += 2;
    if (i + len + 1 > n) return -1;
    uint8_t sum = 0;
    for (int k = 0; k <= len; k++) sum = (uint8_t)(sum + f[i + k]); /* data and DCS */
    if (sum != 0 || f[i] != 0xD4) return -1;
    *data = f + i;
    return len;
}

static void queue(pn532_sim *chip, const uint8_t *data, int n, uint64_t delay_ns)
{
    chip->next_len = frame_response(chip->next, data, n);
    chip->next_delay_ns = delay_ns;
}

static void execute(pn532_sim *chip, const uint8_t *d, int n)
{
    uint8_t r[40];
    uint8_t code = d[1];
    r[0] = 0xD5;
    r[1] = (uint8_t)(code + 1);
    switch (code) {
    case 0x02: /* GetFirmwareVersion: IC 0x32, version 1.6, supports ISO A, B, 18092 */
        r[2] = 0x32; r[3] = 0x01; r[4] = 0x06; r[5] = 0x07;
        queue(chip, r, 6, CMD_DELAY_NS);
        return;
    case 0x14: /* SAMConfiguration */
        if (n < 3) break;
        queue(chip, r, 2, CMD_DELAY_NS);
        return;
    case 0x32: /* RFConfiguration */
        if (n < 4) break;
        if (d[2] == 0x01) {
            chip->rf_on = d[3] & 0x01;
            if (!chip->rf_on) chip->tag_active = 0; /* no field, no power: the tag resets */
        } else if (d[2] == 0x05 && n >= 6) {
            chip->passive_retries = d[5];
        }
        queue(chip, r, 2, CMD_DELAY_NS);
        return;
    case 0x4A: { /* InListPassiveTarget */
        if (n < 4 || d[2] != 1 || d[3] != 0x00) break; /* we model one 106 kbps type A target */
        chip->rf_on = 1;
        chip->polls++;
        if (chip->tag_present && !chip->tag_active) {
            chip->tag_active = 1;
            int k = 2;
            r[k++] = 1;    /* NbTg */
            r[k++] = 1;    /* Tg */
            r[k++] = 0x00; /* SENS_RES: 0x0044, NTAG21x */
            r[k++] = 0x44;
            r[k++] = 0x00; /* SEL_RES: Type 2 tag */
            r[k++] = (uint8_t)chip->uid_len;
            memcpy(r + k, chip->uid, (size_t)chip->uid_len);
            k += chip->uid_len;
            queue(chip, r, k, ACTIVATION_NS + CMD_DELAY_NS);
        } else {
            r[2] = 0;
            uint64_t tries = chip->passive_retries == 0xFF ? 1000 : (uint64_t)chip->passive_retries + 1;
            queue(chip, r, 3, tries * ACTIVATION_NS);
        }
        return;
    }
    default:
        break;
    }
    chip->next_len = (int)sizeof ERROR_FRAME;
    memcpy(chip->next, ERROR_FRAME, sizeof ERROR_FRAME);
    chip->next_delay_ns = CMD_DELAY_NS;
}

void pn532_sim_select(pn532_sim *chip, int low, uint64_t now_ns)
{
    if (!chip->fitted) return;
    if (low) {
        chip->selected = 1;
        chip->op = -1;
        chip->in_len = 0;
        return;
    }
    chip->selected = 0;
    if (chip->op == 0x01) {
        const uint8_t *data;
        int n = check_host_frame(chip->in, chip->in_len, &data);
        if (n < 0) {
            chip->frames_bad++; /* the chip ignores a frame it cannot parse: no ACK */
            return;
        }
        chip->frames_good++;
        memcpy(chip->out, ACK, sizeof ACK);
        chip->out_len = (int)sizeof ACK;
        chip->out_pos = 0;
        chip->out_ready_ns = now_ns + ACK_DELAY_NS;
        execute(chip, data, n);
    } else if (chip->op == 0x03 && chip->out_len && chip->out_pos >= chip->out_len) {
        /* Frame read completely: the response behind an ACK becomes the next thing to read. */
        chip->out_len = 0;
        if (chip->next_len) {
            memcpy(chip->out, chip->next, (size_t)chip->next_len);
            chip->out_len = chip->next_len;
            chip->out_pos = 0;
            chip->out_ready_ns = now_ns + chip->next_delay_ns;
            chip->next_len = 0;
        }
    }
}

uint8_t pn532_sim_byte(pn532_sim *chip, uint8_t in, uint64_t now_ns)
{
    if (!chip->fitted || !chip->selected) return 0x00;
    if (chip->op < 0) {
        chip->op = in;
        if (in == 0x03 && chip->out_len && now_ns >= chip->out_ready_ns) chip->out_pos = 0;
        return 0x00;
    }
    switch (chip->op) {
    case 0x01:
        if (chip->in_len < (int)sizeof chip->in) chip->in[chip->in_len++] = in;
        return 0x00;
    case 0x02:
        return (chip->out_len && now_ns >= chip->out_ready_ns) ? 0x01 : 0x00;
    case 0x03:
        if (chip->out_len && now_ns >= chip->out_ready_ns && chip->out_pos < chip->out_len) {
            return chip->out[chip->out_pos++];
        }
        return 0x00;
    default:
        return 0x00;
    }
}
