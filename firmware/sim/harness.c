/* Runs the reader firmware on an emulated ATmega328P (simavr) with emulated PN532 chips
 * on its SPI bus and its serial port bridged to a pseudo-terminal, in real time.
 *
 *   rop-nfc-sim FIRMWARE.elf [--chips 01234567] [--link PATH] [--speed X]
 *
 * The host talks to the firmware through the pseudo-terminal exactly as through a USB
 * serial adapter. The table is driven by commands on standard input, one a line:
 *   tag R UIDHEX     put a tag on reader R      lift R      take it away
 *   chip R on|off    fit or remove reader R's chip
 *   corrupt N        flip a bit in byte N (from 0) of the next line the board sends
 *   freeze / thaw    stop / resume the processor (a hung board: no heartbeat)
 *   garbage HEX      inject raw bytes towards the host, as line noise would
 *   reset            pulse the reset pin         unplug / plug   drop / restore the port
 *   stats            print per-chip counters     quit
 *   await R N        answer once reader R has been polled N more times: the board has
 *                    then seen whatever the table changed before (a tag lifted N-1 polls ago)
 * Each command is answered on standard output ("OK ...", "ERR ..."); the first line is
 * "PTY <path>", and again after each plug. With --link the path is also kept as a
 * symbolic link at PATH, so the host can reopen the same name after an unplug. */
#define _GNU_SOURCE
#include "pn532_sim.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <simavr/avr_ioport.h>
#include <simavr/avr_spi.h>
#include <simavr/avr_uart.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>
#include <simavr/sim_time.h>

#define READERS 8 /* chip-select lines wired, as the firmware's board.h has them */
#define SPCR_ADDR 0x4C /* SPCR in data space on the ATmega328P */
#define DORD_BIT 0x20

static avr_t *avr;
static pn532_sim chips[READERS];
static avr_irq_t *spi_in, *uart_in;
static int master = -1, slave = -1;
static char pty_path[256];
static const char *link_path;
static uint8_t to_host[4096];
static int to_host_len;
static uint8_t to_board[1024];
static int to_board_len, to_board_pos;
static int uart_xon = 1;
static long corrupt_countdown = -1;
static int corrupt_armed; /* waiting for the start of the next line */
static int at_line_start = 1;
static int frozen;
static double speed = 1.0;
static int awaiting = -1;           /* the reader an "await" waits on, -1 for none */
static unsigned await_polls;        /* its chip's poll count that answers the await */
static uint64_t await_given_up_ns;  /* wall time at which an await that never ends is refused */

static uint64_t sim_ns(void)
{
    return avr_cycles_to_nsec(avr, avr->cycle);
}

static uint64_t wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint8_t reverse_bits(uint8_t b)
{
    b = (uint8_t)((b & 0xF0) >> 4 | (b & 0x0F) << 4);
    b = (uint8_t)((b & 0xCC) >> 2 | (b & 0x33) << 2);
    return (uint8_t)((b & 0xAA) >> 1 | (b & 0x55) << 1);
}

/* A byte left the MCU's SPI: hand it to whichever chip is selected, answer with its byte. */
static void on_spi_out(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    /* The PN532 shifts LSB first; a master set to MSB first sees every byte mirrored. */
    int lsb_first = (avr->data[SPCR_ADDR] & DORD_BIT) != 0;
    uint8_t out = lsb_first ? (uint8_t)value : reverse_bits((uint8_t)value);
    uint8_t answer = 0x00;
    int selected = 0;
    for (int r = 0; r < READERS; r++) {
        if (chips[r].fitted && chips[r].selected) {
            answer = pn532_sim_byte(&chips[r], out, sim_ns());
            selected++;
        }
    }
    if (selected > 1) answer = 0xFF; /* two drivers on MISO: garbage */
    avr_raise_irq(spi_in, lsb_first ? answer : reverse_bits(answer));
}

static void on_cs(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    pn532_sim_select(&chips[(intptr_t)param], value == 0, sim_ns());
}

static void on_uart_out(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    uint8_t b = (uint8_t)value;
    if (corrupt_armed && at_line_start) corrupt_armed = 0;
    if (!corrupt_armed && corrupt_countdown >= 0 && corrupt_countdown-- == 0) b ^= 0x04;
    at_line_start = b == '\n';
    if (to_host_len < (int)sizeof to_host) to_host[to_host_len++] = b;
}

static void on_xon(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)value; (void)param;
    uart_xon = 1;
}

static void on_xoff(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)value; (void)param;
    uart_xon = 0;
}

static int open_port(void)
{
    master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) || unlockpt(master)) return -1;
    snprintf(pty_path, sizeof pty_path, "%s", ptsname(master));
    /* Keep the far end open in raw mode ourselves: no echo, no line editing before the host
     * opens it, and no hang-up on our side when the host closes and reopens it. */
    slave = open(pty_path, O_RDWR | O_NOCTTY);
    if (slave < 0) return -1;
    struct termios t;
    tcgetattr(slave, &t);
    cfmakeraw(&t);
    tcsetattr(slave, TCSANOW, &t);
    fcntl(master, F_SETFL, O_NONBLOCK);
    if (link_path) {
        unlink(link_path);
        if (symlink(pty_path, link_path)) return -1;
    }
    printf("PTY %s\n", pty_path);
    fflush(stdout);
    return 0;
}

