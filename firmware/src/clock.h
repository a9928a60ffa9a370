/* Time base from the hardware timers: Timer0 gives a 1 ms tick, Timer1 a 4 us counter
 * used to measure how long one reader's poll takes. */
#ifndef ROP_CLOCK_H
#define ROP_CLOCK_H

#include <stdint.h>

void clock_init(void);
/* Milliseconds since reset (wraps after 49 days). */
uint32_t clock_ms(void);
/* Free-running 4 us ticks (wraps every 262 ms): for durations shorter than that. */
uint16_t clock_ticks4us(void);
/* Busy-wait at least `ms` milliseconds on the tick. */
void clock_wait_ms(uint16_t ms);

#endif
