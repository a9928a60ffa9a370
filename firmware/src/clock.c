#include "clock.h"
#include "board.h"

#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

static volatile uint32_t ticks_ms;

ISR(TIMER0_COMPA_vect)
{
    ticks_ms++;
}

void clock_init(void)
{
    /* Timer0, CTC mode, clk/64, compare at 250: 16 MHz / 64 / 250 = 1 kHz. */
    TCCR0A = _BV(WGM01);
    TCCR0B = _BV(CS01) | _BV(CS00);
    OCR0A = (uint8_t)(F_CPU / 64 / 1000 - 1);
    TIMSK0 = _BV(OCIE0A);
    /* Timer1, normal mode, clk/64: one count every 4 us, read directly. */
    TCCR1A = 0;
    TCCR1B = _BV(CS11) | _BV(CS10);
}

uint32_t clock_ms(void)
{
    uint32_t now;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { now = ticks_ms; }
    return now;
}

uint16_t clock_ticks4us(void)
{
    uint16_t now;
    /* TCNT1 is a 16-bit register read through the shared TEMP latch: no interrupt in between. */
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { now = TCNT1; }
    return now;
}

void clock_wait_ms(uint16_t ms)
{
    uint32_t start = clock_ms();
    while (clock_ms() - start < ms) {
    }
}
