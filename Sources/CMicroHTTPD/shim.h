#ifndef FRUIT_INSPECTORS_CMICROHTTPD_SHIM_H
#define FRUIT_INSPECTORS_CMICROHTTPD_SHIM_H

/*
** libmicrohttpd as HTTPKit sees it. MHD_start_daemon() takes its options as variadic
** arguments, which Swift cannot pass, and the listening socket is made here (not by the
** library) so that a refused address comes back as its errno ("address in use") instead of
** a line the library prints.
*/

#include <errno.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <microhttpd.h>

/*
** Opens a TCP socket listening on the numeric address `host` (IPv4 such as 127.0.0.1, or IPv6
** such as ::1, without brackets) and `port` (0: the system picks a free one), close-on-exec,
** with SO_REUSEADDR (a restart need not wait for TIME_WAIT; two listeners still cannot share
** a port) and, for IPv6, IPV6_V6ONLY. Stores 1 in *is_ipv6 for an IPv6 address, else 0.
** Returns the socket, or -1 with *error set: EINVAL when `host` is not a numeric address,
** otherwise the errno of socket(), bind() or listen() (EADDRINUSE, EACCES, EADDRNOTAVAIL...).
*/
static inline int cmhd_listen(const char *host, uint16_t port, int backlog, int *is_ipv6,
                              int *error) {
  struct sockaddr_in v4;
  struct sockaddr_in6 v6;
  struct sockaddr *address;
  socklen_t length;
  int family;
  memset(&v4, 0, sizeof v4);
  memset(&v6, 0, sizeof v6);
  if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    v4.sin_port = htons(port);
    address = (struct sockaddr *)&v4;
    length = sizeof v4;
    family = AF_INET;
    *is_ipv6 = 0;
  } else if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons(port);
    address = (struct sockaddr *)&v6;
    length = sizeof v6;
    family = AF_INET6;
    *is_ipv6 = 1;
  } else {
    *error = EINVAL;
    return -1;
  }
  int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    *error = errno;
    return -1;
  }
  int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
  if (bind(fd, address, length) != 0 || listen(fd, backlog) != 0) {
    *error = errno;
    close(fd);
    return -1;
  }
  return fd;
}

/*
** The port a listening socket is bound to (the one the system picked for port 0), or 0 when
** getsockname() fails.
*/
static inline uint16_t cmhd_bound_port(int fd) {
  struct sockaddr_storage address;
  socklen_t length = sizeof address;
  if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return 0;
  if (address.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&address)->sin_port);
  if (address.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&address)->sin6_port);
  return 0;
}

/*
** Starts a daemon on the listening socket `listen_fd` (which it then owns) with `flags`,
** calling `handler` with `handler_cls` for each request and `completed` with `completed_cls`
** when one ends. `key_pem` and `cert_pem` (PEM text, both or neither; `flags` must then hold
** MHD_USE_TLS) configure TLS. `connection_limit` caps the open connections, and a connection
** idle for `timeout_seconds` is closed (0: never). Returns the daemon, or NULL when the
** library refuses (a TLS key or certificate it cannot load, no thread, an option it lacks).
*/
static inline struct MHD_Daemon *cmhd_start(unsigned int flags, int listen_fd,
                                            MHD_AccessHandlerCallback handler, void *handler_cls,
                                            MHD_RequestCompletedCallback completed,
                                            void *completed_cls, const char *key_pem,
                                            const char *cert_pem, unsigned int connection_limit,
                                            unsigned int timeout_seconds) {
  if (key_pem != NULL && cert_pem != NULL) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_HTTPS_MEM_KEY, key_pem, MHD_OPTION_HTTPS_MEM_CERT,
                            cert_pem, MHD_OPTION_END);
  }
  return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls, MHD_OPTION_LISTEN_SOCKET,
                          (MHD_socket)listen_fd, MHD_OPTION_NOTIFY_COMPLETED, completed,
                          completed_cls, MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                          MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds, MHD_OPTION_END);
}

/* MHD_SIZE_UNKNOWN, which Swift cannot import (a cast in a macro). */
static inline uint64_t cmhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

/* MHD_CONTENT_READER_END_OF_STREAM, which Swift cannot import (a cast in a macro). */
static inline ssize_t cmhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

/* MHD_CONTENT_READER_END_WITH_ERROR: the connection is closed without the last chunk. */
static inline ssize_t cmhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

#endif
