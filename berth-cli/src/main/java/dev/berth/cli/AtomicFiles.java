package dev.berth.cli;

import dev.berth.failure.BerthException;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Output files are written to a temporary file beside the target and renamed over it, so an
 * earlier output is either kept whole or replaced whole, never left half-written.
 */
final class AtomicFiles {
    private AtomicFiles() {
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
                throw BerthException.invalid(option, output.toString(), option + ": '" + output
                        + "' is also an input; refusing to overwrite it");
            }
        }
    }

    /**
     * A temporary file is created readable by its owner only; the output gets the permissions
     * of the file it replaces, or {@code rw-r--r--} when it is new, like any file a tool writes.
     */
    private static void permissions(Path tmp, Path target) throws IOException {
        if (!Files.getFileStore(tmp).supportsFileAttributeView(java.nio.file.attribute.PosixFileAttributeView.class)) {
            return;
        }
        java.util.Set<java.nio.file.attribute.PosixFilePermission> perms = Files.exists(target)
                ? Files.getPosixFilePermissions(target)
                : java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--");
        Files.setPosixFilePermissions(tmp, perms);
    }

    static void write(Path target, byte[] bytes) {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        try {
            if (dir != null) {
                Files.createDirectories(dir);
            }
            Path tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
            try {
                Files.write(tmp, bytes);
                permissions(tmp, abs);
                try {
                    Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw BerthException.invalid(target.toString(), "cannot write " + target + ": " + e.getMessage());
        }
    }
}
