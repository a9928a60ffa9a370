/* CRC-8 (polynomial 0x07, initial value 0, no reflection) over a protocol line's body.
 * One byte of check value catches every single-bit and burst error up to eight bits long,
 * which is what a noisy USB-serial bridge or a reset mid-line produces. */
#ifndef ROP_CRC8_H
#define ROP_CRC8_H

#include <stdint.h>

/* Fold one byte into a running CRC and return the new value. */
uint8_t crc8_update(uint8_t crc, uint8_t byte);

#endif
