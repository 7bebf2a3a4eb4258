"""A FUSE file system that can lose power (run by Debian's python3, which
has python3-pyfuse3; the suite itself needs only the standard library).

    python3 powerfs.py BACKING MOUNTPOINT

It passes every operation through to the folder BACKING and records, apart
from that, each one that changes something, in order (model.py says what a
log holds and what a power cut keeps of it). It is driven by lines on its
standard input and answers on its standard output:

    block N      hold the N-th point (0 is the first change) when it comes:
                 say `blocked N <what>` and wait, without doing it
    cut          the power goes: the held point (if any) and every later
                 operation fail with EIO, nothing more is done or recorded;
                 says `cut <points seen>`
    dump PATH    pickle the log (state at mount, births, operations) to PATH
    boot         power on again over the backing folder as it is now (laid
                 anew while the power was off): all of it durable, a new log
    points       says `points <points seen>`
    exit         unmount and end (so does the end of standard input)

It says `ready` once mounted. What a crash keeps is computed from the dump
(model.Plan): the folder BACKING is the live state, as the page cache would
have it, and is not the disk after a power cut.

Kernel caches are off (entry and attribute timeouts 0, no writeback cache,
the page cache dropped at each open), so every call reaches it and BACKING
stays the single truth. Locks (flock) stay the kernel's own.
"""

import errno
import functools
import logging
import os
import pickle
import stat
import sys
import traceback

import pyfuse3
import trio

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model  # noqa: E402

FUSEError = pyfuse3.FUSEError


