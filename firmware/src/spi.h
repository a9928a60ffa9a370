/* SPI master for the PN532 boards: one shared bus (D11 MOSI, D12 MISO, D13 SCK), one
 * chip-select line per reader. The PN532 wants mode 0, least significant bit first, <= 5 MHz. */
#ifndef ROP_SPI_H
#define ROP_SPI_H

#include <stdint.h>

void spi_init(void);
void spi_select(uint8_t reader);
void spi_deselect(uint8_t reader);
/* Clock one byte out and return the byte clocked in at the same time. */
uint8_t spi_transfer(uint8_t out);

#endif
