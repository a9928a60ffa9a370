/* Interrupt-driven serial port (USART0) with receive and transmit ring buffers, so that
 * polling the readers never stalls on the host and the host never waits on a poll. */
#ifndef ROP_UART_H
#define ROP_UART_H

#include <stdint.h>

void uart_init(void);
/* Queue one byte for sending; waits only when the transmit buffer is full. */
void uart_putc(uint8_t c);
/* Next received byte, or -1 when none is waiting. */
int16_t uart_getc(void);
/* Non-zero once bytes were lost because the receive buffer was full. Clears the flag. */
uint8_t uart_take_overrun(void);
/* Wait until every queued byte has left the shift register (before a reset). */
void uart_flush(void);

#endif
