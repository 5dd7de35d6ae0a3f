// Package framecode stamps a capture time and a frame counter into a
// picture as large black and white blocks, and reads them back from
// decoded pixels: the probe of glass-to-glass latency (display time minus
// the stamped capture time). The blocks survive H.264 at 1 Mbit/s and
// scaling; a browser reads the same code from a canvas.
//
// # Layout
//
// The code is a band across the top of the picture: 2 rows of 40 cells,
// 80 cells in all, numbered 0..79 left to right, top row first (cell i is
// in row i/40, column i%40).
//
//   - Columns: column c spans x from 2*floor(c*W/80) up to (excluding)
//     2*floor((c+1)*W/80), where W is the picture width [px], at least
//     MinWidth (160; widths under 320 that are not multiples of 80 may
//     not read back). The cells tile the full width whatever W is, so a
//     reader of a scaled picture of width W' samples column c around
//     x = (c+0.5)*W'/40.
//   - Rows: each row is S = 2*floor(W/80) pixels high (16 px at 640x480);
//     row r spans y from r*S up to (r+1)*S. A reader samples row r around
//     y = (r+0.5)*W'/40 (the band keeps the picture's aspect ratio).
//   - Levels: a white cell has luma 235, a black cell luma 16 (BT.601
//     limited range); chroma in the band is neutral (128). In a browser's
//     RGB canvas, white reads near 255 and black near 0 on every channel.
//   - Cells 0..3 are references: white, black, white, black. The reader
//     thresholds every cell at the mean of the two levels it measured on
//     them, and rejects a picture whose white and black differ by less than
//     64 (no code there).
//   - Cells 4..75 carry 72 bits, most significant first, 1 = white:
//     bytes 0..5 the capture time in milliseconds since the Unix epoch
//     (48 bits, big-endian), bytes 6..7 the frame counter (16 bits,
//     big-endian, wrapping), byte 8 a CRC-8 of bytes 0..7 (polynomial
//     0x07, initial value 0, no reflection, no final XOR: CRC-8/SMBUS).
//   - Cells 76..79 are black, white, black, white (end marks).
//
// A reader measures each cell as the mean luma (or, in a canvas, the mean
// of R, G and B) of the cell's central half in each direction, which keeps
// the edges that the encoder blurs out of the measurement.
package framecode
