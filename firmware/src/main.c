/* Rule of Power reader board: polls up to eight PN532 readers (one per table zone) and
 * reports tags arriving and leaving over the serial line protocol of PROTOCOL.md. */
#include "board.h"
#include "clock.h"
#include "line.h"
#include "pn532.h"
#include "spi.h"
#include "uart.h"

#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/pgmspace.h>
#include <avr/wdt.h>
#include <string.h>

typedef struct {
    uint8_t up;                   /* chip answered and is configured */
    uint8_t fails;                /* consecutive failed polls */
    uint8_t misses;               /* consecutive empty polls while a tag is present */
    uint8_t uid_len;              /* 0: no tag present */
    uint8_t uid[PN532_UID_MAX];
    uint8_t ver, rev;             /* chip firmware version */
    int8_t last_error;            /* why the reader is down (PN532_E*), 0 if never tried */
    uint32_t retry_at;            /* when to probe a down reader again */
    uint32_t polls;               /* completed polls, for STAT */
    uint32_t poll_ticks_sum;      /* sum of poll durations in 4 us ticks */
    uint16_t poll_ticks_max;
} reader_t;

static reader_t readers[READER_SLOTS];

/* Stack measurement: the free RAM between the end of static data and the stack is filled
 * with a pattern at start; the lowest overwritten byte shows the deepest the stack went. */
#define STACK_PAINT 0xC5
extern uint8_t __heap_start; /* end of .data, .bss and .noinit (linker script) */

static void stack_paint(void)
{
    uint8_t *p = &__heap_start;
    uint8_t *limit = (uint8_t *)SP - 16; /* stay clear of our own frame */
    while (p < limit) *p++ = STACK_PAINT;
}

static uint16_t stack_never_used(void)
{
    const uint8_t *p = &__heap_start;
    uint16_t n = 0;
    while (p <= (const uint8_t *)RAMEND && *p == STACK_PAINT) {
        p++;
        n++;
    }
    return n;
}

/* MCUSR says why we (re)started; it must be read and the watchdog stopped before main,
 * or a watchdog reset would repeat forever. */
static uint8_t reset_cause __attribute__((section(".noinit")));
void early_init(void) __attribute__((naked, used, section(".init3")));
void early_init(void)
{
    reset_cause = MCUSR;
    MCUSR = 0;
    wdt_disable();
}

static void say_error_name(int8_t err)
{
    switch (err) {
    case PN532_ETIMEOUT: line_str_P(PSTR("TIMEOUT")); break;
    case PN532_ENOACK: line_str_P(PSTR("NOACK")); break;
    case PN532_EFRAME: line_str_P(PSTR("FRAME")); break;
    case PN532_EREPLY: line_str_P(PSTR("REPLY")); break;
    case PN532_ECHIP: line_str_P(PSTR("CHIP")); break;
    default: line_str_P(PSTR("NOCHIP")); break;
    }
}

static void say_hello(void)
{
    line_begin();
    line_str_P(PSTR("HELLO ROP-NFC "));
    line_u32(PROTOCOL_VERSION);
    line_str_P(PSTR(" " FW_VERSION " "));
    line_u32(READER_SLOTS);
    line_char(' ');
    if (reset_cause & _BV(WDRF)) line_str_P(PSTR("WATCHDOG"));
    else if (reset_cause & _BV(BORF)) line_str_P(PSTR("BROWNOUT"));
    else if (reset_cause & _BV(EXTRF)) line_str_P(PSTR("EXTERNAL"));
    else line_str_P(PSTR("POWER"));
    line_end();
}

static void say_reader(uint8_t r)
{
    reader_t *rd = &readers[r];
    line_begin();
    line_str_P(PSTR("RDR "));
    line_u32(r);
    if (rd->up) {
        line_str_P(PSTR(" UP PN532 "));
        line_u32(rd->ver);
        line_char('.');
        line_u32(rd->rev);
    } else {
        line_str_P(PSTR(" DOWN "));
        say_error_name(rd->last_error);
    }
    line_end();
}

static void say_tag(const char *what, uint8_t r, const uint8_t *uid, uint8_t len)
{
    line_begin();
    line_str(what);
    line_char(' ');
    line_u32(r);
    line_char(' ');
    line_hex(uid, len);
    line_end();
}

static void say_reader_error(uint8_t r, int8_t err)
{
    line_begin();
    line_str_P(PSTR("ERR "));
    line_u32(r);
    line_char(' ');
    say_error_name(err);
    line_end();
}

static void say_simple(PGM_P text)
{
    line_begin();
    line_str_P(text);
    line_end();
}

static void say_stats(void)
{
    for (uint8_t r = 0; r < READER_SLOTS; r++) {
        reader_t *rd = &readers[r];
        uint32_t avg_us = rd->polls ? (rd->poll_ticks_sum / rd->polls) * 4 : 0;
        line_begin();
        line_str_P(PSTR("STAT "));
        line_u32(r);
        line_char(' ');
        line_u32(rd->polls);
        line_char(' ');
        line_u32(avg_us);
        line_char(' ');
        line_u32((uint32_t)rd->poll_ticks_max * 4);
        line_end();
    }
    /* MEM <static> <stack peak> <never used>, all in bytes of the 2 KB RAM. */
    uint16_t static_bytes = (uint16_t)(&__heap_start - (uint8_t *)RAMSTART);
    uint16_t unused = stack_never_used();
    uint16_t peak = (uint16_t)(RAMEND + 1 - (uint16_t)&__heap_start - unused);
    line_begin();
    line_str_P(PSTR("MEM "));
    line_u32(static_bytes);
    line_char(' ');
    line_u32(peak);
    line_char(' ');
    line_u32(unused);
    line_end();
}

