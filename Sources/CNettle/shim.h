#ifndef FRUIT_INSPECTORS_CNETTLE_SHIM_H
#define FRUIT_INSPECTORS_CNETTLE_SHIM_H

/*
** Nettle's SHA-256 (nettle_sha256_init, nettle_sha256_update, nettle_sha256_digest on a
** struct sha256_ctx), which picks the CPU's SHA instructions at run time where it has them.
** The short names (sha256_init, ...) are macros that Swift does not import; SQLiteKit calls
** the nettle_ names they stand for.
*/
#include <nettle/sha2.h>

#endif
