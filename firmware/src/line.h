/* Writing protocol lines: BODY '*' CRC8-in-two-hex-digits '\n' (see PROTOCOL.md).
 * The checksum is computed while the body streams out, so no line buffer is needed. */
#ifndef ROP_LINE_H
#define ROP_LINE_H

#include <avr/pgmspace.h>
#include <stdint.h>

void line_begin(void);
void line_char(char c);
void line_str_P(PGM_P s);          /* a string kept in flash */
void line_str(const char *s);      /* a string in RAM */
void line_u32(uint32_t v);         /* decimal */
void line_hex(const uint8_t *b, uint8_t n); /* upper-case hex, two digits a byte */
void line_end(void);

/* Verify a received line (without its '\n') in place: returns the body length when the
 * "*HH" suffix matches the body's CRC, or -1 when it is missing or wrong. */
int8_t line_check(const char *text, uint8_t len);

#endif