static void close_port(void)
{
    if (link_path) unlink(link_path);
    if (slave >= 0) close(slave);
    if (master >= 0) close(master);
    slave = master = -1;
    to_host_len = 0;
}

static int parse_hex(const char *s, uint8_t *out, int cap)
{
    int n = 0;
    size_t len = strlen(s);
    if (len % 2) return -1;
    for (size_t i = 0; i < len; i += 2) {
        unsigned v;
        if (n >= cap || sscanf(s + i, "%2x", &v) != 1) return -1;
        out[n++] = (uint8_t)v;
    }
    return n;
}

/* One command line from standard input; returns 0 to quit. */
static int command(char *line)
{
    char word[16] = "", a[64] = "", b[64] = "";
    int n = sscanf(line, "%15s %63s %63s", word, a, b);
    int r = atoi(a);
    int reader_ok = n >= 2 && r >= 0 && r < READERS;
    if (n < 1) return 1;
    if (!strcmp(word, "tag") && reader_ok && n == 3) {
        int len = parse_hex(b, chips[r].uid, 10);
        if (len != 4 && len != 7 && len != 10) { puts("ERR uid must be 4, 7 or 10 bytes"); goto done; }
        chips[r].uid_len = len;
        chips[r].tag_present = 1;
        chips[r].tag_active = 0;
        printf("OK tag %d %.3f\n", r, sim_ns() / 1e9);
    } else if (!strcmp(word, "lift") && reader_ok) {
        chips[r].tag_present = 0;
        chips[r].tag_active = 0;
        printf("OK lift %d %.3f\n", r, sim_ns() / 1e9);
    } else if (!strcmp(word, "chip") && reader_ok && n == 3) {
        int keep_tag = chips[r].tag_present;
        uint8_t uid[10];
        int uid_len = chips[r].uid_len;
        memcpy(uid, chips[r].uid, 10);
        pn532_sim_init(&chips[r], !strcmp(b, "on"));
        chips[r].tag_present = keep_tag;
        chips[r].uid_len = uid_len;
        memcpy(chips[r].uid, uid, 10);
        printf("OK chip %d %s\n", r, b);
    } else if (!strcmp(word, "corrupt") && n >= 2) {
        corrupt_countdown = atol(a);
        corrupt_armed = 1;
        printf("OK corrupt\n");
    } else if (!strcmp(word, "freeze")) {
        frozen = 1;
        printf("OK freeze\n");
    } else if (!strcmp(word, "thaw")) {
        frozen = 0;
        printf("OK thaw\n");
    } else if (!strcmp(word, "garbage") && n >= 2) {
        uint8_t bytes[32];
        int len = parse_hex(a, bytes, 32);
        if (len < 0) { puts("ERR garbage wants hex"); goto done; }
        for (int i = 0; i < len && to_host_len < (int)sizeof to_host; i++) to_host[to_host_len++] = bytes[i];
        printf("OK garbage\n");
    } else if (!strcmp(word, "reset")) {
        avr_reset(avr);
        for (int i = 0; i < READERS; i++) {
            /* The reset line of the board also resets the readers' chip-select state. */
            chips[i].selected = 0;
            chips[i].op = -1;
        }
        printf("OK reset\n");
    } else if (!strcmp(word, "unplug")) {
        close_port();
        printf("OK unplug\n");
    } else if (!strcmp(word, "plug")) {
        if (master < 0 && open_port() < 0) { puts("ERR cannot open a pseudo-terminal"); goto done; }
        printf("OK plug\n");
    } else if (!strcmp(word, "stats")) {
        for (int i = 0; i < READERS; i++) {
            printf("STATS %d fitted=%d good=%u bad=%u polls=%u\n", i, chips[i].fitted,
                   chips[i].frames_good, chips[i].frames_bad, chips[i].polls);
        }
        printf("OK stats %.3f\n", sim_ns() / 1e9);
    } else if (!strcmp(word, "await") && reader_ok && n == 3 && atoi(b) > 0) {
        if (!chips[r].fitted) { printf("ERR await: reader %d has no chip\n", r); goto done; }
        if (awaiting >= 0) { puts("ERR await: already waiting"); goto done; }
        awaiting = r;
        await_polls = chips[r].polls + (unsigned)atoi(b);
        /* Only a board that stopped polling takes this long: the test fails instead of hanging. */
        await_given_up_ns = wall_ns() + 60ULL * 1000000000ULL;
        /* Answered by answer_await() once the polls are done. */
    } else if (!strcmp(word, "quit")) {
        return 0;
    } else {
        printf("ERR unknown command: %s", line);
    }
done:
    fflush(stdout);
    return 1;
}

