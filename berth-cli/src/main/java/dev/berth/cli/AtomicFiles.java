package dev.berth.cli;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.io.model.FileErrors;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Output files are written to a temporary file beside the target and renamed over it, so an
 * earlier output is either kept whole or replaced whole, never left half-written.
 */
final class AtomicFiles {
    private AtomicFiles() {
    }

    /** The temporary files being written now, in any thread: what a second Ctrl-C deletes before it exits. */
    private static final Set<Path> IN_FLIGHT = ConcurrentHashMap.newKeySet();

    /** Deletes every temporary file being written (a second Ctrl-C, {@link Interrupts}); targets are never touched. */
    static void discardInFlight() {
        for (Path tmp : IN_FLIGHT) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                // the process ends now: nothing more can be done about it
            }
        }
    }

    /** Refuses an output path that is one of the inputs: writing it would destroy what the user had. */
    static void requireDistinct(Path output, String option, List<Path> inputs) {
        Path out = output.toAbsolutePath().normalize();
        for (Path in : inputs) {
            Path i = in.toAbsolutePath().normalize();
            boolean same = out.equals(i);
            try {
                same = same || (Files.exists(out) && Files.exists(i) && Files.isSameFile(out, i));
            } catch (IOException e) {
                // cannot tell: the name comparison above stands
            }
            if (same) {
                throw Require.invalid(option, output.toString(), "'" + output
                        + "' is also an input; refusing to overwrite it");
            }
        }
    }

    /**
     * A temporary file is created readable by its owner only; the output gets the permissions
     * of the file it replaces, or {@code rw-r--r--} when it is new, like any file a tool writes.
     */
    private static void permissions(Path tmp, Path target) throws IOException {
        if (!Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
            return;
        }
        Set<PosixFilePermission> perms = Files.exists(target)
                ? Files.getPosixFilePermissions(target)
                : PosixFilePermissions.fromString("rw-r--r--");
        Files.setPosixFilePermissions(tmp, perms);
    }

    /**
     * The file a chain of symbolic links names, dangling or not (at most 40 links, as Linux
     * follows): the rename replaces that file and the links stay.
     */
    private static Path throughLinks(Path p) throws IOException {
        for (int hops = 0; Files.isSymbolicLink(p); hops++) {
            if (hops == 40) {
                throw new FileSystemException(p.toString(), null, "too many levels of symbolic links");
            }
            Path target = Files.readSymbolicLink(p);
            Path dir = p.getParent();
            p = (dir == null ? target : dir.resolve(target)).toAbsolutePath().normalize();
        }
        return p;
    }

    /** What goes into one output file, written to the stream of its temporary file (a large plan is never one array). */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;

        static Content of(byte[] bytes) {
            return out -> out.write(bytes);
        }
    }

    static void write(Path target, byte[] bytes) {
        Map<Path, Content> one = new LinkedHashMap<>();
        one.put(target, Content.of(bytes));
        writeAll(one);
    }

    /**
     * Writes several outputs of one run: every one is first written whole to its temporary file,
     * and only when all are written are they renamed over their targets. A failure before the
     * renames (a directory that cannot be made, a full disk) leaves every earlier output as it
     * was; no temporary file stays behind.
     *
     * <p>A target that is a symbolic link is written through: the file it names is replaced, the
     * link stays. A target that exists and is not a regular file (a FIFO, {@code /dev/null}, a
     * terminal, {@code /dev/fd/N} of a shell's process substitution) cannot be renamed over
     * without destroying it: it is written directly, after every temporary file is complete and
     * before the first rename, so that a failed direct write leaves the regular outputs as they were.
     */
    static void writeAll(Map<Path, Content> outputs) {
        Map<Path, Path> temporaries = new LinkedHashMap<>();
        Map<Path, Content> direct = new LinkedHashMap<>();
        Path current = null;
        try {
            for (Map.Entry<Path, Content> e : outputs.entrySet()) {
                current = e.getKey();
                Path abs = current.toAbsolutePath();
                if (Files.isDirectory(abs)) {
                    throw BerthException.invalid(current.toString(), current.toString(), "cannot write " + current
                            + ": it is a directory; give a file name");
                }
                if (Files.exists(abs) && !Files.isRegularFile(abs)) {
                    // as given: /dev/fd/N of a pipe has no real path to resolve
                    direct.put(abs, e.getValue());
                    continue;
                }
                abs = throughLinks(abs);
                Path dir = abs.getParent();
                if (dir != null) {
                    Files.createDirectories(dir);
                }
                Path tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
                IN_FLIGHT.add(tmp);
                temporaries.put(abs, tmp);
                try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                    e.getValue().writeTo(out);
                }
                permissions(tmp, abs);
            }
            // the direct writes before any rename: one that fails (a reader gone, /dev/full) leaves every
            // regular output as it was
            for (Map.Entry<Path, Content> e : direct.entrySet()) {
                current = e.getKey();
                try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(e.getKey()), 1 << 16)) {
                    e.getValue().writeTo(out);
                }
            }
            for (Map.Entry<Path, Path> e : temporaries.entrySet()) {
                current = e.getKey();
                try {
                    Files.move(e.getValue(), e.getKey(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException x) {
                    Files.move(e.getValue(), e.getKey(), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw FileErrors.cannotWrite(String.valueOf(current), e);
        } finally {
            for (Path tmp : temporaries.values()) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    // best effort: the temporary file's name says what it is
                }
                IN_FLIGHT.remove(tmp);
            }
        }
    }
}