/* The tag on reader r is gone (lifted, or the reader failed and can no longer vouch for it). */
static void drop_tag(uint8_t r)
{
    reader_t *rd = &readers[r];
    if (rd->uid_len) {
        say_tag("GONE", r, rd->uid, rd->uid_len);
        rd->uid_len = 0;
    }
    rd->misses = 0;
}

static void probe_reader(uint8_t r)
{
    reader_t *rd = &readers[r];
    int8_t err = pn532_begin(r, &rd->ver, &rd->rev);
    rd->fails = 0;
    if (err == 0) {
        rd->up = 1;
        rd->last_error = 0;
    } else {
        rd->up = 0;
        rd->last_error = err;
        rd->retry_at = clock_ms() + RETRY_DOWN_MS;
    }
}

static void poll_reader(uint8_t r)
{
    reader_t *rd = &readers[r];
    if (!rd->up) {
        if ((int32_t)(clock_ms() - rd->retry_at) >= 0) {
            probe_reader(r);
            if (rd->up) say_reader(r); /* only news is worth a line: it came back */
            else rd->retry_at = clock_ms() + RETRY_DOWN_MS;
        }
        return;
    }

    uint8_t uid[PN532_UID_MAX];
    uint16_t start = clock_ticks4us();
    int8_t n = pn532_poll_uid(r, uid);
    uint16_t took = (uint16_t)(clock_ticks4us() - start);

    if (n < 0) {
        say_reader_error(r, n);
        if (++rd->fails >= FAILS_BEFORE_DOWN) {
            rd->up = 0;
            rd->last_error = n;
            rd->retry_at = clock_ms() + RETRY_DOWN_MS;
            drop_tag(r);
            say_reader(r);
        }
        return;
    }
    rd->fails = 0;
    rd->polls++;
    rd->poll_ticks_sum += took;
    if (took > rd->poll_ticks_max) rd->poll_ticks_max = took;

    if (n == 0) {
        /* Debounce: a tag at the edge of the field may miss one poll without being lifted. */
        if (rd->uid_len && ++rd->misses >= GONE_AFTER_MISSES) drop_tag(r);
        return;
    }
    rd->misses = 0;
    if (rd->uid_len == (uint8_t)n && memcmp(rd->uid, uid, (size_t)n) == 0) return;
    drop_tag(r); /* a different tag replaced the previous one within one poll */
    memcpy(rd->uid, uid, (size_t)n);
    rd->uid_len = (uint8_t)n;
    say_tag("TAG", r, uid, rd->uid_len);
}

/* Host commands: one line each, checksummed like ours. */
#define CMD_MAX 24
static char cmd_buf[CMD_MAX];
static uint8_t cmd_len, cmd_overflow;

static void run_command(const char *cmd, uint8_t len)
{
    if (len == 4 && memcmp_P(cmd, PSTR("PING"), 4) == 0) {
        say_simple(PSTR("PONG"));
    } else if (len == 4 && memcmp_P(cmd, PSTR("INFO"), 4) == 0) {
        say_hello();
        for (uint8_t r = 0; r < READER_SLOTS; r++) say_reader(r);
        /* Re-announce present tags so a host that (re)connected learns the table as it is. */
        for (uint8_t r = 0; r < READER_SLOTS; r++) {
            if (readers[r].uid_len) say_tag("TAG", r, readers[r].uid, readers[r].uid_len);
        }
        say_simple(PSTR("READY"));
    } else if (len == 4 && memcmp_P(cmd, PSTR("STAT"), 4) == 0) {
        say_stats();
    } else if (len == 5 && memcmp_P(cmd, PSTR("RESET"), 5) == 0) {
        say_simple(PSTR("OK RESET"));
        uart_flush();
        wdt_enable(WDTO_15MS);
        for (;;) {
        }
    } else {
        say_simple(PSTR("ERR - CMD"));
    }
}

static void read_commands(void)
{
    int16_t c;
    if (uart_take_overrun()) cmd_overflow = 1;
    while ((c = uart_getc()) >= 0) {
        if (c == '\r') continue;
        if (c == '\n') {
            if (cmd_overflow) {
                say_simple(PSTR("ERR - OVERFLOW"));
            } else if (cmd_len > 0) {
                int8_t body = line_check(cmd_buf, cmd_len);
                if (body < 0) say_simple(PSTR("ERR - CRC"));
                else run_command(cmd_buf, (uint8_t)body);
            }
            cmd_len = 0;
            cmd_overflow = 0;
        } else if (cmd_len < CMD_MAX) {
            cmd_buf[cmd_len++] = (char)c;
        } else {
            cmd_overflow = 1; /* keep swallowing up to the newline, then complain once */
        }
    }
}

int main(void)
{
    stack_paint();
    clock_init();
    uart_init();
    spi_init();
    sei();
    wdt_enable(WDTO_500MS); /* a wedged bus or chip must not wedge the board */

    say_hello();
    for (uint8_t r = 0; r < READER_SLOTS; r++) {
        probe_reader(r);
        wdt_reset();
        say_reader(r);
    }

    uint8_t next = 0, ready_sent = 0;
    uint32_t last_beat = clock_ms();
    for (;;) {
        wdt_reset();
        read_commands();
        poll_reader(next);
        if (++next == READER_SLOTS) {
            next = 0;
            if (!ready_sent) {
                /* Every reader was polled once: the host now knows every tag on the table. */
                say_simple(PSTR("READY"));
                ready_sent = 1;
            }
        }
        uint32_t now = clock_ms();
        if (now - last_beat >= HEARTBEAT_MS) {
            last_beat = now;
            line_begin();
            line_str_P(PSTR("HB "));
            line_u32(now);
            line_end();
        }
    }
}
