#include "spi.h"
#include "board.h"

#include <avr/io.h>

/* Chip selects: reader 0 on D10 (PB2, also the SPI SS pin, which must be an output for the
 * SPI to stay master), reader 1 on D9 (PB1), reader 2 on D8 (PB0), then readers 3 to 7 on
 * D7 down to D3 (PD7 to PD3). D2 and A0-A5 stay free; D0 and D1 are the serial port. */
#define CS_PORTB (_BV(PB2) | _BV(PB1) | _BV(PB0))
#define CS_PORTD (_BV(PD7) | _BV(PD6) | _BV(PD5) | _BV(PD4) | _BV(PD3))

#if READER_SLOTS > 8
#error "the board wires eight chip-select lines (D10 to D3)"
#endif

static void cs_write(uint8_t reader, uint8_t high)
{
    volatile uint8_t *port;
    uint8_t bit;
    if (reader < 3) {
        port = &PORTB;
        bit = (uint8_t)(_BV(PB2) >> reader); /* D10, D9, D8: PB2, PB1, PB0 */
    } else {
        port = &PORTD;
        bit = (uint8_t)(_BV(PD7) >> (reader - 3)); /* D7 ... D3: PD7 ... PD3 */
    }
    if (high) *port |= bit; else *port &= (uint8_t)~bit;
}

void spi_init(void)
{
    /* All chip selects high (idle) before they become outputs, so no chip sees a glitch. */
    PORTB |= CS_PORTB;
    PORTD |= CS_PORTD;
    DDRB |= CS_PORTB | _BV(PB3) | _BV(PB5); /* chip selects, MOSI, SCK */
    DDRD |= CS_PORTD;
    /* Enable, master, LSB first (DORD), mode 0, clk/16 = 1 MHz: well within the PN532's 5 MHz
     * and tolerant of long wires to the table zones. */
    SPCR = _BV(SPE) | _BV(MSTR) | _BV(DORD) | _BV(SPR0);
    SPSR = 0;
}

void spi_select(uint8_t reader)
{
    cs_write(reader, 0);
}

void spi_deselect(uint8_t reader)
{
    cs_write(reader, 1);
}

uint8_t spi_transfer(uint8_t out)
{
    SPDR = out;
    while (!(SPSR & _BV(SPIF))) {
    }
    return SPDR;
}