class PowerFS(pyfuse3.Operations):
    enable_writeback_cache = False

    def __init__(self, backing):
        super().__init__()
        self.backing = backing
        # An O_PATH descriptor for each inode the kernel knows, and how many
        # lookups it holds on it (forget gives them back).
        self.paths = {model.ROOT: os.open(backing, os.O_PATH | os.O_DIRECTORY)}
        self.lookups = {model.ROOT: 1}
        self.open_files = {}  # file handle (our descriptor) -> inode
        self.next_number = model.ROOT + 1
        self.boot()

    def boot(self):
        """Power on over the backing folder as it is now: all of it durable,
        a new log. Inodes get numbers never given before, so nothing the
        kernel still remembers of an earlier boot can be mistaken for them."""
        for number in [number for number in self.paths if number != model.ROOT]:
            os.close(self.paths.pop(number))
        self.lookups = {model.ROOT: 1}
        # Files still open from before stay open until the kernel releases them.
        initial, identity = model.snapshot(self.backing, first=self.next_number)
        self.log = model.new_log(initial)
        self.live = model.copy_state(initial)
        self.by_file = {key: number for number, key in identity.items()}
        self.next_number = max(initial) + 1
        self.count = 0
        self.block_at = None
        self.held = None
        self.off = False

    # --- Points, power and the log ----------------------------------------

    def event(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def powered(self):
        if self.off:
            raise FUSEError(errno.EIO)

    async def point(self, what, inode=None, name=None):
        """Every change passes here before it is made: counted, held when it
        is the point asked for, refused once the power is off. The caller
        then makes it and records it (no await in between, so no other
        request comes between the two)."""
        self.powered()
        number = self.count
        self.count += 1
        if number == self.block_at:
            self.held = trio.Event()
            where = model.path_of(self.live, inode) if inode is not None else None
            self.event("blocked %d %s %s%s" % (number, what, where,
                                                "/" + os.fsdecode(name) if name else ""))
            await self.held.wait()
        self.powered()

    def record(self, operation):
        if operation[0] == "fsync":
            label = model.path_of(self.live, operation[1])
            operation = operation[:3] + (label if label is not None else "(no name)",)
        self.log["operations"].append(operation)
        model.apply(self.live, operation, self.log["births"])

    def cut(self):
        self.off = True
        if self.held is not None:
            self.held.set()

    # --- Inodes -----------------------------------------------------------

    def path(self, inode):
        try:
            return self.paths[inode]
        except KeyError:
            raise FUSEError(errno.ESTALE)

    def proc(self, inode):
        """A path that opens the inode itself, wherever its names are."""
        return "/proc/self/fd/%d" % self.path(inode)

    def number_of(self, info):
        try:
            return self.by_file[(info.st_dev, info.st_ino)]
        except KeyError:
            # Only a change made behind the file system's back gets here.
            sys.stderr.write("powerfs: a file it did not make: inode %d\n" % info.st_ino)
            raise FUSEError(errno.EIO)

    def hold(self, number, folder, name):
        """One more lookup of `number`, found as `name` in `folder`."""
        if number not in self.paths:
            self.paths[number] = os.open(name, os.O_PATH | os.O_NOFOLLOW, dir_fd=self.path(folder))
        self.lookups[number] = self.lookups.get(number, 0) + 1

    def attributes(self, number, info):
        entry = pyfuse3.EntryAttributes()
        entry.st_ino = number
        entry.generation = 0
        entry.entry_timeout = 0
        entry.attr_timeout = 0
        for name in ("st_mode", "st_nlink", "st_uid", "st_gid", "st_rdev", "st_size",
                     "st_atime_ns", "st_mtime_ns", "st_ctime_ns", "st_blksize", "st_blocks"):
            setattr(entry, name, getattr(info, name))
        return entry

    def name_info(self, folder, name):
        try:
            return os.lstat(name, dir_fd=self.path(folder))
        except OSError as error:
            raise FUSEError(error.errno)

    # --- Reading ----------------------------------------------------------

    async def lookup(self, parent, name, ctx=None):
        self.powered()
        info = self.name_info(parent, name)
        number = self.number_of(info)
        self.hold(number, parent, name)
        return self.attributes(number, info)

    async def forget(self, inode_list):
        for number, count in inode_list:
            left = self.lookups.get(number, 0) - count
            if left > 0 or number == model.ROOT:
                self.lookups[number] = max(left, 1)
                continue
            self.lookups.pop(number, None)
            descriptor = self.paths.pop(number, None)
            if descriptor is not None:
                os.close(descriptor)

    async def getattr(self, inode, ctx=None):
        self.powered()
        try:
            info = os.fstat(self.path(inode))
        except OSError as error:
            raise FUSEError(error.errno)
        return self.attributes(inode, info)

    async def readlink(self, inode, ctx):
        self.powered()
        try:
            return os.fsencode(os.readlink("", dir_fd=self.path(inode)))
        except OSError as error:
            raise FUSEError(error.errno)

    async def opendir(self, inode, ctx):
        self.powered()
        self.path(inode)
        return inode

    async def readdir(self, inode, start, token):
        self.powered()
        try:
            descriptor = os.open(self.proc(inode), os.O_RDONLY | os.O_DIRECTORY)
            try:
                names = sorted(os.listdir(descriptor))
            finally:
                os.close(descriptor)
        except OSError as error:
            raise FUSEError(error.errno)
        for index in range(start, len(names)):
            name = os.fsencode(names[index])
            try:
                info = os.lstat(name, dir_fd=self.path(inode))
            except FileNotFoundError:
                continue
            number = self.number_of(info)
            if not pyfuse3.readdir_reply(token, name, self.attributes(number, info), index + 1):
                break
            self.hold(number, inode, name)

    async def releasedir(self, fh):
        pass

    async def statfs(self, ctx):
        self.powered()
        data = pyfuse3.StatvfsData()
        info = os.statvfs(self.backing)
        for name in ("f_bsize", "f_frsize", "f_blocks", "f_bfree", "f_bavail", "f_files",
                     "f_ffree", "f_favail", "f_namemax"):
            setattr(data, name, getattr(info, name))
        return data

    async def open(self, inode, flags, ctx):
        self.powered()
        # The kernel has followed the path already; the /proc name is a link.
        flags &= ~(os.O_NOFOLLOW | os.O_CREAT | os.O_EXCL)
        old_size = None
        if flags & os.O_TRUNC:
            # The kernel passes O_TRUNC on (atomic_o_trunc): a change like any.
            await self.point("truncate", inode)
            old_size = os.fstat(self.path(inode)).st_size
        try:
            descriptor = os.open(self.proc(inode), flags)
        except OSError as error:
            raise FUSEError(error.errno)
        if old_size is not None:
            self.record(("truncate", inode, 0, old_size))
        self.open_files[descriptor] = inode
        return pyfuse3.FileInfo(fh=descriptor, keep_cache=False)

    async def read(self, fh, offset, length):
        self.powered()
        try:
            return os.pread(fh, length, offset)
        except OSError as error:
            raise FUSEError(error.errno)

    async def flush(self, fh):
        pass

    async def release(self, fh):
        inode = self.open_files.pop(fh, None)
        os.close(fh)
        if inode is not None and not self.off and inode in self.live:
            self.record(("close", inode))

    # --- Changing ---------------------------------------------------------

    async def create(self, parent, name, mode, flags, ctx):
        await self.point("create", parent, name)
        mode = stat.S_IMODE(mode) & ~ctx.umask
        flags = (flags | os.O_CREAT | os.O_EXCL) & ~os.O_TRUNC
        try:
            descriptor = os.open(name, flags, mode, dir_fd=self.path(parent))
            info = os.fstat(descriptor)
        except OSError as error:
            raise FUSEError(error.errno)
        number = self.made(parent, name, info, (model.FILE, stat.S_IMODE(info.st_mode), b""))
        self.open_files[descriptor] = number
        return pyfuse3.FileInfo(fh=descriptor, keep_cache=False), self.attributes(number, info)

    async def mkdir(self, parent, name, mode, ctx):
        await self.point("mkdir", parent, name)
        try:
            os.mkdir(name, stat.S_IMODE(mode) & ~ctx.umask, dir_fd=self.path(parent))
            info = os.lstat(name, dir_fd=self.path(parent))
        except OSError as error:
            raise FUSEError(error.errno)
        number = self.made(parent, name, info, (model.FOLDER, stat.S_IMODE(info.st_mode), None))
        return self.attributes(number, info)

    async def symlink(self, parent, name, target, ctx):
        await self.point("symlink", parent, name)
        try:
            os.symlink(target, name, dir_fd=self.path(parent))
            info = os.lstat(name, dir_fd=self.path(parent))
        except OSError as error:
            raise FUSEError(error.errno)
        number = self.made(parent, name, info, (model.LINK, 0o777, os.fsdecode(target)))
        return self.attributes(number, info)

    def made(self, parent, name, info, birth):
        """Records a new inode under a number of the log's own (the backing
        folder may reuse its inode numbers; the log never does)."""
        number = self.next_number
        self.next_number += 1
        self.log["births"][number] = birth
        self.by_file[(info.st_dev, info.st_ino)] = number
        self.record(("add", parent, os.fsdecode(name), number, birth))
        self.hold(number, parent, name)
        return number

    async def mknod(self, parent, name, mode, rdev, ctx):
        raise FUSEError(errno.EPERM)  # only files, folders and links are modelled

    async def link(self, inode, new_parent, new_name, ctx):
        await self.point("link", new_parent, new_name)
        try:
            os.link(self.proc(inode), new_name, dst_dir_fd=self.path(new_parent),
                    follow_symlinks=True)
            info = os.fstat(self.path(inode))
        except OSError as error:
            raise FUSEError(error.errno)
        self.record(("add", new_parent, os.fsdecode(new_name), inode, None))
        self.lookups[inode] = self.lookups.get(inode, 0) + 1
        return self.attributes(inode, info)

    async def unlink(self, parent, name, ctx):
        await self.remove(parent, name, os.unlink)

    async def rmdir(self, parent, name, ctx):
        await self.remove(parent, name, os.rmdir)

    async def remove(self, parent, name, call):
        await self.point(call.__name__, parent, name)
        number = self.number_of(self.name_info(parent, name))
        try:
            call(name, dir_fd=self.path(parent))
        except OSError as error:
            raise FUSEError(error.errno)
        self.record(("remove", parent, os.fsdecode(name), number))

    async def rename(self, parent, name, new_parent, new_name, flags, ctx):
        await self.point("rename", parent, name)
        if flags & pyfuse3.RENAME_EXCHANGE:
            raise FUSEError(errno.EINVAL)
        moved = self.number_of(self.name_info(parent, name))
        try:
            replaced = self.number_of(os.lstat(new_name, dir_fd=self.path(new_parent)))
        except FileNotFoundError:
            replaced = None
        if replaced is not None and flags & pyfuse3.RENAME_NOREPLACE:
            raise FUSEError(errno.EEXIST)
        try:
            os.rename(name, new_name, src_dir_fd=self.path(parent),
                      dst_dir_fd=self.path(new_parent))
        except OSError as error:
            raise FUSEError(error.errno)
        self.record(("rename", parent, os.fsdecode(name), new_parent, os.fsdecode(new_name),
                     moved, replaced))

    async def setattr(self, inode, attr, fields, fh, ctx):
        target = fh if fh is not None else self.proc(inode)
        try:
            if fields.update_size:
                await self.point("truncate", inode)
                old = os.fstat(self.path(inode)).st_size
                os.truncate(target, attr.st_size)
                self.record(("truncate", inode, attr.st_size, old))
            changed = {}
            if fields.update_mode:
                changed["mode"] = stat.S_IMODE(attr.st_mode)
            if fields.update_uid:
                changed["uid"] = attr.st_uid
            if fields.update_gid:
                changed["gid"] = attr.st_gid
            if fields.update_mtime:
                changed["mtime_ns"] = attr.st_mtime_ns
            if changed or fields.update_atime:
                await self.point("setattr", inode)
                if "mode" in changed:
                    os.chmod(target, changed["mode"])
                if "uid" in changed or "gid" in changed:
                    os.chown(target, changed.get("uid", -1), changed.get("gid", -1))
                if fields.update_mtime or fields.update_atime:
                    info = os.fstat(self.path(inode))
                    os.utime(target, ns=(attr.st_atime_ns if fields.update_atime
                                         else info.st_atime_ns,
                                         attr.st_mtime_ns if fields.update_mtime
                                         else info.st_mtime_ns))
                self.record(("attr", inode, changed))
            info = os.fstat(self.path(inode))
        except OSError as error:
            raise FUSEError(error.errno)
        return self.attributes(inode, info)

    async def write(self, fh, offset, buffer):
        inode = self.open_files[fh]
        await self.point("write", inode)
        try:
            written = os.pwrite(fh, buffer, offset)
        except OSError as error:
            raise FUSEError(error.errno)
        self.record(("write", inode, offset, bytes(buffer[:written])))
        return written

    async def fsync(self, fh, datasync):
        # The backing folder is scratch: what is durable is the log's to say.
        inode = self.open_files[fh]
        await self.point("fsync", inode)
        self.record(("fsync", inode, bool(datasync)))

    async def fsyncdir(self, fh, datasync):
        await self.point("fsync", fh)
        self.record(("fsync", fh, bool(datasync)))


def guarded(handler):
    """A handler that fails with EIO, and says why on standard error, on
    any unexpected exception: pyfuse3 would end its main loop on one."""
    @functools.wraps(handler)
    async def guarded_handler(*arguments):
        try:
            return await handler(*arguments)
        except FUSEError:
            raise
        except Exception:
            sys.stderr.write("powerfs: %s failed:\n%s" % (handler.__name__,
                                                          traceback.format_exc()))
            sys.stderr.flush()
            raise FUSEError(errno.EIO)
    return guarded_handler


for _name in ("lookup", "forget", "getattr", "readlink", "opendir", "readdir", "releasedir",
              "statfs", "open", "read", "flush", "release", "create", "mkdir", "symlink",
              "mknod", "link", "unlink", "rmdir", "rename", "setattr", "write", "fsync",
              "fsyncdir"):
    setattr(PowerFS, _name, guarded(getattr(PowerFS, _name)))


async def control(operations, nursery):
    """Reads commands from standard input until `exit` or its end."""
    stream = trio.lowlevel.FdStream(os.dup(0))
    pending = b""
    try:
        while True:
            chunk = await stream.receive_some(4096)
            if not chunk:
                break
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                sys.stderr.write("powerfs: %r\n" % line)
                sys.stderr.flush()
                words = line.decode().split(" ", 1)
                command, argument = words[0], words[1] if len(words) > 1 else ""
                if command == "block":
                    operations.block_at = int(argument)
                elif command == "cut":
                    operations.cut()
                    operations.event("cut %d" % operations.count)
                elif command == "points":
                    operations.event("points %d" % operations.count)
                elif command == "dump":
                    with open(argument, "wb") as file:
                        pickle.dump(operations.log, file, protocol=4)
                    operations.event("dumped")
                elif command == "boot":
                    operations.boot()
                    operations.event("booted")
                elif command == "exit":
                    return
                else:
                    operations.event("error unknown command %r" % command)
    finally:
        await stream.aclose()
        operations.cut()
        pyfuse3.terminate()
        nursery.cancel_scope.deadline = trio.current_time() + 5


async def serve(operations):
    async with trio.open_nursery() as nursery:
        nursery.start_soon(control, operations, nursery)
        operations.event("ready")
        await pyfuse3.main()
        nursery.cancel_scope.cancel()


def main():
    # pyfuse3 reports a handler's unexpected exception through logging.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="powerfs: %(levelname)s %(message)s")
    backing, mountpoint = sys.argv[1], sys.argv[2]
    operations = PowerFS(os.path.abspath(backing))
    options = set(pyfuse3.default_options)
    options.add("fsname=powerfs")
    options.add("subtype=powerfs")
    pyfuse3.init(operations, mountpoint, options)
    try:
        trio.run(serve, operations)
    finally:
        pyfuse3.close(unmount=True)


if __name__ == "__main__":
    main()
