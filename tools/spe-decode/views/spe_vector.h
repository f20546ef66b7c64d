/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Golden vectors: a text description of packets -> bytes (views/vector.c).
 * The test suites, the benchmarks and spe-decode encode write SPE streams
 * with it, readably, including streams no real unit would write (reserved
 * encodings, cut packets, raw bytes).  It is the command's and the tests',
 * not libspe-decode's: part of libspe-views.a, not installed.
 *
 * One packet per line; '#' starts a comment.  Examples:
 *
 *   pc 0xffff800008001234 el=1 ns=1     address, index 0 (short header)
 *   tgt 0x400000 el=0 ns=1              branch target (index 1)
 *   pbt 0x400000 el=0 ns=1              previous branch target (index 4)
 *   va 0xffff00001000 tag=0x0f          data virtual address
 *   pa 0x80001000 ns=1 ch=1 pat=3       data physical address
 *   addr 9 0x1234 [ext]                 any index; ext forces 16-bit header
 *   lat tot 12 | lat iss 3 | lat xlat 5 | lat 7 99 [ext]
 *   ev retired l1d-access [size=2]      names or 'ev 0x12'
 *   ds 0x8 [size=2]                     data source
 *   ctx 0x5f80 [el2]                    context
 *   op ld gp | op st simd | op b cond call | op 1 0x25    operation type
 *   ts 44731163950                      timestamp (ends a record)
 *   end | pad [N] | align 16            framing
 *   raw 0x52 0x16 0x00                  literal bytes
 *
 * The full grammar is in tools/spe-decode/Documentation/spe-decode.txt.
 */
#ifndef SPE_VECTOR_H
#define SPE_VECTOR_H

#include <stddef.h>
#include <stdint.h>

#include "spe_decode.h"

/*
 * The encoder's own error, besides the library's SPE_ERR_INVAL and
 * SPE_ERR_NOSPACE that it also returns: a line that does not parse.  Its
 * value is the one enum spe_error keeps unused since the encoder left the
 * library (it was SPE_ERR_SYNTAX there), so it is neither a library code
 * nor an -errno value.  spe_vec_strerror() names it.
 */
enum spe_vec_error {
	SPE_VEC_ERR_SYNTAX	= -(SPE_ERR_BASE + 6),
};

/*
 * Encode one line into @out (@cap bytes), as if written at stream offset
 * @offset (needed by 'align').  Returns the number of bytes written (0 for
 * a blank or comment line), SPE_VEC_ERR_SYNTAX (with a reason in @why,
 * which may be NULL, when given) or SPE_ERR_NOSPACE.
 */
int spe_vec_encode_line(const char *line, size_t line_len, uint64_t offset,
			uint8_t *out, size_t cap, const char **why);

/*
 * Encode a whole vector text.  Returns the number of bytes needed (which
 * may exceed @cap; then only @cap bytes were written), or
 * SPE_VEC_ERR_SYNTAX with the 1-based line number in *@err_line and the
 * reason in *@why.
 */
long spe_vec_encode(const char *text, size_t text_len, uint8_t *out,
		    size_t cap, unsigned *err_line, const char **why);

/* What an error of the encoder means: its own, or spe_strerror()'s. */
const char *spe_vec_strerror(int err);

#endif /* SPE_VECTOR_H */