/* Move bytes between the pseudo-terminal and the UART, read commands; 0 to quit. */
static int service(void)
{
    if (master >= 0 && to_host_len) {
        ssize_t w = write(master, to_host, (size_t)to_host_len);
        /* Nobody reading and the terminal buffer full: bytes are lost, as on a real wire. */
        if (w < 0) w = to_host_len;
        memmove(to_host, to_host + w, (size_t)(to_host_len - w));
        to_host_len -= (int)w;
    }
    if (master >= 0 && to_board_pos == to_board_len) {
        ssize_t n = read(master, to_board, sizeof to_board);
        to_board_pos = 0;
        to_board_len = n > 0 ? (int)n : 0;
    }
    while (to_board_pos < to_board_len && uart_xon) {
        avr_raise_irq(uart_in, to_board[to_board_pos++]);
    }
    struct pollfd p = {.fd = 0, .events = POLLIN};
    if (poll(&p, 1, 0) > 0) {
        static char buf[512];
        static size_t len;
        ssize_t n = read(0, buf + len, sizeof buf - 1 - len);
        if (n <= 0) return 0; /* the controlling process went away */
        len += (size_t)n;
        char *nl;
        while ((nl = memchr(buf, '\n', len)) != NULL) {
            *nl = 0;
            char line[520];
            snprintf(line, sizeof line, "%s\n", buf);
            size_t used = (size_t)(nl - buf) + 1;
            memmove(buf, nl + 1, len - used);
            len -= used;
            if (!command(line)) return 0;
        }
        if (len == sizeof buf - 1) len = 0;
    }
    return 1;
}

/* The answer to a pending "await", once its reader has been polled as often as awaited. */
static void answer_await(void)
{
    if (awaiting < 0) return;
    if (chips[awaiting].polls >= await_polls) {
        printf("OK await %d %.3f\n", awaiting, sim_ns() / 1e9);
    } else if (wall_ns() > await_given_up_ns) {
        printf("ERR await: reader %d not polled as often as awaited within 60 s\n", awaiting);
    } else {
        return;
    }
    awaiting = -1;
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const char *elf = NULL;
    int fitted[READERS];
    for (int r = 0; r < READERS; r++) fitted[r] = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--chips") && i + 1 < argc) {
            memset(fitted, 0, sizeof fitted);
            for (char *s = argv[++i]; *s; s++) {
                if (*s >= '0' && *s < '0' + READERS) fitted[*s - '0'] = 1;
            }
        } else if (!strcmp(argv[i], "--link") && i + 1 < argc) {
            link_path = argv[++i];
        } else if (!strcmp(argv[i], "--speed") && i + 1 < argc) {
            speed = atof(argv[++i]);
        } else {
            elf = argv[i];
        }
    }
    if (!elf) {
        fprintf(stderr, "usage: %s FIRMWARE.elf [--chips 01234567] [--link PATH] [--speed X]\n", argv[0]);
        return 2;
    }
    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(elf, &fw)) {
        fprintf(stderr, "cannot read firmware %s\n", elf);
        return 1;
    }
    avr = avr_make_mcu_by_name("atmega328p");
    if (!avr) {
        fprintf(stderr, "simavr has no atmega328p\n");
        return 1;
    }
    avr_init(avr);
    avr->frequency = 16000000;
    avr->log = LOG_ERROR;
    avr_load_firmware(avr, &fw);

    for (int r = 0; r < READERS; r++) pn532_sim_init(&chips[r], fitted[r]);

    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(uint32_t)(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), on_uart_out, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), on_xon, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), on_xoff, NULL);
    spi_in = avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT), on_spi_out, NULL);
    /* Chip selects as wired in README.md: D10 = PB2, D9 = PB1, D8 = PB0, then D7 to D3 =
     * PD7 to PD3. */
    for (int r = 0; r < READERS; r++) {
        char port = r < 3 ? 'B' : 'D';
        int pin = r < 3 ? 2 - r : 7 - (r - 3);
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), pin), on_cs, (void *)(intptr_t)r);
    }

    if (open_port() < 0) {
        fprintf(stderr, "cannot open a pseudo-terminal: %s\n", strerror(errno));
        return 1;
    }

    uint64_t wall0 = wall_ns(), sim0 = sim_ns();
    unsigned steps = 0;
    for (;;) {
        if (frozen) {
            /* Processor stopped: only the port and the commands are served. */
            struct timespec pause = {0, 1000000};
            nanosleep(&pause, NULL);
            if (!service()) break;
            answer_await();
            wall0 = wall_ns();
            sim0 = sim_ns();
            continue;
        }
        int state = avr_run(avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            fprintf(stderr, "firmware stopped (state %d) at %.3f s\n", state, sim_ns() / 1e9);
            break;
        }
        if (++steps < 2000) continue; /* about 125 us of board time between services */
        steps = 0;
        if (!service()) break;
        answer_await();
        /* Real time: never run ahead of the wall clock (scaled by --speed). */
        uint64_t s = sim_ns();
        if (s < sim0) sim0 = s; /* a reset may restart the cycle count */
        uint64_t ahead_of = (uint64_t)((double)(wall_ns() - wall0) * speed);
        if (s - sim0 > ahead_of + 200000) {
            struct timespec ts = {0, (long)((double)(s - sim0 - ahead_of) / speed)};
            nanosleep(&ts, NULL);
        }
    }
    close_port();
    return 0;
}
