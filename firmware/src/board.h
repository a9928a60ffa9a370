/* Board configuration: clock, serial speed, reader chip-select pins.
 * Change here, rebuild; PROTOCOL.md and README.md describe the defaults. */
#ifndef ROP_BOARD_H
#define ROP_BOARD_H

#ifndef F_CPU
#define F_CPU 16000000UL /* Arduino Uno / Nano crystal */
#endif

#define FW_VERSION "1.1.0"
#define PROTOCOL_VERSION 1

#define UART_BAUD 115200UL

#ifndef READER_SLOTS
/* Chip-select lines wired: D10, D9, D8, D7, D6, D5, D4, D3 (spi.c): the centre and a Fate
 * reader for each of up to seven players, so one board serves a table of six. */
#define READER_SLOTS 8
#endif

#define HEARTBEAT_MS 1000     /* one HB line per second so the host can tell silence from a hang */
#define GONE_AFTER_MISSES 2   /* consecutive empty polls before a tag counts as lifted */
#define FAILS_BEFORE_DOWN 3   /* consecutive chip errors before a reader counts as down */
#define RETRY_DOWN_MS 2000    /* how often a down or absent reader is probed again */

#endif
