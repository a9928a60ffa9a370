#include "line.h"
#include "crc8.h"
#include "uart.h"

static uint8_t crc;

static const char HEX[] PROGMEM = "0123456789ABCDEF";

static void put_hex_digit(uint8_t v)
{
    uart_putc(pgm_read_byte(&HEX[v & 0x0F]));
}

void line_begin(void)
{
    crc = 0;
}

void line_char(char c)
{
    crc = crc8_update(crc, (uint8_t)c);
    uart_putc((uint8_t)c);
}

void line_str_P(PGM_P s)
{
    char c;
    while ((c = (char)pgm_read_byte(s++)) != 0) line_char(c);
}

void line_str(const char *s)
{
    while (*s) line_char(*s++);
}

void line_u32(uint32_t v)
{
    char digits[10];
    uint8_t n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) line_char(digits[--n]);
}

void line_hex(const uint8_t *b, uint8_t n)
{
    for (uint8_t i = 0; i < n; i++) {
        line_char((char)pgm_read_byte(&HEX[b[i] >> 4]));
        line_char((char)pgm_read_byte(&HEX[b[i] & 0x0F]));
    }
}

void line_end(void)
{
    uart_putc('*');
    put_hex_digit(crc >> 4);
    put_hex_digit(crc);
    uart_putc('\n');
}

static int8_t hex_value(char c)
{
    if (c >= '0' && c <= '9') return (int8_t)(c - '0');
    if (c >= 'A' && c <= 'F') return (int8_t)(c - 'A' + 10);
    if (c >= 'a' && c <= 'f') return (int8_t)(c - 'a' + 10);
    return -1;
}

int8_t line_check(const char *text, uint8_t len)
{
    if (len < 3 || text[len - 3] != '*') return -1;
    int8_t hi = hex_value(text[len - 2]);
    int8_t lo = hex_value(text[len - 1]);
    if (hi < 0 || lo < 0) return -1;
    uint8_t body = (uint8_t)(len - 3);
    uint8_t sum = 0;
    for (uint8_t i = 0; i < body; i++) sum = crc8_update(sum, (uint8_t)text[i]);
    return sum == (uint8_t)((hi << 4) | lo) ? (int8_t)body : -1;
}
