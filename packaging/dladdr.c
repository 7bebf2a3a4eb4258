// Linked into the release build only (the Makefile's STATIC_DLADDR), never
// compiled by SwiftPM.
//
// A static executable's C library knows of no loaded object, so its dladdr
// finds nothing. The Swift runtime asks dladdr for its own path as it
// starts; finding nothing, it reads /proc/self/exe, and where /proc is not
// mounted (a chroot, a minimal container) it aborts: "Unable to obtain Swift
// runtime path". This dladdr answers for the executable itself, named as it
// was run (AT_EXECFN), which is what the runtime wants the path for: to look
// for its crash reporter (swift-backtrace) beside the toolchain, which a
// packaged filenote does not have. Its definition takes the place of the C
// library's, which is weak.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <sys/auxv.h>

// Defined by the linker: the first byte of the executable's image, and the
// first past its end.
extern const char __ehdr_start[];
extern const char _end[];

int dladdr(const void *address, Dl_info *info) {
  const char *byte = address;
  const char *name = (const char *)getauxval(AT_EXECFN);
  if (byte < __ehdr_start || byte >= _end || name == NULL) {
    return 0;
  }
  info->dli_fname = name;
  info->dli_fbase = (void *)__ehdr_start;
  info->dli_sname = NULL;
  info->dli_saddr = NULL;
  return 1;
}
