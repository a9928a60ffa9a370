#include "spi.h"
#include "board.h"

#include <avr/io.h>

/* Chip selects: reader 0 on D10 (PB2, also the SPI SS pin, which must be an output for the
 * SPI to stay master), reader 1 on D9 (PB1), reader 2 on D8 (PB0), reader 3 on D7 (PD7). */
static void cs_write(uint8_t reader, uint8_t high)
{
    volatile uint8_t *port = &PORTB;
    uint8_t bit;
    switch (reader) {
    case 0: bit = _BV(PB2); break;
    case 1: bit = _BV(PB1); break;
    case 2: bit = _BV(PB0); break;
    default: port = &PORTD; bit = _BV(PD7); break;
    }
    if (high) *port |= bit; else *port &= (uint8_t)~bit;
}

void spi_init(void)
{
    /* All chip selects high (idle) before they become outputs, so no chip sees a glitch. */
    PORTB |= _BV(PB2) | _BV(PB1) | _BV(PB0);
    PORTD |= _BV(PD7);
    DDRB |= _BV(PB2) | _BV(PB1) | _BV(PB0) | _BV(PB3) | _BV(PB5); /* CS x3, MOSI, SCK */
    DDRD |= _BV(PD7);
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
